#!/usr/bin/env python3
"""End-to-end checks of irlint's linter surface: the rule registry (`irlint rules`), rule selection,
severities, --min-severity, --statistics and --exclude globs relative to the PATH argument.

    linter_test.py --irlint build/irlint --testdata testdata

Prints one line per failed check and a closing line `N passed, M failed`; exits 1 on any failure.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

IRLINT = None
TESTDATA = None
CHECKS = []


class Failure(Exception):
    pass


def check(fn):
    CHECKS.append(fn)
    return fn


def run(*args, cwd=None):
    return subprocess.run([IRLINT] + [str(a) for a in args], capture_output=True, text=True, timeout=60, cwd=cwd)


def expect(cond, what):
    if not cond:
        raise Failure(what)


CONTRACT_RULES = ["xml-malformed", "ir-structure", "edge-shape-mismatch", "edge-type-mismatch", "attr-invalid",
                  "output-shape-mismatch", "output-type-mismatch", "const-data-invalid", "unsupported-op",
                  "check-timeout", "onnx-shape-inference-mismatch", "runtime-divergence"]


@check
def rules_json_lists_every_rule():
    proc = run("rules", "--format", "json")
    expect(proc.returncode == 0, f"exit {proc.returncode}")
    rules = json.loads(proc.stdout)["rules"]
    ids = [r["id"] for r in rules]
    expect(sorted(ids) == sorted(CONTRACT_RULES), f"rule ids {ids}")
    by_id = {r["id"]: r for r in rules}
    expect(by_id["runtime-divergence"]["severity"] == "warning", f"{by_id['runtime-divergence']}")
    expect(by_id["unsupported-op"]["severity"] == "note", f"{by_id['unsupported-op']}")
    expect(all(set(r) >= {"id", "severity", "fixable", "description"} and isinstance(r["fixable"], bool)
               for r in rules), "a rule lacks a key")


@check
def rules_table_and_one_rule():
    table = run("rules")
    lines = table.stdout.splitlines()
    expect(table.returncode == 0 and lines[0].split() == ["rule", "severity", "fixable", "description"],
           f"table header {lines[:1]}")
    expect(len(lines) == 1 + len(CONTRACT_RULES), f"{len(lines)} lines")
    row = next(line for line in lines if line.startswith("unsupported-op "))
    expect(row.split()[1:3] == ["note", "no"], row)
    one = run("rules", "output-shape-mismatch")
    expect(one.returncode == 0 and "**What it checks.**" in one.stdout and "**How to fix.**" in one.stdout
           and "## attr-invalid" not in one.stdout, one.stdout[:300])
    doc = json.loads(run("rules", "attr-invalid", "--format", "json").stdout)["rules"][0]
    expect(doc["id"] == "attr-invalid" and "What it checks" in doc["documentation"], str(doc)[:200])
    bad = run("rules", "no-such-rule")
    expect(bad.returncode == 2 and "output-shape-mismatch" in bad.stderr, f"exit {bad.returncode}: {bad.stderr}")


def rules_of(proc):
    return [d["rule"] for f in json.loads(proc.stdout)["files"] for d in f["diagnostics"]]


@check
def select_ignore_and_severity():
    broken = os.path.join(TESTDATA, "broken", "output_shape_wrong_dim.xml")
    every = rules_of(run("check", broken, "--format", "json"))
    expect("output-shape-mismatch" in every, f"{every}")
    only = rules_of(run("check", broken, "--format", "json", "--select", "output-shape-mismatch"))
    expect(only and set(only) == {"output-shape-mismatch"}, f"--select: {only}")
    none = run("check", broken, "--format", "json", "--ignore", "output-shape-mismatch,edge-shape-mismatch")
    expect("output-shape-mismatch" not in rules_of(none), f"--ignore: {rules_of(none)}")
    off = run("check", broken, "--select", "output-shape-mismatch", "--severity", "output-shape-mismatch=off")
    expect(off.returncode == 0, f"=off: exit {off.returncode}")
    warn = run("check", broken, "--format", "json", "--select", "output-shape-mismatch",
               "--severity", "output-shape-mismatch=warning")
    report = json.loads(warn.stdout)
    expect(warn.returncode == 0 and report["summary"]["errors"] == 0 and report["summary"]["warnings"] == len(only),
           f"=warning: exit {warn.returncode}, {report['summary']}")
    for args in (["--select", "nope"], ["--severity", "attr-invalid=loud"], ["--severity", "attr-invalid"]):
        bad = run("check", broken, *args)
        expect(bad.returncode == 2 and ("valid" in bad.stderr or "RULE=LEVEL" in bad.stderr),
               f"{args}: exit {bad.returncode}: {bad.stderr}")


@check
def min_severity_and_statistics():
    model = os.path.join(TESTDATA, "valid", "adaptive_avgpool8_no_bin.xml")
    text = run("check", model, "--statistics")
    expect("[const-data-invalid]" not in text.stdout and "1 note hidden" in text.stdout, text.stdout)
    stats = [line.split() for line in text.stdout.splitlines() if line.strip().endswith(" note")]
    expect(["1", "const-data-invalid", "note"] in stats, f"statistics: {stats}")
    shown = run("check", model, "--min-severity", "note")
    expect("[const-data-invalid]" in shown.stdout and "hidden" not in shown.stdout, shown.stdout)
    machine = json.loads(run("check", model, "--format", "json").stdout)
    expect(rules_of_report(machine) == ["const-data-invalid"], f"json default shows notes: {machine}")


def rules_of_report(report):
    return [d["rule"] for f in report["files"] for d in f["diagnostics"]]


@check
def exclude_is_relative_to_the_path_argument():
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(TESTDATA, "broken", "output_shape_wrong_dim.xml")
        os.makedirs(os.path.join(tmp, "models", "sub"))
        shutil.copy(src, os.path.join(tmp, "models", "sub", "a.xml"))
        shutil.copy(src, os.path.join(tmp, "models", "b.xml"))
        for spelling in ("models", "./models/", os.path.join(tmp, "models")):
            for glob in ("sub/*", "sub"):
                proc = run("check", spelling, "--exclude", glob, "--format", "json", cwd=tmp)
                paths = [os.path.basename(f["path"]) for f in json.loads(proc.stdout)["files"]]
                expect(paths == ["b.xml"], f"check {spelling} --exclude {glob}: {paths}")
            proc = run("check", spelling, "--exclude", "models/sub/*", "--format", "json", cwd=tmp)
            expect(len(json.loads(proc.stdout)["files"]) == 2,
                   f"check {spelling}: a glob with the PATH's own name matched")


@check
def baseline_survives_moved_lines_and_catches_new_findings():
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(TESTDATA, "broken", "output_shape_wrong_dim.xml")
        models = os.path.join(tmp, "models")
        os.makedirs(models)
        shutil.copy(src, os.path.join(models, "a.xml"))
        base = os.path.join(tmp, "base.json")
        wrote = run("check", "models", "--write-baseline", base, cwd=tmp)
        expect(wrote.returncode == 0, f"--write-baseline: exit {wrote.returncode}")
        prints = json.load(open(base))["fingerprints"]
        every = json.loads(run("check", "models", "--format", "json", cwd=tmp).stdout)
        expect(len(prints) == len(rules_of_report(every)) > 0, f"{len(prints)} fingerprints for {every}")
        in_json = sorted(d["fingerprint"] for f in every["files"] for d in f["diagnostics"])
        expect(in_json == sorted(prints), f"JSON fingerprints {in_json} vs the baseline {prints}")
        sarif = json.loads(run("check", "models", "--format", "sarif", cwd=tmp).stdout)
        in_sarif = sorted(r["partialFingerprints"]["irlint/v1"] for r in sarif["runs"][0]["results"])
        expect(in_sarif == sorted(prints), f"SARIF partialFingerprints {in_sarif} vs the baseline {prints}")
        with open(os.path.join(models, "a.xml")) as f:
            lines = f.read().split("\n")
        with open(os.path.join(models, "a.xml"), "w") as f:  # every line moves down by two
            f.write("\n".join(lines[:1] + ["<!-- moved -->", "<!-- lines -->"] + lines[1:]))
        for spelling in ("models", "./models/", models):
            same = run("check", spelling, "--baseline", base, cwd=tmp)
            expect(same.returncode == 0 and "[output-shape-mismatch]" not in same.stdout
                   and f"{len(prints)} baselined finding" in same.stdout,
                   f"check {spelling} --baseline after moving lines: exit {same.returncode}\n{same.stdout}")
        shutil.copy(src, os.path.join(models, "b.xml"))
        text = run("check", "models", cwd=tmp)
        expect(f"files with errors: {os.path.join('models', 'a.xml')}, {os.path.join('models', 'b.xml')}\n"
               in text.stdout, f"the summary does not name the files with errors:\n{text.stdout}")
        new = run("check", "models", "--baseline", base, "--format", "json", cwd=tmp)
        paths = {f["path"] for f in json.loads(new.stdout)["files"] if f["diagnostics"]}
        expect(new.returncode == 1 and paths == {os.path.join("models", "b.xml")}, f"new finding: {paths}")
        bad = os.path.join(tmp, "bad.json")
        with open(bad, "w") as f:
            f.write("[1]")
        expect(run("check", "models", "--baseline", bad, cwd=tmp).returncode == 2, "a bad baseline is not exit 2")


def main():
    global IRLINT, TESTDATA
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--irlint", required=True)
    ap.add_argument("--testdata", required=True)
    args = ap.parse_args()
    IRLINT = os.path.abspath(args.irlint)
    TESTDATA = os.path.abspath(args.testdata)
    failed = 0
    for fn in CHECKS:
        try:
            fn()
        except (Failure, json.JSONDecodeError, StopIteration, KeyError, IndexError) as e:
            failed += 1
            print(f"FAIL {fn.__name__}: {e!r}")
    print(f"{len(CHECKS) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

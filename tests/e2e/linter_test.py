#!/usr/bin/env python3
"""End-to-end checks of irlint's linter surface: the rule registry (`irlint rules`), rule selection,
severities, --min-severity, --statistics, --exclude globs relative to the PATH argument, baselines, and
irlint.toml configuration files (discovery, keys, overrides, flags over the file, invalid files).

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
                  "input-invalid", "output-shape-mismatch", "output-type-mismatch", "const-data-invalid", "unsupported-op",
                  "values-unknown", "check-failed", "onnx-shape-inference-mismatch", "runtime-divergence", "reshape-incompatible"]


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
    row = next(line for line in lines if line.startswith("check-failed "))
    expect(row.split()[1:3] == ["error", "no"], row)
    # The old id names the rule that took its place.
    old = run("rules", "check-timeout")
    expect(old.returncode == 0 and old.stdout.startswith("check-failed (error, not fixable): "), old.stdout[:200])


@check
def check_timeout_is_an_alias_not_an_error():
    broken = os.path.join(TESTDATA, "broken", "output_shape_wrong_dim.xml")
    for args in (["--ignore", "check-timeout"], ["--select", "check-timeout"], ["--severity", "check-timeout=off"],
                 ["--ignore", "check-failed"]):
        proc = run("check", broken, "--format", "json", *args)
        expect(proc.returncode in (0, 1) and proc.stderr == "", f"{args}: exit {proc.returncode}: {proc.stderr}")
    selected = rules_of(run("check", broken, "--format", "json", "--select", "check-timeout"))
    expect(selected == [], f"--select check-timeout reports only check-failed: {selected}")


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
    # The missing .bin: the adaptive pool whose output_size it holds is checked by invariants only.
    expect("[const-data-invalid]" not in text.stdout and "1 note hidden" in text.stdout, text.stdout)
    stats = [line.split() for line in text.stdout.splitlines() if line.strip().endswith(" note")]
    expect(["1", "const-data-invalid", "note"] in stats, f"statistics: {stats}")
    shown = run("check", model, "--min-severity", "note")
    expect("[const-data-invalid]" in shown.stdout and "hidden" not in shown.stdout, shown.stdout)
    machine = json.loads(run("check", model, "--format", "json").stdout)
    expect(sorted(rules_of_report(machine)) == ["const-data-invalid"], f"json default shows notes: {machine}")
    expect(machine["files"][0]["checked_by_invariants"] == 1,
           f"json default shows notes: {machine}")


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

def make_repo(tmp):
    """A model repository: .git at its root, models/a.xml (an error), models/legacy/b.xml (an error),
    models/ok.xml (clean). Returns its path."""
    repo = os.path.join(tmp, "repo")
    os.makedirs(os.path.join(repo, ".git"))
    os.makedirs(os.path.join(repo, "models", "legacy"))
    shutil.copy(os.path.join(TESTDATA, "broken", "output_type_indices.xml"), os.path.join(repo, "models", "a.xml"))
    shutil.copy(os.path.join(TESTDATA, "broken", "output_shape_wrong_dim.xml"),
                os.path.join(repo, "models", "legacy", "b.xml"))
    shutil.copy(os.path.join(TESTDATA, "valid", "pool_chain.xml"), os.path.join(repo, "models", "ok.xml"))
    return repo


def write(path, text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def findings(proc):
    """{relative file name: sorted distinct (severity, rule) pairs} of a JSON report."""
    out = {}
    for f in json.loads(proc.stdout)["files"]:
        name = f["path"].replace(os.sep, "/").split("models/", 1)[-1].removeprefix("./")
        out[name] = sorted({(d["severity"], d["rule"]) for d in f["diagnostics"] if d["severity"] != "note"})
    return out


@check
def config_keys_and_overrides():
    with tempfile.TemporaryDirectory() as tmp:
        repo = make_repo(tmp)
        write(os.path.join(repo, "irlint.toml"), """# the team's settings
exclude = ["ok.xml"]
fail-on = "warning"
[severity]
output-type-mismatch = "warning"
[[overrides]]
paths = ["models/legacy/**"]
ignore = ["output-shape-mismatch"]
""")
        proc = run("check", "models", "--format", "json", cwd=repo)
        got = findings(proc)
        expect(got == {"a.xml": [("warning", "output-type-mismatch")], "legacy/b.xml": []},
               f"configured findings {got}")
        expect(proc.returncode == 1, f"fail-on = warning: exit {proc.returncode}")
        # flags win over the file
        proc = run("check", "models", "--format", "json", "--fail-on", "error", "--severity",
                   "output-type-mismatch=note", cwd=repo)
        expect(proc.returncode == 0 and findings(proc)["a.xml"] == [], f"flags over the file: {proc.returncode}")
        proc = run("check", "models", "--format", "json", "--select", "output-shape-mismatch", cwd=repo)
        expect(findings(proc) == {"a.xml": [], "legacy/b.xml": [("error", "output-shape-mismatch")]},
               f"--select over an override's ignore: {findings(proc)}")
        # the same from inside the repository, and with the PATH spelled absolutely
        for cwd, path in ((os.path.join(repo, "models"), "."), (tmp, os.path.join(repo, "models"))):
            got = findings(run("check", path, "--format", "json", cwd=cwd))
            expect(got == {"a.xml": [("warning", "output-type-mismatch")], "legacy/b.xml": []},
                   f"check {path} from {cwd}: {got}")
        # --no-config, and a named file is checked even where exclude names it
        proc = run("check", "models", "--no-config", "--format", "json", cwd=repo)
        expect(len(findings(proc)) == 3 and proc.returncode == 1, f"--no-config: {findings(proc)}")
        proc = run("check", os.path.join("models", "ok.xml"), "--format", "json", cwd=repo)
        expect(list(findings(proc)) == ["ok.xml"], f"a named file: {findings(proc)}")


@check
def config_min_severity_and_select():
    with tempfile.TemporaryDirectory() as tmp:
        repo = make_repo(tmp)
        write(os.path.join(repo, "irlint.toml"), 'select = ["output-shape-mismatch"]\nmin-severity = "error"\n')
        proc = run("check", "models", cwd=repo)
        expect("[output-shape-mismatch]" in proc.stdout and "[output-type-mismatch]" not in proc.stdout,
               f"select in the file:\n{proc.stdout}")
        proc = run("check", "models", "--format", "json", cwd=repo)
        expect(all(sev == "error" for found in findings(proc).values() for sev, _ in found),
               "min-severity = error in the file")


@check
def config_discovery_nearest_and_stops_at_git():
    with tempfile.TemporaryDirectory() as tmp:
        repo = make_repo(tmp)
        write(os.path.join(tmp, "irlint.toml"), 'ignore = ["output-type-mismatch", "output-shape-mismatch"]\n')
        proc = run("check", "models", "--format", "json", cwd=repo)
        expect(findings(proc)["a.xml"] == [("error", "output-type-mismatch")],
               "an irlint.toml above the directory holding .git was used")
        write(os.path.join(repo, "irlint.toml"), 'ignore = ["output-type-mismatch"]\n')
        write(os.path.join(repo, "models", "legacy", "irlint.toml"), 'ignore = ["output-shape-mismatch"]\n')
        got = findings(run("check", "models", "--format", "json", cwd=repo))
        expect(got == {"a.xml": [], "legacy/b.xml": [], "ok.xml": []}, f"nearest configuration per file: {got}")
        # --config: one file for every path, no discovery
        write(os.path.join(tmp, "strict.toml"), '[severity]\noutput-shape-mismatch = "warning"\n')
        got = findings(run("check", "models", "--config", os.path.join(tmp, "strict.toml"), "--format", "json",
                           cwd=repo))
        expect(got["legacy/b.xml"] == [("warning", "output-shape-mismatch")] and
               got["a.xml"] == [("error", "output-type-mismatch")], f"--config: {got}")


@check
def config_invalid_is_exit_2_with_file_line_and_choices():
    cases = [
        ('fail-on = "error"\nselct = ["attr-invalid"]\n', "irlint.toml:2: unknown key 'selct'; valid keys: select,"),
        ('ignore = [\n  "attr-invalid",\n  "no-such-rule",\n]\n',
         "irlint.toml:3: unknown rule 'no-such-rule'; valid rules: xml-malformed,"),
        ('[severity]\nattr-invalid = "fatal"\n',
         "irlint.toml:2: unknown level 'fatal' for attr-invalid; valid levels: error, warning, note, off"),
        ('min-severity = "loud"\n', "irlint.toml:1: unknown level 'loud' for min-severity"),
        ('[[overrides]]\npaths = ["x/*"]\nexclude = ["y"]\n',
         "irlint.toml:3: unknown key 'exclude' in [[overrides]]; valid keys: paths, select, ignore, severity"),
        ('select = "attr-invalid"\n', "irlint.toml:1: 'select' must be an array of strings"),
        ('select = ["attr-invalid"\n', "irlint.toml:"),
    ]
    for text, message in cases:
        with tempfile.TemporaryDirectory() as tmp:
            repo = make_repo(tmp)
            write(os.path.join(repo, "irlint.toml"), text)
            proc = run("check", "models", cwd=repo)
            expect(proc.returncode == 2 and message in proc.stderr and not proc.stdout,
                   f"{text!r}: exit {proc.returncode}, stderr {proc.stderr!r}")
            expect(run("check", "models", "--no-config", cwd=repo).returncode == 1, "--no-config read the file")
    with tempfile.TemporaryDirectory() as tmp:
        repo = make_repo(tmp)
        proc = run("check", "models", "--config", "missing.toml", cwd=repo)
        expect(proc.returncode == 2 and "missing.toml" in proc.stderr, f"--config missing.toml: {proc.stderr!r}")
        proc = run("check", "models", "--config", "missing.toml", "--no-config", cwd=repo)
        expect(proc.returncode == 2, "--config with --no-config is not a usage error")


@check
def config_root_anchors_fingerprints():
    with tempfile.TemporaryDirectory() as tmp:
        repo = make_repo(tmp)
        write(os.path.join(repo, "irlint.toml"), "# empty: defaults\n")
        base = os.path.join(tmp, "base.json")
        expect(run("check", "models", "--write-baseline", base, cwd=repo).returncode == 0, "--write-baseline")
        # checked from elsewhere, through another PATH, the same findings are the baselined ones
        proc = run("check", os.path.join("repo", "models", "legacy"), os.path.join("repo", "models", "a.xml"),
                   "--baseline", base, cwd=tmp)
        expect(proc.returncode == 0 and "baselined finding" in proc.stdout, f"baseline from another PATH:\n{proc.stdout}")



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

#!/usr/bin/python3
"""End-to-end checks of batch runs: directories, -j, --shard, merge, the SARIF and JUnit formats, progress.

    batch_test.py --irlint build/irlint --sarif-schema testdata/schemas/sarif-schema-2.1.0.json --docs docs

Generates a corpus of a few hundred IR files with planted defects (corpus.py) in a temporary directory and
runs the real binary over it. Prints one line per failed check and a closing line `N passed, M failed`;
exits 1 on any failure. A check that cannot run here (no schema file, no jsonschema module, running as
root for permission checks) prints SKIP and counts as passed.
"""
import argparse
import fcntl
import json
import os
import pty
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import termios
import xml.etree.ElementTree as ET

import corpus

TIMEOUT_SECONDS = 120
IRLINT = None
SCHEMAS = []
DOCS = None
WORK = None  # the temporary directory: corpus/ and everything the checks write
FILES = []  # corpus.CorpusFile
CHECKS = []
SKIPPED = []
FORMATS = ("text", "json", "sarif", "junit")
WALL_TIME = re.compile(r"^  wall time .*\n", re.M)


class Failure(Exception):
    pass


def check(fn):
    CHECKS.append(fn)
    return fn


def skip(reason):
    SKIPPED.append(reason)


def expect(cond, message):
    if not cond:
        raise Failure(message)


def run(*args, cwd=None):
    cwd = cwd or WORK
    try:
        proc = subprocess.run([IRLINT] + [str(a) for a in args], capture_output=True, cwd=cwd,
                              timeout=TIMEOUT_SECONDS)
    except subprocess.TimeoutExpired:
        raise Failure(f"`irlint {' '.join(map(str, args))}` did not finish within {TIMEOUT_SECONDS}s")
    if proc.returncode < 0:
        raise Failure(f"`irlint {' '.join(map(str, args))}` was killed by signal {-proc.returncode}")
    proc.stdout = proc.stdout.decode("utf-8")
    proc.stderr = proc.stderr.decode("utf-8", errors="replace")
    return proc


def expect_exit(proc, code, what):
    if proc.returncode != code:
        raise Failure(f"{what}: exit {proc.returncode}, expected {code} ({proc.stderr.strip()[:300]})")


def report(*args):
    proc = run("check", *args, "--format", "json", "--fail-on", "never")
    expect_exit(proc, 0, "check --format json --fail-on never " + " ".join(map(str, args)))
    return json.loads(proc.stdout)


def fnv1a_shard(relative, n):
    h = 0xcbf29ce484222325
    for byte in relative.encode():
        h = ((h ^ byte) * 0x100000001b3) % 2**64
    return h % n + 1


def corpus_relative(path):
    return os.path.relpath(os.path.join(WORK, path), os.path.join(WORK, "corpus"))


def write(name, text):
    path = os.path.join(WORK, name)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path


# ---------------------------------------------------------------- findings, order, -j

@check
def every_planted_defect_is_found():
    files = report("corpus", "-j", "4")["files"]
    by_path = {corpus_relative(f["path"]): f for f in files}
    expect(len(files) == len(FILES), f"{len(files)} files reported, {len(FILES)} generated")
    for cf in FILES:
        found = by_path.get(cf.relative)
        expect(found is not None, f"{cf.relative} is not in the report")
        got = sorted((d["severity"], d["rule"], d["layer_id"]) for d in found["diagnostics"])
        want = sorted((sev, rule, layer) for sev, rule, layer in cf.expected)
        loose = [(s, r, layer if w[2] is not None else None) for (s, r, layer), w in zip(got, want)]
        expect(len(got) == len(want) and loose == want,
               f"{cf.relative} (defect {cf.defect}): found {got}, planted {want}")


@check
def report_is_in_sorted_path_order():
    paths = [f["path"] for f in report("corpus", "-j", "4")["files"]]
    expect(paths == sorted(paths, key=lambda p: p.encode()), "files are not in sorted path order")


@check
def jobs_do_not_change_any_format():
    for fmt in FORMATS:
        one = run("check", "corpus", "-j", "1", "--format", fmt)
        four = run("check", "corpus", "-j", "4", "--format", fmt)
        expect_exit(one, 1, f"check -j1 --format {fmt}")
        expect_exit(four, 1, f"check -j4 --format {fmt}")
        a, b = one.stdout, four.stdout
        if fmt == "text":
            expect(WALL_TIME.search(a), "the text summary has no wall time row")
            a, b = WALL_TIME.sub("", a), WALL_TIME.sub("", b)
        expect(a == b, f"--format {fmt}: -j1 and -j4 differ")
        expect(len(a) > 10000, f"--format {fmt}: a suspiciously short report ({len(a)} bytes)")


@check
def text_summary_table_counts():
    proc = run("check", "corpus", "-j", "2")
    data = report("corpus")
    s = data["summary"]
    for label, value in (("files", s["files"]), ("layers", s["layers"]), ("layers checked", re.escape(f'{s["checked"]} of {s["layers"]} ({s["checked_by_invariants"]} by invariants)')),
                         ("errors", s["errors"]), ("warnings", s["warnings"]), ("notes", s["notes"])):
        expect(re.search(rf"^  {label} +{value}\n", proc.stdout, re.M),
               f"the summary table has no row `{label} {value}`")
    expect(s["files"] == len(FILES) and s["checked"] == sum(f["checked"] for f in data["files"]),
           f"summary {s}")
    quiet = run("check", "corpus", "-q")
    expect("irlint summary" not in quiet.stdout and proc.stdout.startswith(quiet.stdout + "\nirlint summary\n"),
           "-q does not print exactly the findings")


# ---------------------------------------------------------------- shards and merge

def shard_reports(n, path="corpus"):
    out = []
    for k in range(1, n + 1):
        target = os.path.join(WORK, f"shard{k}of{n}.json")
        proc = run("check", path, "--shard", f"{k}/{n}", "--format", "json", "-o", target)
        expect(proc.returncode in (0, 1), f"--shard {k}/{n}: exit {proc.returncode}")
        out.append(target)
    return out


@check
def shards_partition_by_hash_of_relative_path():
    n = 3
    seen = {}
    for k, target in enumerate(shard_reports(n), 1):
        with open(target, encoding="utf-8") as f:
            for file in json.load(f)["files"]:
                rel = corpus_relative(file["path"])
                expect(rel not in seen, f"{rel} is in shard {seen.get(rel)} and in shard {k}")
                expect(fnv1a_shard(rel, n) == k, f"{rel} is in shard {k}, its hash says {fnv1a_shard(rel, n)}")
                seen[rel] = k
    expect(sorted(seen) == sorted(cf.relative for cf in FILES), "the shards together are not the corpus")
    expect(len(set(seen.values())) == n, "a shard is empty: the hash does not spread")


@check
def shards_agree_whatever_the_path_spelling():
    spellings = ["corpus", "./corpus/", os.path.join(WORK, "corpus")]
    sets = []
    for spelling in spellings:
        files = report(spelling, "--shard", "2/4")["files"]
        sets.append(sorted(os.path.relpath(os.path.join(WORK, f["path"]), os.path.join(WORK, "corpus"))
                           for f in files))
    expect(sets[0] and sets[0] == sets[1] == sets[2], "--shard 2/4 picks different files for "
                                                      f"{spellings}: {[len(s) for s in sets]} files")


@check
def shards_are_stable_when_files_are_added():
    grown = os.path.join(WORK, "grown")
    shutil.copytree(os.path.join(WORK, "corpus"), grown)
    before = {f["path"].replace("grown/", "", 1) for f in report("grown", "--shard", "1/3")["files"]}
    os.makedirs(os.path.join(grown, "new"))
    for i in range(20):
        shutil.copy(os.path.join(grown, FILES[0].relative), os.path.join(grown, "new", f"extra_{i}.xml"))
    after = {f["path"].replace("grown/", "", 1) for f in report("grown", "--shard", "1/3")["files"]}
    expect(before <= after, f"adding files moved {len(before - after)} others out of shard 1/3")
    expect(after - before and all(p.startswith("new/") for p in after - before),
           f"shard 1/3 gained {sorted(after - before)[:3]}")


@check
def merge_of_shards_equals_the_unsharded_run():
    shards = shard_reports(3)
    for fmt in FORMATS:
        whole = run("check", "corpus", "--format", fmt)
        merged = run("merge", *shards, "--format", fmt)
        expect(merged.returncode == whole.returncode == 1, f"merge --format {fmt}: exit {merged.returncode}, "
                                                           f"check: {whole.returncode} ({merged.stderr[:200]})")
        expected = WALL_TIME.sub("", whole.stdout) if fmt == "text" else whole.stdout
        expect(merged.stdout == expected, f"merge --format {fmt} differs from the unsharded check")
    reversed_order = run("merge", *reversed(shards), "--format", "json")
    expect(reversed_order.stdout == run("check", "corpus", "--format", "json").stdout,
           "merge depends on the order of its arguments")


@check
def merge_writes_atomically_and_fails_on_like_check():
    shards = shard_reports(2)
    target = os.path.join(WORK, "merged.sarif")
    proc = run("merge", *shards, "--format", "sarif", "-o", target)
    expect_exit(proc, 1, "merge -o merged.sarif (the corpus has errors)")
    with open(target, encoding="utf-8") as f:
        expect(f.read() == run("merge", *shards, "--format", "sarif").stdout, "merge -o differs from stdout")
    expect(not [n for n in os.listdir(WORK) if n.endswith(".tmp")], "merge -o left a temporary file")
    expect_exit(run("merge", *shards, "--fail-on", "never"), 0, "merge --fail-on never")


@check
def merge_refuses_a_repeated_missing_or_foreign_shard():
    shards = shard_reports(2)
    twice = run("merge", *shards, shards[0], "--format", "json")
    expect_exit(twice, 2, "merge of a shard given twice")
    expect("shard 1/2 is given twice" in twice.stderr and shards[0] in twice.stderr, f"{twice.stderr!r}")
    missing = run("merge", shards[0], "--format", "json")
    expect_exit(missing, 2, "merge of 1 shard of 2")
    expect("missing shard(s) 2/2" in missing.stderr, f"{missing.stderr!r}")
    foreign = os.path.join(WORK, "foreign2of2.json")
    proc = run("check", "corpus", "--shard", "2/2", "--ignore", "attr-invalid", "--format", "json", "-o", foreign)
    expect(proc.returncode in (0, 1), f"--shard 2/2 --ignore: exit {proc.returncode}")
    mixed = run("merge", shards[0], foreign)
    expect_exit(mixed, 2, "merge of shards of two runs")
    expect("from another run" in mixed.stderr and foreign in mixed.stderr, f"{mixed.stderr!r}")


def without_shard_key(path, name):
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    del data["shard"]
    return write(name, json.dumps(data, separators=(",", ":")) + "\n"), data


@check
def merge_keeps_a_file_reported_twice_once():
    plain = [without_shard_key(p, f"plain{i}.json")[0] for i, p in enumerate(shard_reports(2))]
    once = run("merge", *plain, "--format", "json")
    twice = run("merge", *plain, plain[0], "--format", "json")
    expect(twice.returncode == once.returncode and twice.stdout == once.stdout,
           "a plain report (no shard key) given twice changes the merge")


@check
def merge_refuses_conflicting_results():
    plain, data = without_shard_key(shard_reports(2)[0], "plain-first.json")
    data["files"][0]["layers"] += 1
    changed = write("changed.json", json.dumps(data, separators=(",", ":")) + "\n")
    proc = run("merge", plain, changed)
    expect_exit(proc, 2, "merge of two reports with different results for one file")
    expect("with different results" in proc.stderr and data["files"][0]["path"] in proc.stderr,
           f"the error does not name the file: {proc.stderr!r}")


@check
def merge_rejects_bad_reports_with_exit_2():
    good = shard_reports(1)[0]
    cases = {
        "missing.json": None,
        "empty.json": "",
        "truncated.json": open(good, encoding="utf-8").read()[:500],
        "array.json": "[]\n",
        "not_irlint.json": '{"tool":"other","version":"1","files":[],"summary":{}}',
        "deep.json": "[" * 200000,
        "binary.json": "\x00\x01\x02garbage\xff",
        "bad_count.json": '{"tool":"irlint","version":"0.1.0","files":[{"path":"a.xml","layers":"3","checked":0,'
                          '"diagnostics":[]}],"summary":{"files":1,"errors":0,"warnings":0,"notes":0}}',
        "dup_key.json": '{"tool":"irlint","tool":"irlint"}',
    }
    for name, text in cases.items():
        path = os.path.join(WORK, name) if text is None else write(name, text)
        proc = run("merge", path)
        expect_exit(proc, 2, f"merge {name}")
        expect(proc.stderr.startswith(f"irlint: error: {path}: ") and proc.stdout == "",
               f"merge {name}: the error does not start with the file name: {proc.stderr!r}")
    expect_exit(run("merge", good, "--format", "yaml"), 2, "merge --format yaml")
    expect_exit(run("merge"), 2, "merge without reports")


# ---------------------------------------------------------------- SARIF and JUnit

def sarif_validator():
    schema_path = next((p for p in SCHEMAS if os.path.isfile(p)), None)
    if schema_path is None:
        skip("SARIF schema validation: no schema file")
        return None
    try:
        import jsonschema
    except ImportError:
        skip("SARIF schema validation: python3-jsonschema is not installed")
        return None
    with open(schema_path, encoding="utf-8") as f:
        schema = json.load(f)
    return jsonschema.Draft7Validator(schema, format_checker=jsonschema.FormatChecker())


@check
def sarif_validates_against_the_official_schema():
    validator = sarif_validator()
    if validator is None:
        return
    outputs = {"check": run("check", "corpus", "--format", "sarif").stdout,
               "merge": run("merge", *shard_reports(2), "--format", "sarif").stdout,
               "clean": run("check", "corpus/" + next(cf.relative for cf in FILES if not cf.expected),
                            "--format", "sarif").stdout}
    for what, text in outputs.items():
        errors = sorted(validator.iter_errors(json.loads(text)), key=lambda e: list(e.path))
        expect(not errors, f"{what} SARIF: {len(errors)} schema errors, first: "
                           f"{errors[0].message[:200] if errors else ''} at {list(errors[0].path) if errors else ''}")
    # the validator must be able to fail: a uri with a space is not a valid uri-reference
    broken = json.loads(outputs["check"])
    broken["runs"][0]["results"][0]["level"] = "fatal"
    expect(list(validator.iter_errors(broken)), "the schema accepted a result with level 'fatal'")


@check
def sarif_results_match_the_findings():
    data = report("corpus")
    sarif = json.loads(run("check", "corpus", "--format", "sarif").stdout)
    expect(sarif["version"] == "2.1.0" and "sarif-schema-2.1.0" in sarif["$schema"], "version / $schema")
    driver = sarif["runs"][0]["tool"]["driver"]
    expect(driver["name"] == "irlint" and driver["version"] == data["version"] and
           driver["informationUri"].startswith("https://"), f"driver {driver['name']} {driver['version']}")
    with open(os.path.join(DOCS, "rules.md"), encoding="utf-8") as f:
        anchors = set(re.findall(r"^## ([a-z-]+)$", f.read(), re.M))
    rule_ids = [r["id"] for r in driver["rules"]]
    expect(set(rule_ids) == anchors, f"rules {rule_ids} are not the sections of docs/rules.md {sorted(anchors)}")
    for r in driver["rules"]:
        expect(r["helpUri"].endswith(f"docs/rules.md#{r['id']}") and r["shortDescription"]["text"],
               f"rule {r['id']}: helpUri {r['helpUri']}")
    want = [(corpus_relative(f["path"]), d["rule"], d["severity"], d["line"]) for f in data["files"]
            for d in f["diagnostics"]]
    got = []
    for r in sarif["runs"][0]["results"]:
        loc = r["locations"][0]["physicalLocation"]
        uri = loc["artifactLocation"]["uri"]
        expect(uri.startswith("corpus/") and " " not in uri, f"uri {uri!r} is not relative to the working dir")
        expect(rule_ids[r["ruleIndex"]] == r["ruleId"], f"ruleIndex {r['ruleIndex']} is not {r['ruleId']}")
        path = re.sub(r"%([0-9A-F]{2})", lambda m: chr(int(m.group(1), 16)), uri).encode("latin-1").decode()
        line = loc.get("region", {}).get("startLine", 0)
        got.append((os.path.relpath(path, "corpus"), r["ruleId"], r["level"], line))
    expect(got == want, f"{len(got)} SARIF results, {len(want)} findings; first difference: "
                        f"{next(((g, w) for g, w in zip(got, want) if g != w), None)}")
    expect(any("%20" in r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
               for r in sarif["runs"][0]["results"]), "no percent-encoded space in any uri")


@check
def junit_has_a_suite_per_file_a_case_per_layer_and_right_counts():
    data = report("corpus")
    root = ET.fromstring(run("check", "corpus", "--format", "junit").stdout.encode())
    expect(root.tag == "testsuites", f"root element <{root.tag}>")
    suites = root.findall("testsuite")
    expect([s.get("name") for s in suites] == [f["path"] for f in data["files"]], "suites are not the files")
    total_tests = total_failures = 0
    for suite, file in zip(suites, data["files"]):
        cases = suite.findall("testcase")
        failed = [c for c in cases if c.findall("failure")]
        expect(len(cases) == file["checked"] + 1 and int(suite.get("tests")) == len(cases),
               f"{file['path']}: {len(cases)} cases, tests={suite.get('tests')}, {file['checked']} layers checked")
        expect(int(suite.get("failures")) == len(failed), f"{file['path']}: failures={suite.get('failures')}, "
                                                          f"{len(failed)} failed cases")
        errors = [d for d in file["diagnostics"] if d["severity"] == "error"]
        failures = [f for c in cases for f in c.findall("failure")]
        expect(sorted(f.get("type") for f in failures) == sorted(d["rule"] for d in errors),
               f"{file['path']}: failures {[f.get('type') for f in failures]}, errors {[d['rule'] for d in errors]}")
        for d in errors:
            if d["layer_id"] and any(c["id"] == d["layer_id"] for c in file["checked_layers"]):
                case = next(c for c in cases if c.get("name").startswith(f"layer {d['layer_id']} "))
                expect(any(f.get("type") == d["rule"] for f in case.findall("failure")),
                       f"{file['path']}: the {d['rule']} of layer {d['layer_id']} is not in its test case")
        total_tests += len(cases)
        total_failures += len(failed)
    expect(int(root.get("tests")) == total_tests and int(root.get("failures")) == total_failures,
           f"root tests={root.get('tests')} failures={root.get('failures')}, expected {total_tests}/{total_failures}")


@check
def machine_formats_to_files_are_atomic_and_equal_stdout():
    for fmt in ("sarif", "junit", "json"):
        target = os.path.join(WORK, f"report.{fmt}")
        proc = run("check", "corpus", "--format", fmt, "-o", target)
        expect_exit(proc, 1, f"check --format {fmt} -o")
        with open(target, encoding="utf-8") as f:
            expect(f.read() == run("check", "corpus", "--format", fmt).stdout, f"-o {fmt} differs from stdout")
    expect(not [n for n in os.listdir(WORK) if n.endswith(".tmp")], "-o left a temporary file")
    proc = run("check", "corpus", "--format", "sarif", "-o", os.path.join(WORK, "no", "such", "dir.sarif"))
    expect_exit(proc, 2, "check -o into a missing directory")
    expect("cannot write" in proc.stderr, f"stderr {proc.stderr!r}")


# ---------------------------------------------------------------- the walk

@check
def symlink_loops_are_reported_and_not_followed():
    tree = os.path.join(WORK, "loops")
    os.makedirs(os.path.join(tree, "a", "b"))
    shutil.copy(os.path.join(WORK, "corpus", FILES[0].relative), os.path.join(tree, "a", "b", "m.xml"))
    os.symlink("..", os.path.join(tree, "a", "b", "up"))
    os.symlink(os.path.join(tree, "a"), os.path.join(tree, "a", "b", "abs_up"))
    os.symlink("a/b", os.path.join(tree, "side"))  # not a loop: followed
    os.symlink("nowhere.xml", os.path.join(tree, "broken.xml"))
    proc = run("check", "loops", "--format", "json")
    expect_exit(proc, 0, "check of a tree with symlink loops")
    paths = sorted(f["path"] for f in json.loads(proc.stdout)["files"])
    expect(paths == ["loops/a/b/m.xml", "loops/side/m.xml"], f"files {paths}")
    expected = ["irlint: warning: loops/a/b/abs_up: symbolic link loop, not followed",
                "irlint: warning: loops/a/b/up: symbolic link loop, not followed",
                "irlint: warning: loops/broken.xml: broken symbolic link; skipped",
                "irlint: warning: loops/side/abs_up: symbolic link loop, not followed",
                "irlint: warning: loops/side/up: symbolic link loop, not followed"]
    expect(proc.stderr.splitlines() == expected, f"stderr {proc.stderr!r}, expected {expected}")


def as_unprivileged_user(command):
    """The command run as `nobody` when we are root (whom no permission bits stop), else as it is."""
    if os.geteuid() != 0:
        return command
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        return None
    return [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"] + command


@check
def unreadable_directories_are_reported():
    tree = tempfile.mkdtemp(prefix="irlint-locked-")  # outside WORK, which only we may enter
    try:
        os.chmod(tree, 0o755)
        os.makedirs(os.path.join(tree, "closed"))
        for name in ("m.xml", os.path.join("closed", "hidden.xml")):
            shutil.copy(os.path.join(WORK, "corpus", FILES[0].relative), os.path.join(tree, name))
            os.chmod(os.path.join(tree, name), 0o644)
        os.chmod(os.path.join(tree, "closed"), 0)
        command = as_unprivileged_user([IRLINT, "check", tree, "--format", "json"])
        if command is None:
            skip("unreadable directories: running as root without setpriv to drop the privileges")
            return
        proc = subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT_SECONDS)
    finally:
        os.chmod(os.path.join(tree, "closed"), 0o755)
        shutil.rmtree(tree)
    expect_exit(proc, 0, "check of a tree with an unreadable directory")
    expect(f"irlint: warning: {tree}/closed: cannot read the directory (Permission denied); skipped" in proc.stderr,
           f"stderr {proc.stderr!r}")
    expect([f["path"] for f in json.loads(proc.stdout)["files"]] == [f"{tree}/m.xml"],
           "the readable file was not checked alone")


@check
def exclude_globs_and_non_ir_files():
    all_files = report("corpus")["files"]
    proc = run("check", "corpus", "--exclude", "set1", "--exclude", "*/part2/*", "--format", "json",
               "--fail-on", "never")
    kept = [f["path"] for f in json.loads(proc.stdout)["files"]]
    want = [f["path"] for f in all_files if "/set1/" not in f["path"] and "/part2/" not in f["path"]]
    expect(kept == want and 0 < len(kept) < len(all_files), f"--exclude kept {len(kept)} files, want {len(want)}")
    not_ir = next(cf for cf in FILES if cf.defect == "not-ir")
    walked = next(f for f in all_files if f["path"] == "corpus/" + not_ir.relative)
    expect([(d["severity"], d["rule"]) for d in walked["diagnostics"]] == [("note", "ir-structure")] and
           walked["diagnostics"][0]["message"].endswith("; skipped"), f"a walked non-IR file: {walked}")
    named = run("check", "corpus/" + not_ir.relative)
    expect_exit(named, 1, "check of a non-IR file named on the command line")


# ---------------------------------------------------------------- progress

def run_with_terminal_stderr(*args, columns=160):
    """Runs irlint with stderr on a pseudo-terminal; returns (exit code, stdout bytes, terminal bytes)."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
    with tempfile.TemporaryFile() as out:
        proc = subprocess.Popen([IRLINT] + list(args), stdout=out, stderr=slave, cwd=WORK)
        os.close(slave)
        terminal = b""
        while True:
            try:
                data = os.read(master, 65536)
            except OSError:  # EIO: the child closed the terminal
                break
            if not data:
                break
            terminal += data
        code = proc.wait(timeout=TIMEOUT_SECONDS)
        os.close(master)
        out.seek(0)
        return code, out.read(), terminal


@check
def progress_line_on_a_terminal_only():
    code, out, tty = run_with_terminal_stderr("check", "corpus", "-j", "2")
    expect(code == 1, f"exit {code}")
    text = tty.decode("utf-8", errors="replace")
    expect(re.search(r"\r\[[= ]{12}\] \d+/300 files  [\d.]+ files/s  ETA \S+  \d+ errors, \d+ warnings, \d+ notes",
                     text), f"no progress line on the terminal: {text[:300]!r}")
    expect(text.endswith("\r") and text.rstrip("\r").endswith(" " * 10), "the line is not erased at the end")
    expect(b"\r" not in out and b"files/s" not in out, "progress went to stdout")
    _, _, quiet = run_with_terminal_stderr("check", "corpus", "-q")
    expect(quiet == b"", f"-q still draws progress: {quiet[:100]!r}")
    _, _, machine = run_with_terminal_stderr("check", "corpus", "--format", "sarif")
    expect(machine == b"", f"--format sarif on stdout still draws progress: {machine[:100]!r}")
    piped = run("check", "corpus")
    expect(piped.stderr == "", f"progress on a stderr that is not a terminal: {piped.stderr[:100]!r}")
    _, _, narrow = run_with_terminal_stderr("check", "corpus", "-j", "1", columns=40)
    widths = [len(part) for part in narrow.decode("utf-8", errors="replace").split("\r")]
    expect(narrow and max(widths) <= 39, f"a line wider than a 40-column terminal: {max(widths)}")


@check
def report_file_gets_a_closing_summary_on_the_terminal():
    target = os.path.join(WORK, "progress.sarif")
    code, out, tty = run_with_terminal_stderr("check", "corpus", "--format", "sarif", "-o", target)
    text = tty.decode("utf-8", errors="replace")
    expect(code == 1 and out == b"", f"exit {code}, stdout {out[:100]!r}")
    expect("files/s" in text and "irlint summary" in text and f"report written to {target}" in text,
           f"terminal: {text[-400:]!r}")
    expect(re.search(r"errors +\S*\d+", text), "the closing summary has no error count")


def main():
    global IRLINT, SCHEMAS, DOCS, WORK, FILES
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--irlint", required=True, help="the irlint binary")
    ap.add_argument("--sarif-schema", action="append", default=[],
                    help="the SARIF 2.1.0 JSON schema; the first that exists is used (repeatable)")
    ap.add_argument("--docs", required=True, help="the docs directory (for the rule anchors)")
    ap.add_argument("--files", type=int, default=300, help="corpus size")
    args = ap.parse_args()
    IRLINT = os.path.abspath(args.irlint)
    SCHEMAS = [os.path.abspath(p) for p in args.sarif_schema]
    DOCS = os.path.abspath(args.docs)

    passed = failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        WORK = tmp
        FILES = corpus.write_corpus(os.path.join(tmp, "corpus"), args.files)
        for fn in CHECKS:
            try:
                fn()
            except Failure as e:
                print(f"FAIL {fn.__name__}: {e}")
                failed += 1
            except Exception as e:  # a bug in this script or an unexpected output shape
                print(f"FAIL {fn.__name__}: {type(e).__name__}: {e}")
                failed += 1
            else:
                passed += 1
    for reason in SKIPPED:
        print(f"SKIP {reason}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/python3
"""Runs irlint over the hostile corpus (testdata/hostile/manifest.tsv) and holds it to the contract.

    hostile_test.py --irlint build/irlint --manifest testdata/hostile/manifest.tsv --work build/hostile

Each manifest row is four tab-separated fields:

    id        a unique name for the case
    exit      the exit code irlint must return
    expect    what the output must show, items separated by ' ; ', or - for nothing:
                severity:rule   a finding of that rule and severity (error, warning or note): from the JSON
                                report when stdout is one, else a 'severity: ... [rule]' line of the text
                out:TEXT        TEXT appears in stdout          err:TEXT   TEXT appears in stderr
                !out:TEXT       TEXT does not appear in stdout  !err:TEXT  ... nor in stderr
                within:SECONDS  the run ends within SECONDS (scaled as --time-limit scales the default limit), for
                                cases whose time grew with a number in the file
                xfail:WHY       a known bug in code outside the corpus: while the case fails it is
                                reported as XFAIL and not counted as failed; once it passes, XPASS asks for
                                the marker to be removed
    command   irlint's arguments, split as a POSIX shell would; {hostile} is the manifest's directory, {gen}
              the directory of the generated inputs (tests/e2e/make_hostile.py writes them there before the
              run), {scratch} an empty directory that must still be empty afterwards

Every case must also: end by itself within the time limit (--time-limit, 20 s), not die of a signal (itself or its
ONNX helper, whose death irlint passes on as exit 128 + the signal), print no "internal error" and no sanitizer
report. With --no-onnx (a build without ONNX support) the cases on .onnx files are skipped. After all cases no
input file may have changed and no file may have been left in {scratch}, the working directory or TMPDIR (each
run gets empty ones). Every file of the corpus
and every generated file must be named by some row (a .bin counts as named with its .xml).

The committed binary files of the corpus must be what testdata/hostile/make_binaries.py writes.

Prints one line per failure and a closing line `N passed, M failed`; exits 1 on any failure.
"""
import argparse
import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

import make_hostile

TIME_LIMIT = 20  # seconds; --time-limit raises it for builds that run many times slower (sanitizers)
DEFAULT_TIME_LIMIT = TIME_LIMIT
SEVERITIES = ("error", "warning", "note")
SANITIZER_MARKS = ("AddressSanitizer", "LeakSanitizer", "UndefinedBehaviorSanitizer", "ThreadSanitizer",
                   "MemorySanitizer", "runtime error:", "SUMMARY: ")
CORPUS_TOOLS = {"manifest.tsv", "make_binaries.py", "README.md"}


class Row:
    def __init__(self, lineno, case_id, exit_code, expects, args):
        self.lineno = lineno
        self.id = case_id
        self.exit_code = exit_code
        self.expects = expects  # list of (kind, value)
        self.args = args        # the command, placeholders not yet substituted

    @property
    def xfail(self):
        return next((value for kind, value in self.expects if kind == "xfail"), None)


def parse_expects(text):
    """Returns ([(kind, value)], problems) for the expect field."""
    if text == "-":
        return [], []
    items, problems = [], []
    for item in text.split(" ; "):
        kind, sep, value = item.partition(":")
        if not sep or not value:
            problems.append(f"{item!r} is not kind:value")
        elif kind in SEVERITIES or kind in ("out", "err", "!out", "!err", "xfail"):
            items.append((kind, value))
        elif kind == "within" and re.fullmatch(r"[0-9]+(\.[0-9]+)?", value):
            items.append((kind, float(value)))
        else:
            problems.append(f"{item!r}: unknown kind {kind!r}")
    return items, problems


def parse_manifest(path):
    rows, problems = [], []
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            where = f"{os.path.basename(path)}:{lineno}"
            fields = line.split("\t")
            if len(fields) != 4:
                problems.append(f"{where}: expected 4 tab-separated fields, found {len(fields)}")
                continue
            case_id, code, expect, command = fields
            try:
                exit_code = int(code)
            except ValueError:
                problems.append(f"{where}: exit code {code!r} is not an integer")
                continue
            expects, bad = parse_expects(expect)
            problems.extend(f"{where}: {p}" for p in bad)
            try:
                args = shlex.split(command)
            except ValueError as e:
                problems.append(f"{where}: command: {e}")
                continue
            rows.append(Row(lineno, case_id, exit_code, expects, args))
    return rows, problems


def tree_state(directory):
    """{relative path: sha256} of every file below directory."""
    state = {}
    for dirpath, _, filenames in os.walk(directory):
        for name in filenames:
            path = os.path.join(dirpath, name)
            with open(path, "rb") as f:
                state[os.path.relpath(path, directory)] = hashlib.sha256(f.read()).hexdigest()
    return state


def leftovers(directory):
    return sorted(os.path.relpath(os.path.join(d, n), directory)
                  for d, dirs, files in os.walk(directory) for n in files + dirs)


class Runner:
    def __init__(self, irlint, hostile, gen, work):
        self.irlint = irlint
        self.places = {"hostile": hostile, "gen": gen}
        self.work = work

    def substitute(self, args, scratch):
        places = dict(self.places, scratch=scratch)
        return [re.sub(r"\{(hostile|gen|scratch)\}", lambda m: places[m.group(1)], a) for a in args]

    def run(self, args, cwd, tmp):
        env = dict(os.environ, TMPDIR=tmp, NO_COLOR="1")
        start = time.monotonic()
        try:
            proc = subprocess.run([self.irlint] + args, capture_output=True, cwd=cwd, env=env,
                                  timeout=TIME_LIMIT)
        except subprocess.TimeoutExpired:
            return None, "", "", time.monotonic() - start
        out = proc.stdout.decode("utf-8", "replace")
        err = proc.stderr.decode("utf-8", "replace")
        return proc.returncode, out, err, time.monotonic() - start

    def check(self, row):
        """Returns the failure messages of one row."""
        case_dir = tempfile.mkdtemp(prefix=f"{row.id}.", dir=self.work)
        scratch, cwd, tmp = (os.path.join(case_dir, d) for d in ("scratch", "cwd", "tmp"))
        for d in (scratch, cwd, tmp):
            os.mkdir(d)
        args = self.substitute(row.args, scratch)
        code, out, err, seconds = self.run(args, cwd, tmp)
        failures = [f"{row.id}: {m}" for m in judge(row, code, out, err, seconds)]
        for name, d in (("{scratch}", scratch), ("the working directory", cwd), ("TMPDIR", tmp)):
            left = leftovers(d)
            if left:
                failures.append(f"{row.id}: left files in {name}: {', '.join(left[:5])}")
        shutil.rmtree(case_dir, ignore_errors=True)
        return failures


def judge(row, code, out, err, seconds):
    """What is wrong with one run, as a list of messages."""
    if code is None:
        return [f"did not finish within {TIME_LIMIT} s"]
    problems = []
    if code < 0:
        problems.append(f"killed by signal {-code}")
    elif code > 128 and code != row.exit_code:
        problems.append(f"exit {code}: irlint or its ONNX helper was killed by signal {code - 128}")
    elif code != row.exit_code:
        problems.append(f"exit {code}, expected {row.exit_code}; stderr: {err.strip()[:300]!r}")
    if "internal error" in (out + err).lower():
        problems.append(f"reports an internal error: {(err or out).strip()[:300]!r}")
    marks = [m for m in SANITIZER_MARKS if m in err]
    if marks:
        problems.append(f"sanitizer output ({marks[0]}): {err.strip()[:500]!r}")
    if seconds > TIME_LIMIT:
        problems.append(f"took {seconds:.1f} s")
    findings = findings_of(out, err)
    for kind, value in row.expects:
        if kind in SEVERITIES and (kind, value) not in findings:
            got = ", ".join(sorted(f"{s}:{r}" for s, r in findings)) or "none"
            problems.append(f"expected {kind}:{value}, found {got}")
        elif kind == "out" and value not in out:
            problems.append(f"stdout does not contain {value!r}: {out.strip()[:300]!r}")
        elif kind == "err" and value not in err:
            problems.append(f"stderr does not contain {value!r}: {err.strip()[:300]!r}")
        elif kind == "!out" and value in out:
            problems.append(f"stdout contains {value!r}")
        elif kind == "!err" and value in err:
            problems.append(f"stderr contains {value!r}")
        elif kind == "within" and seconds > value * TIME_LIMIT / DEFAULT_TIME_LIMIT:
            problems.append(f"took {seconds:.2f} s, more than {value * TIME_LIMIT / DEFAULT_TIME_LIMIT:g} s")
    return problems


TEXT_FINDING = re.compile(r"\b(error|warning|note): .*\[([a-z0-9-]+)\]\s*$", re.MULTILINE)


def findings_of(out, err):
    """{(severity, rule)} from a JSON check report on stdout, or from text findings on stdout and stderr."""
    try:
        report = json.loads(out)
    except ValueError:
        report = None
    if isinstance(report, dict) and "files" in report:
        return {(d.get("severity"), d.get("rule")) for f in report["files"] for d in f.get("diagnostics", [])}
    return {(m.group(1), m.group(2)) for m in TEXT_FINDING.finditer(out + "\n" + err)}


def unnamed_files(rows, hostile, generated):
    """Corpus and generated files that no row names."""
    named = set()
    for row in rows:
        for arg in row.args:
            for m in re.finditer(r"\{(hostile|gen)\}/([^\s,]+)", arg):
                named.add((m.group(1), m.group(2)))
    missing = []
    for name in sorted(os.listdir(hostile)):
        stem, ext = os.path.splitext(name)
        if name in CORPUS_TOOLS or ("hostile", name) in named:
            continue
        if ext == ".bin" and ("hostile", stem + ".xml") in named:
            continue
        missing.append(name)
    missing += [f"{{gen}}/{name}" for name in generated if ("gen", name) not in named]
    return missing


def main():
    global TIME_LIMIT
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--irlint", required=True, help="the irlint binary")
    ap.add_argument("--manifest", required=True, help="testdata/hostile/manifest.tsv")
    ap.add_argument("--work", required=True, help="a directory for the generated inputs and the runs")
    ap.add_argument("--only", help="run only the case with this id")
    ap.add_argument("--time-limit", type=float, default=TIME_LIMIT,
                    help="seconds each case may take (default %(default)s)")
    ap.add_argument("--no-onnx", action="store_true", help="skip the cases on .onnx files (irlint without ONNX)")
    args = ap.parse_args()
    TIME_LIMIT = args.time_limit

    irlint = os.path.abspath(args.irlint)
    if not os.access(irlint, os.X_OK):
        print(f"FAIL {irlint}: not an executable file")
        print("0 passed, 1 failed")
        return 1
    hostile = os.path.dirname(os.path.abspath(args.manifest))
    work = os.path.abspath(args.work)
    gen = os.path.join(work, "generated")
    runs = os.path.join(work, "runs")
    generated = make_hostile.generate(gen)
    shutil.rmtree(runs, ignore_errors=True)
    os.makedirs(runs)

    rows, problems = parse_manifest(args.manifest)
    passed = failed = 0
    for message in problems:
        print(f"FAIL {message}")
        failed += 1
    seen = set()
    for row in rows:
        if row.id in seen:
            print(f"FAIL {row.id}: listed twice (manifest line {row.lineno})")
            failed += 1
        seen.add(row.id)
    if not args.only:
        for name in unnamed_files(rows, hostile, generated):
            print(f"FAIL {name}: no row of {os.path.basename(args.manifest)} names it")
            failed += 1
        stale = subprocess.run([sys.executable, os.path.join(hostile, "make_binaries.py"), "--check"],
                               capture_output=True, text=True)
        for line in stale.stdout.splitlines():
            print(f"FAIL {line}")
        failed += 1 if stale.returncode else 0

    before = {"hostile": tree_state(hostile), "gen": tree_state(gen)}
    runner = Runner(irlint, hostile, gen, runs)
    for row in rows:
        if args.only and row.id != args.only:
            continue
        if args.no_onnx and any(".onnx" in a for a in row.args):
            continue
        failures = runner.check(row)
        if row.xfail and failures:
            print(f"XFAIL {row.id}: {row.xfail}: {'; '.join(failures)[:400]}")
            passed += 1
            continue
        if row.xfail:
            print(f"XPASS {row.id}: passes now; remove its xfail marker")
        for message in failures:
            print(f"FAIL {message}")
        if failures:
            failed += 1
        else:
            passed += 1
    for place, directory in (("hostile", hostile), ("gen", gen)):
        after = tree_state(directory)
        changed = sorted(p for p in set(before[place]) | set(after) if before[place].get(p) != after.get(p))
        for path in changed:
            print(f"FAIL {{{place}}}/{path}: {'added' if path not in before[place] else 'changed or removed'} "
                  "by the runs")
            failed += 1
    shutil.rmtree(runs, ignore_errors=True)

    print(f"{passed} passed, {failed} failed")
    return 1 if failed or passed == 0 else 0


if __name__ == "__main__":
    sys.exit(main())

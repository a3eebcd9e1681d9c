#!/usr/bin/env python3
"""Runs `irlint check` over a directory of real OpenVINO IR files (the shared realir/ corpus).

    realir_test.py --irlint build/irlint --dir ../shared/realir [--min-pooling N]

For every .xml in DIR: irlint must not crash (exit 0 or 1 only, no signal, no timeout) and its JSON must parse.
The only files allowed error-level findings are the known negative cases below, and they must have them;
every other file must have none. Across the directory at least N pooling layers (default 70) must be checked.
Prints one line per failure and a closing line `N passed, M failed`; exits 1 on any failure.
"""
import argparse
import json
import os
import sys

import irlint_process

TIMEOUT_SECONDS = 120

# file -> (the only rule its errors may carry, text one of them must contain, case-insensitive, or None)
EXPECTED_ERRORS = {
    "legacy-omz-SampLeNet-v2.xml": ("ir-structure", "unsupported ir version"),
    "legacy-omz-face-detection-adas-binary-0001-v4.xml": ("ir-structure", "unsupported ir version"),
    "notir-nncf-graph.xml": ("ir-structure", None),
}


def expected_errors_of(directory):
    """The known negative cases of DIR: its manifest.tsv's `expected_error` column (RULE or RULE:TEXT, empty for a
    file that must check clean) where it has one, else the shared corpus's list above."""
    manifest = os.path.join(directory, "manifest.tsv")
    if not os.path.exists(manifest):
        return EXPECTED_ERRORS
    with open(manifest, encoding="utf-8") as f:
        rows = [line.rstrip("\n").split("\t") for line in f if line.strip()]
    header, rows = rows[0], rows[1:]
    if "expected_error" not in header:
        return EXPECTED_ERRORS
    name_column, error_column = header.index("name"), header.index("expected_error")
    expected = {}
    for row in rows:
        if row[error_column]:
            rule, _, text = row[error_column].partition(":")
            expected[row[name_column] + ".xml"] = (rule, text or None)
    return expected


def run(irlint, args):
    return irlint_process.run(irlint, args, TIMEOUT_SECONDS)


def check_file(irlint, path, expected):
    """Returns (failure messages, pooling layers checked); EXPECTED is the (rule, text) of a known negative case."""
    name = os.path.basename(path)
    code, out, err = run(irlint, ["check", path, "--format", "json"])
    if code is None:
        return [f"{name}: no exit within {TIMEOUT_SECONDS}s"], 0
    if code < 0:
        return [f"{name}: killed by signal {-code}"], 0
    if code not in (0, 1):
        return [f"{name}: exit {code}, expected 0 or 1 ({err.strip()[:200]})"], 0
    try:
        report = json.loads(out)
        entries = report["files"]
        diags = [d for entry in entries for d in entry["diagnostics"]]
        checked = sum(int(entry["checked"]) for entry in entries)
    except (ValueError, KeyError, TypeError) as e:
        return [f"{name}: unreadable JSON report ({type(e).__name__}: {e})"], 0

    failures = []
    errors = [d for d in diags if d.get("severity") == "error"]
    if expected is None:
        for d in errors:
            failures.append(f"{name}: unexpected error:{d.get('rule')} at line {d.get('line')}: {d.get('message')}")
        if code != 0:
            failures.append(f"{name}: exit {code} for a file without errors")
    else:
        rule, text = expected
        if not errors:
            failures.append(f"{name}: expected an error:{rule} finding, got none")
        for d in errors:
            if d.get("rule") != rule:
                failures.append(f"{name}: unexpected error:{d.get('rule')}: {d.get('message')}")
        if text and not any(text in str(d.get("message", "")).lower() for d in errors):
            failures.append(f"{name}: no error message mentions {text!r}")
        if code != 1:
            failures.append(f"{name}: exit {code}, expected 1")
    return failures, checked


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--irlint", required=True, help="the irlint binary")
    ap.add_argument("--dir", required=True, help="directory of real IR .xml files")
    ap.add_argument("--min-pooling", type=int, default=70, help="pooling layers that must be checked in DIR")
    args = ap.parse_args()
    irlint = os.path.abspath(args.irlint)

    names = sorted(n for n in os.listdir(args.dir) if n.endswith(".xml"))
    negatives = expected_errors_of(args.dir)
    passed = failed = 0
    total_checked = 0

    def record(failures):
        nonlocal passed, failed
        for message in failures:
            print(f"FAIL {message}")
        if failures:
            failed += 1
        else:
            passed += 1

    if not names:
        record([f"{args.dir}: no .xml files"])
    for name in names:
        failures, checked = check_file(irlint, os.path.join(args.dir, name), negatives.get(name))
        total_checked += checked
        record(failures)

    record([f"{name}: expected negative case is not in {args.dir}" for name in negatives if name not in names])
    record([] if total_checked >= args.min_pooling else
           [f"only {total_checked} pooling layers checked across {len(names)} files, "
            f"expected at least {args.min_pooling}"])

    # the whole directory at once: the summary must count every file and exactly the known errors
    code, out, err = run(irlint, ["check", args.dir, "--format", "json"])
    dir_failures = []
    expected_code = 1 if negatives else 0
    if code != expected_code:
        dir_failures.append(f"check DIR: exit {code}, expected {expected_code}")
    else:
        try:
            summary = json.loads(out)["summary"]
            if summary["files"] != len(names):
                dir_failures.append(f"check DIR: summary.files {summary['files']}, expected {len(names)}")
        except (ValueError, KeyError, TypeError) as e:
            dir_failures.append(f"check DIR: unreadable JSON report ({type(e).__name__}: {e})")
    record(dir_failures)

    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

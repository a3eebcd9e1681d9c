#!/usr/bin/env python3
"""Runs irlint over testdata/ and compares it with testdata/expectations.tsv.

Each manifest row is four tab-separated fields:

    path        the IR file, relative to the manifest's directory
    exit_code   what `irlint check FILE` must return
    rules       comma-separated severity:rule pairs that must be reported (error or warning), or -
    substring   text that must appear in the text output, or -

For every row irlint runs twice: `check FILE --format json` and `check FILE` (text). A row passes when both
runs return the expected exit code, every listed severity:rule is among the JSON diagnostics, the substring is
in the text output, and -- for files under valid/ and spec/ and for rows that list no error -- no error-level
rule other than the listed ones is reported. Every .xml under the manifest's directory must have a row, except
in subdirectories with a manifest.tsv of their own (hostile/, run by hostile_test.py).

Prints one line per failure and a closing line `N passed, M failed`; exits 1 on any failure.
"""
import argparse
import json
import os
import sys

import irlint_process

TIMEOUT_SECONDS = 60
SEVERITIES = ("error", "warning")


class Row:
    def __init__(self, lineno, path, exit_code, rules, substring):
        self.lineno = lineno
        self.path = path
        self.exit_code = exit_code
        self.rules = rules  # list of (severity, rule)
        self.substring = substring  # None for -

    @property
    def strict(self):
        """True when error-level findings other than the listed ones are failures."""
        top = self.path.split("/", 1)[0]
        return top in ("valid", "spec") or not any(sev == "error" for sev, _ in self.rules)


def parse_manifest(path):
    rows, problems = [], []
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip():
                continue
            fields = line.split("\t")
            where = f"{os.path.basename(path)}:{lineno}"
            if len(fields) != 4:
                problems.append(f"{where}: expected 4 tab-separated fields, found {len(fields)}")
                continue
            rel, code, rules, substring = fields
            try:
                exit_code = int(code)
            except ValueError:
                problems.append(f"{where}: exit code {code!r} is not an integer")
                continue
            pairs = []
            if rules != "-":
                for item in rules.split(","):
                    sev, sep, rule = item.strip().partition(":")
                    if not sep or sev not in SEVERITIES or not rule:
                        problems.append(f"{where}: {item!r} is not severity:rule with severity error or warning")
                        continue
                    pairs.append((sev, rule))
            rows.append(Row(lineno, rel, exit_code, pairs, None if substring == "-" else substring))
    return rows, problems


def run(irlint, args):
    return irlint_process.run(irlint, args, TIMEOUT_SECONDS)


def describe_exit(code):
    if code is None:
        return f"no exit within {TIMEOUT_SECONDS}s"
    if code < 0:
        return f"killed by signal {-code}"
    return f"exit {code}"


def diagnostics_of(report):
    found = []
    for entry in report.get("files", []):
        for d in entry.get("diagnostics", []):
            found.append(d)
    return found


def check_row(irlint, base, row):
    """Returns a list of failure messages for one manifest row."""
    failures = []
    path = os.path.join(base, row.path)
    if not os.path.isfile(path):
        return [f"{row.path}: file does not exist (manifest line {row.lineno})"]

    code, out, err = run(irlint, ["check", path, "--format", "json"])
    if code != row.exit_code:
        failures.append(f"{row.path}: --format json: {describe_exit(code)}, expected exit {row.exit_code}"
                        + (f" (stderr: {err.strip()[:200]})" if err.strip() else ""))
    report = None
    if code is not None and code >= 0:
        try:
            report = json.loads(out)
        except ValueError as e:
            failures.append(f"{row.path}: --format json output is not JSON: {e}")
    if isinstance(report, dict):
        diags = diagnostics_of(report)
        seen = {(d.get("severity"), d.get("rule")) for d in diags}
        for sev, rule in row.rules:
            if (sev, rule) not in seen:
                got = ", ".join(sorted(f"{s}:{r}" for s, r in seen if s in SEVERITIES)) or "none"
                failures.append(f"{row.path}: expected {sev}:{rule}, got {got}")
        if row.strict:
            allowed = {rule for sev, rule in row.rules if sev == "error"}
            for d in diags:
                if d.get("severity") == "error" and d.get("rule") not in allowed:
                    failures.append(f"{row.path}: unexpected error:{d.get('rule')}: {d.get('message')}")
    elif report is not None:
        failures.append(f"{row.path}: --format json output is not a JSON object")

    code, out, err = run(irlint, ["check", path])
    if code != row.exit_code:
        failures.append(f"{row.path}: text: {describe_exit(code)}, expected exit {row.exit_code}")
    if row.substring is not None and row.substring not in out:
        failures.append(f"{row.path}: text output does not contain {row.substring!r}")
    return failures


def uncovered_files(base, rows):
    listed = {os.path.normpath(r.path) for r in rows}
    missing = []
    for top in sorted(os.listdir(base)):
        top_path = os.path.join(base, top)
        if not os.path.isdir(top_path) or os.path.exists(os.path.join(top_path, "manifest.tsv")):
            continue
        for dirpath, dirnames, filenames in os.walk(top_path):
            dirnames.sort()
            for name in sorted(filenames):
                if name.endswith(".xml"):
                    rel = os.path.normpath(os.path.relpath(os.path.join(dirpath, name), base))
                    if rel not in listed:
                        missing.append(rel)
    return missing


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--irlint", required=True, help="the irlint binary")
    ap.add_argument("--manifest", required=True, help="testdata/expectations.tsv")
    args = ap.parse_args()

    irlint = os.path.abspath(args.irlint)
    base = os.path.dirname(os.path.abspath(args.manifest))
    rows, problems = parse_manifest(args.manifest)

    passed = failed = 0
    for message in problems:
        print(f"FAIL {message}")
        failed += 1
    seen_paths = set()
    for row in rows:
        failures = check_row(irlint, base, row)
        if row.path in seen_paths:
            failures.append(f"{row.path}: listed more than once (manifest line {row.lineno})")
        seen_paths.add(row.path)
        for message in failures:
            print(f"FAIL {message}")
        if failures:
            failed += 1
        else:
            passed += 1
    for rel in uncovered_files(base, rows):
        print(f"FAIL {rel}: no row in {os.path.basename(args.manifest)}")
        failed += 1

    print(f"{passed} passed, {failed} failed")
    return 1 if failed or not rows else 0


if __name__ == "__main__":
    sys.exit(main())

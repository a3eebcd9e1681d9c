#!/usr/bin/env python3
"""The JSON report of `irlint check` is byte-identical to the stored one: on testdata/ and on the generated
load-test corpus. A change of how the model is represented or read must not change a byte of any report; a
change of what irlint reports updates the stored files on purpose (--update) and shows in the diff.

    golden_test.py --irlint build/irlint --testdata testdata --golden tests/golden [--update]

Prints one line per differing report and `N passed, M failed`; exits 1 on any difference.
"""
import argparse
import os
import subprocess
import sys
import tempfile

import corpus

TIMEOUT_SECONDS = 300


def check_json(irlint, cwd, path):
    proc = subprocess.run([irlint, "check", path, "--format", "json", "--no-config"], cwd=cwd,
                          capture_output=True, timeout=TIMEOUT_SECONDS)
    if proc.returncode not in (0, 1):
        raise RuntimeError(f"check {path}: exit {proc.returncode}: {proc.stderr.decode(errors='replace')[:300]}")
    return proc.stdout


def first_difference(a, b):
    n = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    return n, a[max(0, n - 80):n + 80].decode(errors="replace"), b[max(0, n - 80):n + 80].decode(errors="replace")


def compare(name, produced, golden_dir, update):
    path = os.path.join(golden_dir, name)
    if update:
        with open(path, "wb") as f:
            f.write(produced)
        print(f"updated {name} ({len(produced)} bytes)")
        return True
    with open(path, "rb") as f:
        stored = f.read()
    if produced == stored:
        return True
    at, want, got = first_difference(stored, produced)
    print(f"FAIL {name}: differs at byte {at} ({len(stored)} bytes stored, {len(produced)} produced)\n"
          f"  stored:   ...{want}...\n  produced: ...{got}...")
    return False


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--irlint", required=True)
    ap.add_argument("--testdata", required=True)
    ap.add_argument("--golden", required=True)
    ap.add_argument("--update", action="store_true", help="write the reports as the new stored ones")
    args = ap.parse_args()
    irlint = os.path.abspath(args.irlint)
    testdata = os.path.abspath(args.testdata)
    results = [compare("testdata.json", check_json(irlint, os.path.dirname(testdata), os.path.basename(testdata)),
                       args.golden, args.update)]
    with tempfile.TemporaryDirectory(prefix="irlint-golden-") as tmp:
        corpus.write_corpus(os.path.join(tmp, "corpus"))
        results.append(compare("load-corpus.json", check_json(irlint, tmp, "corpus"), args.golden, args.update))
    failed = results.count(False)
    print(f"{len(results) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/python3
"""Load test: `irlint check` on 5,000 generated IRs, 2% of them broken in varied ways.

    load_test.py --irlint BUILD/irlint [--files 5000]

Every broken file must be reported with exactly its planted findings, every good file must pass with no
finding, no file may be missing from the report, and the peak RSS of checking all files must stay within a
small margin of the peak RSS of checking a fifth of them.
"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile

from corpus import DEFECTS, model_xml

BROKEN_KINDS = [d for d in DEFECTS if d is not None]


def write_load_corpus(directory, count, seed=7):
    """Writes `count` files; every 50th is broken (the kinds in turn). Returns {relative path: expected}."""
    rng = random.Random(seed)
    expected = {}
    for i in range(count):
        defect = BROKEN_KINDS[(i // 50) % len(BROKEN_KINDS)] if i % 50 == 0 else None
        text, findings = model_xml(rng, f"m{i}", defect)
        relative = os.path.join(f"d{i % 20:02d}", f"m{i:05d}.xml")
        os.makedirs(os.path.join(directory, os.path.dirname(relative)), exist_ok=True)
        with open(os.path.join(directory, relative), "w", encoding="utf-8") as f:
            f.write(text)
        expected[relative] = sorted(findings)
    return expected


def check_with_peak_rss(irlint, paths):
    """Runs `irlint check --format json`; returns (exit code, report, peak RSS in KiB)."""
    with tempfile.TemporaryFile() as out:
        proc = subprocess.Popen([irlint, "check", *paths, "--format", "json", "-j", "2"], stdout=out,
                                stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        return proc.returncode, json.loads(out.read().decode()), usage.ru_maxrss


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--irlint", required=True)
    parser.add_argument("--files", type=int, default=5000)
    parser.add_argument("--skip-rss", action="store_true",
                        help="no peak-RSS comparison (sanitizer builds keep freed memory in quarantine)")
    args = parser.parse_args()
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        expected = write_load_corpus(tmp, args.files)
        code, report, peak_all = check_with_peak_rss(args.irlint, [tmp])
        fifth = [os.path.join(tmp, f"d{i:02d}") for i in range(4)]
        _, _, peak_fifth = check_with_peak_rss(args.irlint, fifth)
        files = {os.path.relpath(f["path"], tmp): f for f in report["files"]}
        if code != 1:
            failures.append(f"exit code {code}, expected 1 (errors planted)")
        if len(files) != len(expected):
            failures.append(f"{len(files)} files in the report, {len(expected)} written")
        for relative, want in expected.items():
            found = files.get(relative)
            if found is None:
                failures.append(f"{relative}: missing from the report")
                continue
            got = sorted((d["severity"], d["rule"], d["layer_id"] if w[2] is not None else None)
                         for d, w in zip(sorted(found["diagnostics"], key=lambda d: (d["severity"], d["rule"])),
                                         want)) if len(found["diagnostics"]) == len(want) else found["diagnostics"]
            if got != want:
                failures.append(f"{relative}: found {found['diagnostics']}, planted {want}")
        broken = sum(1 for w in expected.values() if w)
        print(f"{len(expected)} files, {broken} broken; peak RSS {peak_all} KiB for all, {peak_fifth} KiB for a fifth")
        if not args.skip_rss and peak_all > peak_fifth * 1.25 + 8192:
            failures.append(f"peak RSS grows with the corpus: {peak_fifth} KiB for a fifth, {peak_all} KiB for all")
    for f in failures[:20]:
        print("FAIL", f)
    print(f"load: {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

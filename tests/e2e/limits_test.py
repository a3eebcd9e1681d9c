#!/usr/bin/python3
"""End-to-end checks of the batch limits: --timeout-per-file and Ctrl-C during `irlint check`.

    limits_test.py --irlint BUILD/irlint --testdata testdata/ --gen-ir bench/gen_ir.py
"""
import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

from irlint_process import run

FAILURES = []


def check(name, condition, detail=""):
    if not condition:
        FAILURES.append(f"{name}: {detail}")


def test_timeout(irlint, gen_ir, tmp):
    big = os.path.join(tmp, "big.xml")
    subprocess.run([sys.executable, gen_ir, "--layers", "20000", "--out", big], check=True, capture_output=True)
    small = os.path.join(tmp, "small")
    os.makedirs(small)
    subprocess.run([sys.executable, gen_ir, "--layers", "40", "--out", os.path.join(small, "a.xml")], check=True,
                   capture_output=True)
    code, out, err = run(irlint, ["check", big, small, "--timeout-per-file", "0.001", "--format", "json"], 120)
    check("timeout exit", code == 1, f"{code} {err}")
    report = json.loads(out) if out.strip() else {"files": []}
    by_name = {os.path.basename(f["path"]): f for f in report["files"]}
    big_rules = [d["rule"] for d in by_name.get("big.xml", {}).get("diagnostics", [])]
    check("timeout reported", big_rules == ["check-timeout"], big_rules)
    check("the run went on to the next file", "a.xml" in by_name, sorted(by_name))
    code, out, err = run(irlint, ["check", big, "--timeout-per-file", "0.001", "-q"], 120)
    check("timeout text", f"{big}: error: checking took longer than --timeout-per-file 0.001 s" in out, out)
    code, out, err = run(irlint, ["check", small, "--timeout-per-file", "60", "-q"], 60)
    check("generous timeout", code == 0 and "check-timeout" not in out, f"{code} {out} {err}")


def test_interrupt(irlint, gen_ir, tmp):
    corpus = os.path.join(tmp, "corpus")
    os.makedirs(corpus)
    source = os.path.join(tmp, "model.xml")
    subprocess.run([sys.executable, gen_ir, "--layers", "2000", "--out", source], check=True, capture_output=True)
    for i in range(500):  # links: many files to check, no disk space
        os.link(source, os.path.join(corpus, f"m{i:05d}.xml"))
    report = os.path.join(tmp, "report.json")
    proc = subprocess.Popen([irlint, "check", corpus, "-j", "1", "--format", "json", "-o", report],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(0.5)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    if proc.returncode == 0:
        print("note: the corpus was checked before the interrupt arrived; nothing to test on this machine")
        return
    check("interrupt exit", proc.returncode == 130, f"{proc.returncode} {err}")
    check("interrupt message", "interrupted:" in err and "of 500 files checked" in err, err)
    check("no partial report", not os.path.exists(report), os.listdir(tmp))
    check("no temporary files", not [f for f in os.listdir(tmp) if f.endswith(".tmp")], os.listdir(tmp))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--irlint", required=True)
    parser.add_argument("--testdata", required=True)
    parser.add_argument("--gen-ir", required=True)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for test in (lambda: test_timeout(args.irlint, args.gen_ir, tmp),
                     lambda: test_interrupt(args.irlint, args.gen_ir, tmp)):
            try:
                test()
            except Exception as e:  # one broken test must not hide the others
                check("exception", False, repr(e))
    for f in FAILURES:
        print("FAIL", f)
    print(f"limits: {len(FAILURES)} failures")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())

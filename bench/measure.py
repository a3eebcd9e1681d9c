#!/usr/bin/python3
"""Run a command with stdout discarded; print its wall time and CPU time (user + system) in seconds and its
peak RSS in KiB.

    measure.py irlint check models/ -q        ->  "4.213 8.102 35120"

CPU time and RSS are the child's own (os.wait4), so the measuring process does not count. Exits with the
command's exit code.
"""
import os
import subprocess
import sys
import time


def main():
    start = time.perf_counter()
    proc = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    print(f"{elapsed:.3f} {usage.ru_utime + usage.ru_stime:.3f} {usage.ru_maxrss}")
    return os.waitstatus_to_exitcode(status)


if __name__ == "__main__":
    sys.exit(main())

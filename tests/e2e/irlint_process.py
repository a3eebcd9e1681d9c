"""Runs the irlint binary for the end-to-end scripts, with a time limit."""

import subprocess


def run(irlint, args, timeout):
    """Returns (exit code, stdout, stderr); the exit code is None when irlint did not finish in time."""
    try:
        proc = subprocess.run([irlint] + args, capture_output=True, text=True, errors="replace", timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, "", ""
    return proc.returncode, proc.stdout, proc.stderr

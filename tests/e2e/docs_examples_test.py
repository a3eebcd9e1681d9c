#!/usr/bin/env python3
"""Runs the command-line examples of docs/*.md as written and compares what they print with the docs.

    docs_examples_test.py --irlint build/irlint --docs docs --root .

An example is a line `$ irlint ...` in a fenced code block, followed by the output it documents (up to the next
`$ ` line or the end of the block). It is run from the repository root; the documented lines must be its
stdout, its stderr, or both (stdout first), with the commit of `--version` and the wall time left out of the
comparison. When the text after the block says `(exit code N`, the exit code must be N.

A block whose examples cannot run here (files that are not in the repository, a pipe into another program)
has `<!-- not-run: REASON -->` on the line before it; an example that cannot run in a block without it is a
failure. Python blocks: every rule id that a `select`, `ignore` or `severity` argument names must exist.
Prints one line per failure and `N passed, M failed, K not run`; exits 1 on any failure.
"""
import argparse
import json
import os
import re
import shlex
import subprocess
import sys

TIMEOUT_SECONDS = 120
BLOCK = re.compile(r"^```([a-z]*)\n(.*?)^```\n?", re.M | re.S)
NOT_RUN = re.compile(r"<!-- not-run: [^>]+ -->\n$")
EXIT_CODE = re.compile(r"^\s*\(exit code (\d+)")
PATH_ARG = re.compile(r"\.(xml|onnx|json|npy|bin|pb|html|sarif)$|/$")
NORMALIZE = [(re.compile(r"^commit [0-9a-f]{12}$"), "commit COMMIT"), (re.compile(r"wall time +\S+ s"), "wall time")]


def normalized(lines):
    out = []
    for line in lines:
        for pattern, replacement in NORMALIZE:
            line = pattern.sub(replacement, line)
        out.append(line.rstrip())
    while out and not out[-1]:
        out.pop()
    return out


def examples(block):
    """(command, documented output lines) of each `$ irlint` line of a block."""
    lines = block.splitlines()
    for i, line in enumerate(lines):
        if not line.startswith("$ irlint"):
            continue
        output = []
        for later in lines[i + 1:]:
            if later.startswith("$ "):
                break
            output.append(later)
        yield line[2:], output


def runnable(command, root):
    """The argv of COMMAND, or None when it needs a shell or files the repository does not have."""
    if any(c in command for c in "|<>;&"):
        return None
    try:
        argv = shlex.split(command)
    except ValueError:
        return None
    creates = {argv[i + 1] for i, a in enumerate(argv[:-1]) if a in ("-o", "--output", "--save", "--map-png",
                                                                  "--report", "--write-baseline")}
    paths = [a for a in argv[1:] if PATH_ARG.search(a) and not a.startswith("-") and a not in creates]
    if any(not os.path.exists(os.path.join(root, p)) for p in paths if "missing" not in p and "nonexistent" not in p):
        return None
    return argv


def run_example(irlint, argv, root):
    try:
        return subprocess.run([irlint] + argv[1:], cwd=root, capture_output=True, text=True, errors="replace",
                              timeout=TIMEOUT_SECONDS)
    except subprocess.TimeoutExpired:
        return None


def check_example(args, where, command, documented, exit_code):
    argv = runnable(command, args.root)
    if argv is None:
        return f"{where}: `{command}` cannot run here; mark its block <!-- not-run: REASON -->"
    proc = run_example(args.irlint, argv, args.root)
    if proc is None:
        return f"{where}: `{command}` did not finish within {TIMEOUT_SECONDS} s"
    out, err = proc.stdout.splitlines(), proc.stderr.splitlines()
    expected = normalized(documented)
    if expected and expected not in (normalized(out), normalized(err), normalized(out + err)):
        got = normalized(out + err)
        first = next((i for i, (a, b) in enumerate(zip(expected, got)) if a != b), min(len(expected), len(got)))
        return (f"{where}: `{command}` prints other lines than documented, from line {first + 1}:\n"
                f"  documented: {expected[first] if first < len(expected) else '(nothing)'}\n"
                f"  printed:    {got[first] if first < len(got) else '(nothing)'}")
    if exit_code is not None and proc.returncode != exit_code:
        return f"{where}: `{command}` exits with {proc.returncode}, documented {exit_code}"
    return None


def rule_ids(irlint):
    proc = subprocess.run([irlint, "rules", "--format", "json"], capture_output=True, text=True, timeout=60)
    return {r["id"] for r in json.loads(proc.stdout)["rules"]}


def python_rule_names(code):
    """The rule ids a Python example passes as select=, ignore= or severity= keys."""
    names = []
    for m in re.finditer(r"\b(select|ignore)\s*=\s*(\"[^\"]*\"|\[[^\]]*\])", code):
        names += re.findall(r"[a-z]+(?:-[a-z]+)+", m.group(2))
    for m in re.finditer(r"\bseverity\s*=\s*\{([^}]*)\}", code):
        names += re.findall(r"\"([a-z]+(?:-[a-z]+)+)\"\s*:", m.group(1))
    return names


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--irlint", required=True)
    ap.add_argument("--docs", required=True)
    ap.add_argument("--root", required=True)
    args = ap.parse_args()
    args.irlint = os.path.abspath(args.irlint)
    known = rule_ids(args.irlint)
    passed, failures, not_run = 0, [], 0
    for name in sorted(n for n in os.listdir(args.docs) if n.endswith(".md")):
        with open(os.path.join(args.docs, name), encoding="utf-8") as f:
            text = f.read()
        for m in BLOCK.finditer(text):
            where = f"docs/{name}:{text.count(chr(10), 0, m.start()) + 1}"
            if m.group(1) == "python":
                unknown = [r for r in python_rule_names(m.group(2)) if r not in known]
                if unknown:
                    failures.append(f"{where}: the Python example names rule ids that do not exist: {unknown}")
            found = list(examples(m.group(2)))
            if not found:
                continue
            if NOT_RUN.search(text[:m.start()]):
                not_run += len(found)
                continue
            after = EXIT_CODE.match(text[m.end():m.end() + 200].lstrip("\n"))
            for command, documented in found:
                exit_code = int(after.group(1)) if after and len(found) == 1 else None
                failure = check_example(args, where, command, documented, exit_code)
                if failure:
                    failures.append(failure)
                else:
                    passed += 1
    for message in failures:
        print(f"FAIL {message}")
    print(f"{passed} passed, {len(failures)} failed, {not_run} not run")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""End-to-end checks of `irlint check --fix` and `--diff` on copies of testdata files: the diff's hunks, the
rewrite (check is clean afterwards for the fixed rules, every other byte kept, permissions kept), CRLF
files, consumer ports, refusal on structural errors, rule selection, and the usage error of --diff alone.

    fix_test.py --irlint build/irlint --testdata testdata

Prints one line per failed check and a closing line `N passed, M failed`; exits 1 on any failure.
"""
import argparse
import json
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile

IRLINT = None
TESTDATA = None
CHECKS = []
FIXED_RULES = {"output-shape-mismatch", "output-type-mismatch"}
# The broken files whose findings --fix resolves, and the valid file with a stale index precision.
FIXABLE = ["output_shape_3d.xml", "output_shape_conv_dynamic_batch.xml", "output_shape_adaptive.xml", "output_shape_adaptive.bin",
           "output_shape_channels.xml", "output_shape_indices.xml", "output_shape_rounding_hint.xml",
           "output_shape_wrong_dim.xml", "output_type_indices.xml", "output_type_values.xml"]


class Failure(Exception):
    pass


def check(fn):
    CHECKS.append(fn)
    return fn


def run(*args, cwd=None):
    return subprocess.run([IRLINT] + [str(a) for a in args], capture_output=True, text=True, timeout=60, cwd=cwd)


def expect(cond, what):
    if not cond:
        raise Failure(what)


def fixable_copy(tmp):
    """A directory with copies of the fixable files; returns its path."""
    models = os.path.join(tmp, "models")
    os.makedirs(models)
    for name in FIXABLE:
        shutil.copy(os.path.join(TESTDATA, "broken", name), models)
    shutil.copy(os.path.join(TESTDATA, "valid", "maxpool8_stale_index_precision.xml"), models)
    return models


def read_bytes(path):
    with open(path, "rb") as f:
        return f.read()


def snapshot(directory):
    return {n: read_bytes(os.path.join(directory, n)) for n in sorted(os.listdir(directory))}


def findings(path, *extra):
    proc = run("check", path, "--format", "json", *extra)
    return [d for f in json.loads(proc.stdout)["files"] for d in f["diagnostics"]]


# What a fix may change in a line: the number of a <dim> and the value of a precision attribute.
NORMALIZE = re.compile(rb"(<dim>)\s*-?\d+\s*(</dim>)|(precision=[\"'])[A-Za-z0-9]+([\"'])")


def only_fixable_spans_differ(before, after):
    """True when the two texts have the same lines but for <dim> numbers and precision values."""
    old, new = before.split(b"\n"), after.split(b"\n")
    if len(old) != len(new):
        return False
    norm = lambda line: NORMALIZE.sub(lambda m: b"".join(g for g in m.groups() if g), line)
    return all(a == b or norm(a) == norm(b) for a, b in zip(old, new))


@check
def diff_shows_the_hunks_and_writes_nothing():
    with tempfile.TemporaryDirectory() as tmp:
        models = fixable_copy(tmp)
        before = snapshot(models)
        proc = run("check", "models", "--fix", "--diff", cwd=tmp)
        expect(proc.returncode == 1, f"exit {proc.returncode}, expected 1: {proc.stderr}")
        expect(snapshot(models) == before, "--diff changed a file")
        out = proc.stdout
        expect("--- a/models/output_shape_3d.xml\n+++ b/models/output_shape_3d.xml\n" in out, out[:400])
        # the pooling output and the Result's input port that its edge feeds, with three lines of context
        expect("@@ -25,7 +25,7 @@\n \t\t\t\t<port id=\"1\" precision=\"FP32\">\n \t\t\t\t\t<dim>2</dim>\n"
               " \t\t\t\t\t<dim>8</dim>\n-\t\t\t\t\t<dim>50</dim>\n+\t\t\t\t\t<dim>33</dim>\n" in out, "3d hunk")
        expect("@@ -34,7 +34,7 @@\n" in out, "consumer hunk of output_shape_3d")
        expect("-\t\t\t\t<port id=\"1\" precision=\"FP16\">\n+\t\t\t\t<port id=\"1\" precision=\"FP32\">\n" in out,
               "precision hunk of output_type_values")
        expect("-\t\t\t\t<port id=\"2\" precision=\"FP32\">\n+\t\t\t\t<port id=\"2\" precision=\"I64\">\n" in out,
               "the unconsumed index port of the stale-precision model")
        expect(out.count("--- a/models/") == 10, f"{out.count('--- a/models/')} files in the diff, expected 10")
        expect(proc.stderr == "", f"stderr: {proc.stderr}")


@check
def fix_rewrites_and_check_is_clean_afterwards():
    with tempfile.TemporaryDirectory() as tmp:
        models = fixable_copy(tmp)
        before = snapshot(models)
        os.chmod(os.path.join(models, "output_shape_3d.xml"), 0o600)
        expect(FIXED_RULES & {d["rule"] for d in findings(models)}, "the copies have nothing to fix")
        proc = run("check", models, "--fix")
        expect(proc.returncode == 0, f"exit {proc.returncode}: {proc.stdout}{proc.stderr}")
        expect("irlint: --fix: 11 findings fixed in 10 files" in proc.stderr, proc.stderr)
        expect("errors                  0" in proc.stdout, f"the report after fixing:\n{proc.stdout}")
        left = [d for d in findings(models, "--min-severity", "note") if d["rule"] in FIXED_RULES or
                d["rule"].startswith("edge-")]
        expect(not left, f"findings left: {left}")
        after = snapshot(models)
        for name in before:
            if name.endswith(".xml"):
                expect(after[name] != before[name], f"{name} not changed")
                expect(only_fixable_spans_differ(before[name], after[name]), f"{name}: other bytes changed")
        expect(after["output_shape_adaptive.bin"] == before["output_shape_adaptive.bin"], ".bin changed")
        mode = stat.S_IMODE(os.stat(os.path.join(models, "output_shape_3d.xml")).st_mode)
        expect(mode == 0o600, f"mode {oct(mode)} after --fix, expected 0o600")
        expect(not [n for n in os.listdir(models) if n not in before], f"files left behind: {os.listdir(models)}")
        again = run("check", models, "--fix", "--diff")
        expect(again.returncode == 0 and again.stdout == "", f"a second --diff: exit {again.returncode}")


@check
def a_dynamic_batch_stays_while_a_wrong_dim_is_fixed():
    with tempfile.TemporaryDirectory() as tmp:
        model = os.path.join(fixable_copy(tmp), "output_shape_conv_dynamic_batch.xml")
        diff = run("check", model, "--fix", "--diff")
        expect(diff.returncode == 1, f"--diff exit {diff.returncode}")
        removed = [l for l in diff.stdout.splitlines() if l.startswith("-\t")]
        added = [l for l in diff.stdout.splitlines() if l.startswith("+\t")]
        expect(removed == ["-\t\t\t\t\t<dim>8</dim>"] * 4 and added == ["+\t\t\t\t\t<dim>6</dim>"] * 4,
               f"the diff changes {removed} into {added}")
        expect(run("check", model, "--fix").returncode == 0, "check --fix does not end clean")
        text = open(model, encoding="utf-8").read()
        expect(text.count("<dim>-1</dim>") == 4 and "<dim>8</dim>" in text, "the dynamic batch or the input dims changed")
        left = [d for d in findings(model) if d["severity"] != "note"]
        expect(left == [], f"findings after the fix: {left}")


@check
def crlf_line_ends_are_kept():
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "crlf.xml")
        text = read_bytes(os.path.join(TESTDATA, "broken", "output_shape_3d.xml")).replace(b"\n", b"\r\n")
        with open(path, "wb") as f:
            f.write(text)
        proc = run("check", path, "--fix", "-q")
        expect(proc.returncode == 0, f"exit {proc.returncode}: {proc.stdout}{proc.stderr}")
        fixed = read_bytes(path)
        expect(fixed == text.replace(b"<dim>50</dim>", b"<dim>33</dim>"), "CRLF file: other bytes changed")


@check
def structural_errors_refuse_the_fix():
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "broken.xml")
        text = read_bytes(os.path.join(TESTDATA, "broken", "output_shape_3d.xml"))
        text = text.replace(b"\t</edges>", b"\t\t<edge from-layer=\"9\" from-port=\"0\" to-layer=\"2\" to-port=\"5\"/>\n"
                                          b"\t</edges>")
        with open(path, "wb") as f:
            f.write(text)
        proc = run("check", path, "--fix", "-q")
        expect(proc.returncode == 1, f"exit {proc.returncode}, expected 1")
        expect("not fixed: the file has xml-malformed or ir-structure errors" in proc.stderr, proc.stderr)
        expect(read_bytes(path) == text, "a refused file was changed")
        diff = run("check", path, "--fix", "--diff")
        expect(diff.returncode == 1 and diff.stdout == "", f"--diff of a refused file: exit {diff.returncode}")


@check
def an_ignored_rule_is_not_fixed():
    with tempfile.TemporaryDirectory() as tmp:
        models = fixable_copy(tmp)
        path = os.path.join(models, "output_type_values.xml")
        before = read_bytes(path)
        proc = run("check", path, "--fix", "--ignore", "output-type-mismatch", "-q")
        expect(proc.returncode == 0, f"exit {proc.returncode}: nothing else is wrong in the file")
        expect(read_bytes(path) == before, "an ignored rule was fixed")


@check
def diff_needs_fix():
    proc = run("check", os.path.join(TESTDATA, "valid"), "--diff")
    expect(proc.returncode == 2, f"--diff alone: exit {proc.returncode}, expected 2")
    expect("--fix" in proc.stderr, proc.stderr)


@check
def a_valid_directory_has_nothing_to_fix():
    with tempfile.TemporaryDirectory() as tmp:
        valid = os.path.join(tmp, "valid")
        shutil.copytree(os.path.join(TESTDATA, "valid"), valid)
        os.remove(os.path.join(valid, "maxpool8_stale_index_precision.xml"))
        before = snapshot(valid)
        proc = run("check", valid, "--fix", "--diff")
        expect(proc.returncode == 0 and proc.stdout == "", f"exit {proc.returncode}: {proc.stdout[:300]}")
        expect(run("check", valid, "--fix", "-q").returncode == 0, "--fix of valid files")
        expect(snapshot(valid) == before, "--fix changed a valid file")


def main():
    global IRLINT, TESTDATA
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--irlint", required=True)
    ap.add_argument("--testdata", required=True)
    args = ap.parse_args()
    IRLINT = os.path.abspath(args.irlint)
    TESTDATA = os.path.abspath(args.testdata)
    failed = 0
    for fn in CHECKS:
        try:
            fn()
        except (Failure, json.JSONDecodeError, KeyError, IndexError, OSError) as e:
            failed += 1
            print(f"FAIL {fn.__name__}: {e!r}")
    print(f"{len(CHECKS) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

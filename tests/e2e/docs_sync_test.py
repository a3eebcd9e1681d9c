#!/usr/bin/env python3
"""Fails when the docs and the binary disagree: docs/cli.md's flags against each subcommand's --help,
docs/rules.md's rule ids against the rule ids the binary knows, and docs/ops.md against the op registry.

    docs_sync_test.py --irlint build/irlint --docs docs --testdata testdata

The binary's rule ids come from `irlint rules --format json` when it has that subcommand, else from the rules
list of a SARIF report. Prints one line per failed check and `N passed, M failed`; exits 1 on any failure.
"""
import argparse
import json
import os
import re
import subprocess
import sys

TIMEOUT_SECONDS = 120
ARGS = None
CHECKS = []
# A flag as the docs write it: --long-name, or -x.
FLAG = re.compile(r"(?<![\w-])(--[a-z][a-z0-9-]*|-[a-zA-Z])(?![\w-])")
NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
                "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15}


class Failure(Exception):
    pass


def check(fn):
    CHECKS.append(fn)
    return fn


def expect(cond, message):
    if not cond:
        raise Failure(message)


def irlint(*args):
    try:
        return subprocess.run([ARGS.irlint, *args], capture_output=True, text=True, errors="replace",
                              timeout=TIMEOUT_SECONDS)
    except subprocess.TimeoutExpired:
        raise Failure(f"`irlint {' '.join(args)}` did not finish within {TIMEOUT_SECONDS}s")


def read_doc(name):
    with open(os.path.join(ARGS.docs, name)) as f:
        return f.read()


def subcommands():
    text = irlint("--help").stdout
    block = text.split("Subcommands:", 1)[1].split("\n\n", 1)[0]
    return [line.split()[0] for line in block.splitlines() if line.startswith("  ") and line.strip()]


def binary_options(subcommand):
    """The options of `irlint SUBCOMMAND --help` as tuples of their names (("-o", "--output"), ...), without help."""
    text = irlint(subcommand, "--help").stdout
    block = text.split("Options:", 1)[1].split("\n\n", 1)[0]
    options = [tuple(line.split()[0].split(",")) for line in block.splitlines() if line.startswith("  -")]
    return [names for names in options if "--help" not in names]


def section(text, heading):
    """The text of '## heading' up to the next '## ' heading ('' when there is none)."""
    match = re.search(rf"^## {re.escape(heading)}\n(.*?)(?=^## |\Z)", text, re.MULTILINE | re.DOTALL)
    return match.group(1) if match else ""


def first_code_block(text):
    match = re.search(r"```\n(.*?)```", text, re.DOTALL)
    return match.group(1) if match else ""


def documented_flags(text):
    """Flags the section defines: in its synopsis, and at the start of an option paragraph, bullet or table row."""
    flags = set(FLAG.findall(first_code_block(text)))
    for line in text.splitlines():
        # "`-o FILE`, `--output FILE` — ...", "* `--op` — ...", "| `--select` | ..."
        match = re.match(r"^(?:\* |\| )?((?:`-[^`]*`(?:, | or |/)?)+)", line)
        if match:
            flags |= {segment.split()[0] for segment in re.findall(r"`(-[^`]*)`", match.group(1))}
    return flags


# ---------------------------------------------------------------- docs/cli.md

@check
def every_subcommand_has_a_section_and_a_usage_line():
    cli = read_doc("cli.md")
    usage = first_code_block(cli)
    for sub in subcommands():
        expect(section(cli, f"irlint {sub}"), f"docs/cli.md has no section '## irlint {sub}'")
        expect(re.search(rf"^irlint {sub} ", usage, re.MULTILINE), f"docs/cli.md's usage block leaves out {sub}")


@check
def cli_md_flags_are_the_binarys():
    cli = read_doc("cli.md")
    usage = first_code_block(cli)
    problems = []
    for sub in subcommands():
        options = binary_options(sub)
        have = {name for names in options for name in names}
        text = section(cli, f"irlint {sub}")
        documented = documented_flags(text)
        undocumented = [names for names in options if not set(names) & documented]
        synopsis = set(FLAG.findall(first_code_block(text)))
        for line in re.findall(rf"^irlint {sub} .*(?:\n {{10,}}.*)*", usage, re.MULTILINE):
            synopsis |= set(FLAG.findall(line))
        if undocumented:
            problems.append(f"{sub}: {[','.join(n) for n in undocumented]} not documented in '## irlint {sub}'")
        if synopsis - have:
            problems.append(f"{sub}: docs/cli.md shows {sorted(synopsis - have)}, which `irlint {sub}` does not take")
    expect(not problems, "; ".join(problems))


@check
def cli_md_counts_the_rules_right():
    cli = read_doc("cli.md")
    count = len(binary_rule_ids())
    for match in re.finditer(r"all (\w+) rule ids", cli):
        word = match.group(1)
        n = int(word) if word.isdigit() else NUMBER_WORDS.get(word)
        expect(n == count, f"docs/cli.md says '{match.group(0)}'; the binary has {count}")


# ---------------------------------------------------------------- docs/rules.md

def binary_rule_ids():
    """Rule ids in the binary's order: from `irlint rules --format json` if there is one, else SARIF."""
    if "rules" in subcommands():
        proc = irlint("rules", "--format", "json")
        expect(proc.returncode == 0, f"irlint rules --format json exits with {proc.returncode}")
        ids = []

        def walk(value):
            if isinstance(value, dict):
                if isinstance(value.get("id"), str):
                    ids.append(value["id"])
                for item in value.values():
                    walk(item)
            elif isinstance(value, list):
                for item in value:
                    walk(item)
        walk(json.loads(proc.stdout))
        expect(ids, "irlint rules --format json lists no rule ids")
        return ids
    proc = irlint("check", os.path.join(ARGS.testdata, "valid"), "--format", "sarif", "--fail-on", "never")
    expect(proc.returncode == 0, f"check --format sarif exits with {proc.returncode}")
    return [rule["id"] for rule in json.loads(proc.stdout)["runs"][0]["tool"]["driver"]["rules"]]


@check
def ops_md_is_the_registry():
    ops = read_doc("ops.md")
    generated = irlint("ops", "--format", "markdown").stdout
    expect(generated.startswith("# Ops irlint infers") and ops == generated,
           "docs/ops.md differs from `irlint ops --format markdown` (write it again with that command)")


@check
def rules_md_lists_every_rule_of_the_binary():
    rules = read_doc("rules.md")
    have = binary_rule_ids()
    expect(len(set(have)) == len(have), f"the binary lists a rule id twice: {have}")
    table = re.findall(r"^\| \[`([a-z0-9-]+)`\]\(#\1\)", rules, re.MULTILINE)
    headings = [h for h in re.findall(r"^## ([a-z0-9-]+)$", rules, re.MULTILINE)]
    expect(set(table) == set(have), f"docs/rules.md's table has {sorted(set(table) - set(have))} extra and "
                                    f"lacks {sorted(set(have) - set(table))}")
    expect(set(headings) == set(have), f"docs/rules.md's sections: {sorted(set(headings) - set(have))} extra, "
                                       f"{sorted(set(have) - set(headings))} missing")


def main():
    global ARGS
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--irlint", required=True)
    ap.add_argument("--docs", required=True)
    ap.add_argument("--testdata", required=True)
    ARGS = ap.parse_args()

    passed = failed = 0
    for fn in CHECKS:
        try:
            fn()
        except Failure as e:
            print(f"FAIL {fn.__name__}: {e}")
            failed += 1
        except Exception as e:  # a bug in this script or an unexpected output shape
            print(f"FAIL {fn.__name__}: {type(e).__name__}: {e}")
            failed += 1
        else:
            passed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

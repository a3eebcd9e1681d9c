#!/usr/bin/python3
"""Writes the man page irlint(1) from the binary's --help and --version output (run at build time).

    gen_man.py --irlint build/irlint --out build/irlint.1 [--date 2026-01-31]

One section per subcommand with its usage, options and examples, as `irlint SUBCOMMAND --help` prints them,
so the page never says something the binary does not do.
"""
import argparse
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_help import read_commands, sections  # noqa: E402


def roff(text):
    """Text as roff prints it literally: backslashes escaped, '-' as a minus, no line read as a request."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    return "\\&" + text if text.startswith((".", "'")) else text


def literal_block(lines):
    out = [".PP", ".nf", ".RS 4"]
    out += [roff(line) for line in lines]
    out += [".RE", ".fi"]
    return out


def option_items(options):
    out = []
    for option in options:
        names = ", ".join(f"\\fB{roff(name)}\\fR" for name in option.names)
        value = f" \\fI{roff(option.value)}\\fR" if option.value else ""
        out += [".TP", names + value, roff(option.description)]
    return out


def block_after(title, text):
    """The lines of the block that starts with 'title:' (CLI11's footer), up to the end of the text."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith(title + " ") or line == title + ":" or line.startswith(title + ":"):
            return lines[i:]
    return []


def usage_line(text):
    match = re.search(r"^Usage: \S+ (.*)$", text, re.MULTILINE)
    return match.group(1) if match else ""


def render(commands, version, date):
    top = commands[0]
    summary = top.help_text.splitlines()[0]
    summary = summary.split(": ", 1)[1] if summary.startswith("irlint: ") else summary
    out = [
        '.\\" Generated from the output of `irlint --help` when irlint was built; do not edit.',
        f'.TH IRLINT 1 "{date}" "irlint {roff(version)}" "User Commands"',
        ".SH NAME",
        "irlint \\- " + roff(summary),
        ".SH SYNOPSIS",
    ]
    for command in commands[1:]:
        out += [".PP", f"\\fBirlint {command.name}\\fR " + roff(usage_line(command.help_text).split(" ", 1)[-1])]
    out += [".PP", "\\fBirlint\\fR \\fB\\-\\-version\\fR | \\fB\\-\\-help\\fR"]
    out += [".SH DESCRIPTION", "\\fBirlint\\fR " + roff(summary) + "."]
    out += [".SH COMMANDS"]
    for command in commands[1:]:
        out += [".TP", f"\\fB{command.name}\\fR", roff(command.summary)]
    out += [".SH OPTIONS"] + option_items(top.options)
    for command in commands[1:]:
        parts = sections(command.help_text)
        out += [f'.SH "IRLINT {command.name.upper()}"', roff(command.summary) + "."]
        out += literal_block(["irlint " + command.name + " " + usage_line(command.help_text).split(" ", 1)[-1]])
        if "Positionals" in parts:
            out += [".SS Arguments"] + literal_block(parts["Positionals"])
        out += [".SS Options"] + option_items(command.options)
        examples = block_after("Examples", command.help_text)
        if examples:
            out += [".SS Examples"] + literal_block(examples[1:])
    out += [".SH EXAMPLES"] + literal_block(block_after("Examples", top.help_text)[1:])
    out += [
        ".SH ENVIRONMENT",
        ".TP", "\\fBNO_COLOR\\fR", "Set to a non\\-empty value: no color.",
        ".TP", "\\fBCLICOLOR_FORCE\\fR", "Set to a non\\-empty value other than 0: color even into a pipe or file.",
        ".SH SEE ALSO",
        "The documentation of every command, output format and rule: README.md and docs/ in",
        ".I share/doc/irlint",
        "under the installation prefix",
        "(\\fI/usr/share/doc/irlint\\fR for the Debian package), and at",
        ".UR https://github.com/irlint/irlint",
        ".UE .",
    ]
    return "\n".join(out) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--irlint", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--date", help="the page's date (default: SOURCE_DATE_EPOCH, else today)")
    args = parser.parse_args()
    epoch = int(os.environ.get("SOURCE_DATE_EPOCH", time.time()))
    date = args.date or time.strftime("%Y-%m-%d", time.gmtime(epoch))
    version_output = subprocess.run([args.irlint, "--version"], capture_output=True, text=True, check=True).stdout
    version = version_output.split()[1]
    text = render(read_commands(args.irlint), version, date)
    with open(args.out + ".tmp", "w") as f:
        f.write(text)
    os.replace(args.out + ".tmp", args.out)


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""Writes the bash completion of irlint from the binary's --help output (run at build time).

    gen_completion.py --irlint build/irlint --out build/irlint.bash

Completes subcommands, each subcommand's flags, the values of flags with a fixed set (--format, --fail-on),
and file names for everything else.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_help import read_commands  # noqa: E402

TEMPLATE = """\
# bash completion for irlint. Generated from `irlint --help` when irlint was built; do not edit.

_irlint() {{
    local cur=${{COMP_WORDS[COMP_CWORD]}} prev=${{COMP_WORDS[COMP_CWORD-1]}}
    local subcommands="{subcommands}"
    local command="" word i
    for ((i = 1; i < COMP_CWORD; i++)); do
        word=${{COMP_WORDS[i]}}
        case " $subcommands " in *" $word "*) command=$word; break ;; esac
    done

    local flags="" valued="" numeric="" choices=""
    case "$command" in
{flag_cases}
    esac

    case "$command $prev" in
{choice_cases}
    esac
    if [[ " $valued " == *" $prev "* ]]; then
        if [[ " $numeric " == *" $prev "* ]]; then
            COMPREPLY=()
        elif [ -n "$choices" ]; then
            COMPREPLY=($(compgen -W "$choices" -- "$cur"))
        else
            compopt -o filenames 2>/dev/null
            COMPREPLY=($(compgen -f -- "$cur"))
        fi
        return 0
    fi
    if [[ "$cur" == -* ]]; then
        COMPREPLY=($(compgen -W "$flags" -- "$cur"))
    elif [ -z "$command" ]; then
        COMPREPLY=($(compgen -W "$subcommands" -- "$cur"))
    else
        compopt -o filenames 2>/dev/null
        COMPREPLY=($(compgen -f -- "$cur"))
    fi
    return 0
}}
complete -F _irlint irlint
"""


def quote_words(words):
    return " ".join(words)


def flag_case(command):
    flags = [name for option in command.options for name in option.names]
    valued = [name for option in command.options if option.takes_value for name in option.names]
    numeric = [name for option in command.options if option.value.startswith(("INT", "FLOAT"))
               for name in option.names]
    pattern = command.name or '""'
    return (f"        {pattern})\n"
            f"            flags=\"{quote_words(flags)}\"\n"
            f"            valued=\"{quote_words(valued)}\"\n"
            f"            numeric=\"{quote_words(numeric)}\" ;;")


def render(commands):
    subcommands = [c.name for c in commands if c.name]
    choice_lines = []
    for command in commands:
        for option in command.options:
            if option.choices:
                pattern = "|".join(f'"{command.name} {name}"' for name in option.names)
                choice_lines.append(f"        {pattern}) choices=\"{quote_words(option.choices)}\" ;;")
    return TEMPLATE.format(
        subcommands=quote_words(subcommands),
        flag_cases="\n".join(flag_case(c) for c in commands),
        choice_cases="\n".join(choice_lines))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--irlint", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    text = render(read_commands(args.irlint))
    with open(args.out + ".tmp", "w") as f:
        f.write(text)
    os.replace(args.out + ".tmp", args.out)


if __name__ == "__main__":
    main()

"""Reads irlint's command line from the binary's own --help output (CLI11's layout).

Used at build time to write the bash completion and the man page's subcommand sections, and by the tests
that compare the docs with the binary, so that none of them keeps its own copy of the flag list.
"""
import re
import subprocess
from dataclasses import dataclass, field

# "  -o,--output TEXT            Write ..." / "  --format TEXT:{text,json}" / "  -q,--quiet   Print ..."
OPTION_LINE = re.compile(r"^  (-[^\s,]+(?:,-[^\s,]+)*)(?: (\S.*?))?(?:\s{2,}(.*))?$")
SUBCOMMAND_LINE = re.compile(r"^  ([a-z][a-z0-9-]*)\s{2,}(.*)$")
CHOICES = re.compile(r":\{([^}]*)\}")
DESCRIPTION_COLUMN = 30  # CLI11's default column width


@dataclass
class Option:
    names: list        # ["-o", "--output"]
    value: str         # "" for a flag, else CLI11's type text ("TEXT", "TEXT:{text,json}", "INT:INT in [1 - 1024]")
    description: str = ""

    @property
    def takes_value(self):
        return bool(self.value)

    @property
    def choices(self):
        found = CHOICES.search(self.value)
        return found.group(1).split(",") if found else []


@dataclass
class Command:
    name: str
    summary: str = ""
    help_text: str = ""
    options: list = field(default_factory=list)


def run_help(irlint, *args):
    proc = subprocess.run([irlint, *args, "--help"], capture_output=True, text=True, check=True)
    return proc.stdout


def sections(text):
    """{"Options": [lines], "Subcommands": [lines], ...}: CLI11 starts each block with 'Title:' alone on a line."""
    found, current = {}, None
    for line in text.splitlines():
        if re.fullmatch(r"[A-Z][A-Za-z ]*:", line):
            current = line[:-1]
            found[current] = []
        elif current and line.strip():
            found[current].append(line)
        elif current and not line.strip():
            current = None
    return found


def parse_options(lines):
    options = []
    for line in lines:
        match = OPTION_LINE.match(line)
        if match:
            names, value, description = match.groups()
            # A name and type that fill the column exactly leave one space before the description.
            if len(line) > DESCRIPTION_COLUMN and line[DESCRIPTION_COLUMN - 1] == " " and value and not description:
                names_and_value = line[:DESCRIPTION_COLUMN].strip().split(" ", 1)
                value = names_and_value[1] if len(names_and_value) > 1 else ""
                description = line[DESCRIPTION_COLUMN:].strip()
            options.append(Option(names.split(","), value or "", description or ""))
        elif options and line.startswith(" " * 6):
            options[-1].description = (options[-1].description + " " + line.strip()).strip()
    return options


def read_commands(irlint):
    """The top-level command (name "") and each subcommand, in the order --help lists them."""
    top_help = run_help(irlint)
    top = sections(top_help)
    commands = [Command("", "", top_help, parse_options(top.get("Options", [])))]
    for line in top.get("Subcommands", []):
        match = SUBCOMMAND_LINE.match(line)
        if not match:
            continue
        name, summary = match.groups()
        text = run_help(irlint, name)
        commands.append(Command(name, summary, text, parse_options(sections(text).get("Options", []))))
    return commands

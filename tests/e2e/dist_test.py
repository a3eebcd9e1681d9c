#!/usr/bin/env python3
"""End-to-end checks of how irlint is distributed: install, man page, bash completion, --version, each
subcommand's --help, and the CI definitions users take (.pre-commit-hooks.yaml, action.yml, docs/ci.md).

    dist_test.py --irlint build/irlint --build-dir build --source-dir . [--cmake cmake]

The pre-commit hook's entry and the action's run steps are taken from the YAML files and run as they are,
against the built binary on testdata/. Prints one line per failed check and `N passed, M failed`; exits 1 on
any failure.
"""
import argparse
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

import yaml

TIMEOUT_SECONDS = 120
ARGS = None
CHECKS = []
SUBCOMMANDS = ("check", "infer", "shape", "run", "merge")


class Failure(Exception):
    pass


def check(fn):
    CHECKS.append(fn)
    return fn


def expect(cond, message):
    if not cond:
        raise Failure(message)


def run(argv, cwd=None, env=None, stdin=None):
    try:
        return subprocess.run(argv, capture_output=True, text=True, errors="replace", timeout=TIMEOUT_SECONDS,
                              cwd=cwd, env=env, input=stdin)
    except subprocess.TimeoutExpired:
        raise Failure(f"`{' '.join(argv)}` did not finish within {TIMEOUT_SECONDS}s")


def irlint(*args):
    return run([ARGS.irlint, *args], cwd=ARGS.source_dir)


def source(*parts):
    return os.path.join(ARGS.source_dir, *parts)


def help_flags(subcommand):
    """Every --long and -s flag in the Options block of `irlint SUBCOMMAND --help`."""
    text = irlint(subcommand, "--help").stdout
    options = text.split("Options:", 1)[1].split("\n\n", 1)[0]
    return {name for line in options.splitlines() if line.startswith("  -") for name in line.split()[0].split(",")}


# ---------------------------------------------------------------- --version and --help

@check
def version_names_version_commit_and_onnx():
    proc = irlint("--version")
    expect(proc.returncode == 0, f"--version exits with {proc.returncode}")
    lines = proc.stdout.splitlines()
    expect(re.fullmatch(r"irlint \d+\.\d+\.\d+", lines[0]), f"first line {lines[0]!r} is not 'irlint X.Y.Z'")
    commit = run(["git", "rev-parse", "--short=12", "HEAD"], cwd=ARGS.source_dir) if shutil.which("git") else None
    if commit is not None and commit.returncode == 0:
        # The build names the commit it was configured at; a later commit reconfigures it.
        expect(any(re.fullmatch(r"commit [0-9a-f]{7,40}", line) for line in lines),
               f"--version names no commit in a git checkout: {proc.stdout!r}")
    onnx = [line for line in lines if line.startswith("ONNX support: ")]
    expect(len(onnx) == 1 and onnx[0].split(": ")[1].split()[0] in ("yes", "no"),
           f"--version does not say whether ONNX support is built in: {proc.stdout!r}")
    reads_onnx = irlint("check", "no-such.onnx").stderr
    built_in = "built without" not in reads_onnx
    expect((onnx[0].startswith("ONNX support: yes")) == built_in,
           f"--version says {onnx[0]!r}, but check of an .onnx says {reads_onnx.strip()!r}")


def cache_flag(name):
    with open(os.path.join(ARGS.build_dir, "CMakeCache.txt")) as f:
        return f"{name}:BOOL=ON" in f.read()


def has_interpreter(path):
    """Whether the ELF file names a dynamic loader (a PT_INTERP program header)."""
    with open(path, "rb") as f:
        elf = f.read(1 << 16)
    phoff, phentsize, phnum = (int.from_bytes(elf[0x20:0x28], "little"), int.from_bytes(elf[0x36:0x38], "little"),
                               int.from_bytes(elf[0x38:0x3A], "little"))
    return any(int.from_bytes(elf[phoff + i * phentsize:phoff + i * phentsize + 4], "little") == 3 for i in range(phnum))


@check
def irlint_is_static_and_hands_onnx_commands_to_irlint_onnx():
    if not cache_flag("IRLINT_STATIC_RUNTIME"):
        return  # sanitizer builds link dynamically
    expect(not has_interpreter(ARGS.irlint), f"{ARGS.irlint} is not statically linked")
    if not cache_flag("IRLINT_ONNX"):
        return
    helper = os.path.join(os.path.dirname(ARGS.irlint), "irlint-onnx")
    expect(has_interpreter(helper), f"{helper} is not there or not a dynamically linked program")
    model = "/usr/share/libonnx-testdata/data/node/test_maxpool_2d_default/model.onnx"  # setup.sh installs it
    expect(os.path.isfile(model), f"{model} is missing: run scripts/setup.sh")
    with tempfile.TemporaryDirectory() as alone:  # irlint without its helper
        shutil.copy(ARGS.irlint, alone)
        proc = run([os.path.join(alone, "irlint"), "check", "-q", model])
        expect(proc.returncode == 1 and "irlint-onnx is not installed beside the binary" in proc.stdout
               and proc.stdout.rstrip().endswith("[check-failed]"),
               f"irlint without irlint-onnx: exit {proc.returncode}, {proc.stdout.strip()[:300]!r}")
        # A file irlint could not check is never ignored nor forgiven.
        proc = run([os.path.join(alone, "irlint"), "check", "-q", model, "--ignore", "check-failed", "--fail-on",
                    "never"])
        expect(proc.returncode == 1 and proc.stdout.rstrip().endswith("[check-failed]"),
               f"irlint without irlint-onnx, --ignore check-failed: exit {proc.returncode}, {proc.stdout[:300]!r}")
        proc = run([os.path.join(alone, "irlint"), "check", "-q", source("testdata", "valid")])
        expect(proc.returncode == 0, f"irlint without irlint-onnx fails on IR files: exit {proc.returncode}")
    proc = irlint("check", "-q", "--format", "json", model)
    expect(proc.returncode == 0 and json.loads(proc.stdout)["summary"]["files"] == 1,
           f"irlint check of an .onnx through irlint-onnx: exit {proc.returncode}, {proc.stdout.strip()[:300]!r}")


@check
def each_subcommand_shows_its_own_examples():
    for sub in SUBCOMMANDS:
        text = irlint(sub, "--help").stdout
        examples = text.split("Examples:", 1)
        expect(len(examples) == 2, f"`irlint {sub} --help` shows no examples")
        commands = re.findall(r"^  irlint (\S+)", examples[1], re.MULTILINE)
        expect(commands and set(commands) == {sub},
               f"`irlint {sub} --help` shows examples of {sorted(set(commands))}, expected only {sub}")


@check
def model_arguments_name_both_formats():
    for sub in ("infer", "run"):
        text = irlint(sub, "--help").stdout
        expect(".onnx" in text.split("Options:")[0], f"`irlint {sub} --help` does not say MODEL may be .onnx")
    expect("*.onnx" in irlint("check", "--help").stdout, "`irlint check --help` does not say *.onnx are searched")


# ---------------------------------------------------------------- install, man page, completion

def install(prefix):
    # The man page and completion are built with everything (target irlint_help_files, in ALL). Building them
    # here could relink irlint under the tests that run beside this one: a commit since the build reconfigures
    # the project (the binary names its commit).
    for generated in ("irlint.1", "irlint.bash-completion"):
        expect(os.path.isfile(os.path.join(ARGS.build_dir, generated)),
               f"{generated} is not in {ARGS.build_dir}: build the project first")
    proc = run([ARGS.cmake, "--install", ARGS.build_dir, "--prefix", prefix])
    expect(proc.returncode == 0, f"cmake --install failed: {proc.stderr.strip()[:300]}")


@check
def install_puts_binary_man_page_completion_and_docs():
    with tempfile.TemporaryDirectory() as prefix:
        install(prefix)
        for path in ("bin/irlint", "share/man/man1/irlint.1", "share/bash-completion/completions/irlint",
                     "share/doc/irlint/README.md", "share/doc/irlint/docs/cli.md", "share/doc/irlint/docs/rules.md"):
            expect(os.path.isfile(os.path.join(prefix, path)), f"{path} is not installed")
        installed = run([os.path.join(prefix, "bin/irlint"), "--version"])
        expect(installed.returncode == 0 and installed.stdout == irlint("--version").stdout,
               "the installed irlint --version differs from the built one")


@check
def man_page_renders_without_warnings_and_lists_every_flag():
    page = os.path.join(ARGS.build_dir, "irlint.1")
    expect(os.path.isfile(page), f"{page} was not generated: build the project first")
    if shutil.which("groff"):
        proc = run(["groff", "-man", "-ww", "-z", page])
        expect(proc.returncode == 0 and not proc.stderr.strip(), f"groff -man -ww warns: {proc.stderr.strip()[:300]}")
        text = run(["groff", "-man", "-Tutf8", "-P-c", page]).stdout
        text = re.sub(r".\x08", "", text).replace("\u2010", "-").replace("\u2212", "-")
        for sub in SUBCOMMANDS:
            expect(f"IRLINT {sub.upper()}" in text, f"the man page has no section for {sub}")
            for flag in help_flags(sub):
                expect(flag in text, f"the man page does not mention {sub} {flag}")


def complete(words, cwd=None):
    """COMPREPLY of the installed-style completion for the command line `words` (the last word is completed)."""
    script = os.path.join(ARGS.build_dir, "irlint.bash-completion")
    line = " ".join(shlex.quote(w) for w in words)
    program = (f"source {shlex.quote(script)}\n"
               "complete -p irlint >/dev/null || exit 3\n"
               f"COMP_WORDS=({line}); COMP_CWORD={len(words) - 1}\n"
               "_irlint\n"
               "printf '%s\\n' \"${COMPREPLY[@]}\"\n")
    proc = run(["bash", "--norc", "--noprofile", "-c", program], cwd=cwd or ARGS.source_dir)
    expect(proc.returncode == 0, f"completion of {words} failed (exit {proc.returncode}): {proc.stderr.strip()}")
    return set(proc.stdout.split())


@check
def completion_offers_every_subcommand_and_flag():
    expect(complete(["irlint", ""]) >= set(SUBCOMMANDS), f"irlint <TAB> gives {complete(['irlint', ''])}")
    expect(complete(["irlint", "me"]) == {"merge"}, "irlint me<TAB> does not give merge")
    expect(complete(["irlint", "-"]) >= {"--help", "--version"}, "irlint -<TAB> misses --help or --version")
    for sub in SUBCOMMANDS:
        offered = complete(["irlint", sub, "-"])
        missing = help_flags(sub) - offered
        expect(not missing, f"irlint {sub} -<TAB> misses {sorted(missing)}")
    expect(complete(["irlint", "check", "models/", "--format", ""]) == {"text", "json", "sarif", "junit", "html"},
           "irlint check --format <TAB> does not give the five formats")
    expect(complete(["irlint", "check", "--fail-on", "w"]) == {"warning"}, "irlint check --fail-on w<TAB>")
    expect(complete(["irlint", "infer", "--format", ""]) == {"text", "json"}, "irlint infer --format <TAB>")
    expect("testdata/valid" in complete(["irlint", "check", "testdata/va"]), "irlint check testdata/va<TAB>")
    expect(complete(["irlint", "check", "-j", ""]) == set(), "irlint check -j <TAB> offers files for a number")


# ---------------------------------------------------------------- CI definitions

def load_yaml(name):
    path = source(name)
    expect(os.path.isfile(path), f"{name} is missing")
    try:
        with open(path) as f:
            return yaml.safe_load(f)
    except yaml.YAMLError as e:
        raise Failure(f"{name} does not parse: {e}")


def hook():
    hooks = load_yaml(".pre-commit-hooks.yaml")
    expect(isinstance(hooks, list), ".pre-commit-hooks.yaml is not a list of hooks")
    found = [h for h in hooks if h.get("id") == "irlint"]
    expect(len(found) == 1, "no hook with id irlint")
    return found[0]


def files_below(directory):
    root = source(directory)
    return sorted(os.path.relpath(os.path.join(d, name), ARGS.source_dir)
                  for d, _, names in os.walk(root) for name in names)


@check
def pre_commit_hook_selects_models_and_runs_its_entry():
    h = hook()
    for key in ("name", "entry", "language", "files"):
        expect(key in h, f"the irlint hook has no {key}")
    expect(h["files"] == r"\.(xml|onnx)$", f"the hook's files is {h['files']!r}")
    pattern = re.compile(h["files"])
    expect(pattern.search("models/a.xml") and pattern.search("b.onnx") and not pattern.search("a.bin")
           and not pattern.search("a.xml.bak"), "the hook's files pattern selects the wrong files")
    entry = shlex.split(h["entry"])
    expect(entry[0] == "irlint" and entry[1] == "check", f"the hook's entry {h['entry']!r} is not `irlint check ...`")
    command = [ARGS.irlint, *entry[1:]]
    # pre-commit passes the staged files that match `files`, as paths relative to the repository root.
    clean = [p for p in files_below("testdata/valid") if pattern.search(p)]
    expect(clean and all(p.endswith(".xml") for p in clean), "no .xml in testdata/valid")
    proc = run(command + clean, cwd=ARGS.source_dir)
    expect(proc.returncode == 0, f"the hook fails on testdata/valid: exit {proc.returncode} {proc.stderr[:200]}")
    broken = [p for p in files_below("testdata/spec") if pattern.search(p)]
    proc = run(command + broken, cwd=ARGS.source_dir)
    expect(proc.returncode == 1 and "[output-shape-mismatch]" in proc.stdout,
           f"the hook passes testdata/spec's known findings: exit {proc.returncode}")
    expect("irlint summary" not in proc.stdout, "the hook prints the summary table in a pre-commit log")


def action():
    data = load_yaml("action.yml")
    expect(data.get("runs", {}).get("using") == "composite", "action.yml is not a composite action")
    for name in ("paths", "config", "fail-on"):
        expect(name in data.get("inputs", {}), f"action.yml has no input {name}")
    return data


def step(data, name):
    found = [s for s in data["runs"]["steps"] if s.get("name") == name]
    expect(len(found) == 1, f"action.yml has no step named {name!r}")
    return found[0]


def run_step(data, name, inputs, outputs, tmp):
    """Runs a `run:` step as the runner would: its env with ${{ }} expressions resolved, bash -e, GITHUB_OUTPUT."""
    s = step(data, name)
    defaults = {k: str(v.get("default", "")) for k, v in data["inputs"].items()}
    values = {**{f"inputs.{k}": v for k, v in {**defaults, **inputs}.items()}, **outputs,
              "github.action_path": ARGS.source_dir, "runner.temp": tmp}

    def resolve(text):
        def one(match):
            key = match.group(1).strip()
            expect(key in values, f"step {name!r} uses ${{{{ {key} }}}}, which the test does not know")
            return values[key]
        return re.sub(r"\$\{\{([^}]*)\}\}", one, str(text))

    output_file = os.path.join(tmp, f"output-{len(os.listdir(tmp))}")
    open(output_file, "w").close()
    env = {**os.environ, "GITHUB_OUTPUT": output_file, **{k: resolve(v) for k, v in s.get("env", {}).items()}}
    expect("${{" not in s["run"], f"step {name!r} puts an expression into its script; use env")
    proc = run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", s["run"]], cwd=ARGS.source_dir, env=env)
    with open(output_file) as f:
        produced = dict(line.split("=", 1) for line in f.read().splitlines() if "=" in line)
    return proc, produced


@check
def action_runs_check_with_sarif_uploads_and_fails_on_findings():
    data = action()
    with tempfile.TemporaryDirectory() as tmp:
        proc, built = run_step(data, "Build irlint", {"irlint": ARGS.irlint}, {}, tmp)
        expect(proc.returncode == 0 and built.get("irlint") == ARGS.irlint,
               f"the build step with a given irlint: exit {proc.returncode}, outputs {built}")
        binary = {"steps.build.outputs.irlint": ARGS.irlint}
        sarif = os.path.join(tmp, "irlint.sarif")

        proc, out = run_step(data, "Check", {"paths": "testdata/spec testdata/valid", "sarif-file": sarif}, binary, tmp)
        expect(proc.returncode == 0 and out.get("exit-code") == "1",
               f"Check on testdata/spec: step exit {proc.returncode}, exit-code {out.get('exit-code')} "
               f"(expected 0 and 1: the report must still be uploaded) {proc.stderr[-300:]}")
        with open(sarif) as f:
            report = json.load(f)
        results = report["runs"][0]["results"]
        expect(report["version"] == "2.1.0" and any(r["ruleId"] == "output-shape-mismatch" for r in results),
               "the action's SARIF report lacks testdata/spec's findings")
        expect(all(not r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].startswith("/")
                   for r in results), "SARIF locations are not relative to the repository root")
        fail_step = {"steps.check.outputs.exit-code": "1"}
        proc, _ = run_step(data, "Fail on findings", {}, fail_step, tmp)
        expect(proc.returncode == 1, f"the action does not fail on findings (exit {proc.returncode})")

        proc, out = run_step(data, "Check", {"paths": "testdata/spec", "fail-on": "never", "sarif-file": sarif},
                             binary, tmp)
        expect(proc.returncode == 0 and out.get("exit-code") == "0", "fail-on never still fails")
        proc, out = run_step(data, "Check", {"paths": "testdata/valid", "sarif-file": sarif}, binary, tmp)
        expect(proc.returncode == 0 and out.get("exit-code") == "0", f"testdata/valid is not clean: {out}")
        proc, _ = run_step(data, "Fail on findings", {}, {"steps.check.outputs.exit-code": "0"}, tmp)
        expect(proc.returncode == 0, "the action fails a clean run")
        proc, out = run_step(data, "Check", {"paths": "no-such-dir", "sarif-file": sarif}, binary, tmp)
        expect(proc.returncode == 2, f"a missing path does not fail the Check step with 2 (exit {proc.returncode})")

    upload = step(data, "Upload the findings to code scanning")
    expect(upload.get("uses", "").startswith("github/codeql-action/upload-sarif@"),
           "the upload step does not use github/codeql-action/upload-sarif")
    expect(upload.get("with", {}).get("sarif_file") == "${{ inputs.sarif-file }}", "the upload step's sarif_file")


@check
def action_installs_the_packages_setup_installs():
    data = action()
    script = step(data, "Install the Debian build dependencies")["run"]
    wanted = set(re.findall(r"packages(?:\+)?=\(([^)]*)\)", script)[0].split())
    with open(source("scripts", "setup.sh")) as f:
        setup = set(" ".join(re.findall(r"packages(?:\+)?=\(([^)]*)\)", f.read(), re.DOTALL)).split())
    expect(wanted and wanted <= setup, f"action.yml installs {sorted(wanted - setup)}, which setup.sh does not")


@check
def docs_ci_examples_parse_and_use_the_definitions():
    with open(source("docs", "ci.md")) as f:
        text = f.read()
    blocks = re.findall(r"```yaml\n(.*?)```", text, re.DOTALL)
    expect(len(blocks) >= 3, f"docs/ci.md has {len(blocks)} YAML examples, expected GitHub, GitLab and pre-commit")
    for i, block in enumerate(blocks):
        try:
            yaml.safe_load(block)
        except yaml.YAMLError as e:
            raise Failure(f"docs/ci.md's YAML example {i + 1} does not parse: {e}")
    for needle in ("uses: irlint/irlint@", "id: irlint", "--format junit", "reports:", "junit", "pipeline {"):
        expect(needle in text, f"docs/ci.md has no {needle!r}")


def main():
    global ARGS
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--irlint", required=True)
    ap.add_argument("--build-dir", required=True)
    ap.add_argument("--source-dir", required=True)
    ap.add_argument("--cmake", default="cmake")
    ARGS = ap.parse_args()
    ARGS.irlint = os.path.abspath(ARGS.irlint)
    ARGS.build_dir = os.path.abspath(ARGS.build_dir)
    ARGS.source_dir = os.path.abspath(ARGS.source_dir)

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

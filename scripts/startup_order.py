#!/usr/bin/python3
"""Writes cmake/startup-order.txt: the functions irlint runs in its usual commands, for the linker to place
side by side at the start of .text.

    scripts/startup_order.py BUILD_DIR [RUN_DATA_DIR]

A page of code costs a page fault the first time a process runs it (about 2.5 us here, for the 64 KB the
kernel maps around it); irlint's 15 MB of code, most of it kernels for types and instruction sets a run
does not use, spread the few hundred functions of one command over 60 such faults. Each command below runs
once under valgrind's callgrind (apt-get install valgrind); every function it enters is listed, those
used by more commands first, so that start-up and command-line parsing come before the code of one
command, and functions of 32 KB or more (the kernels) last. RUN_DATA_DIR holds the models and .npy files that
bench/run_vs_torch.sh writes (default BUILD_DIR/run-vs-torch); without it, `run` is not profiled.
Functions missing from a build (another compiler, another version) only lose their place. Among functions
that equally many commands use, the order follows callgrind's record, which `check`'s threads make vary
from run to run: two runs list the same functions.
"""
import collections
import glob
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FUNCTION = re.compile(r"^c?fn=\(\d+\) (.+)$")
# What every process runs before main, which callgrind names "(below main)" or not at all.
ENTRY = ["_start", "__libc_start_main", "__libc_start_main_impl", "__libc_start_call_main"]
# A kernel with its variants inlined is one function of up to 300 KB, of which a run executes a few pieces:
# placed after the others, it does not push the small functions apart.
HUGE = 32 << 10
# The C library picks a string function's variant for the CPU at start (memcpy for AVX2, for AVX-512, ...);
# valgrind's virtual CPU gets another than the machines irlint runs on, so every variant is listed.
STRING_VARIANT = re.compile(r"^(__\w+?)_(sse2|ssse3|sse4_1|sse4_2|avx|avx2|evex|avx512)")


def commands(irlint, run_data):
    valid, spec = os.path.join(ROOT, "testdata", "valid"), os.path.join(ROOT, "testdata", "spec")
    yield [irlint, "--version"]
    yield [irlint, "--help"]
    for fmt in ("text", "json", "sarif", "junit"):
        yield [irlint, "check", spec, valid, "--format", fmt]
    yield [irlint, "infer", os.path.join(valid, "adaptive_maxpool8.xml")]
    yield [irlint, "shape", "--op", "MaxPool", "--opset", "14", "--input", "1,64,112,112", "--attr", "kernel=3,3",
           "--attr", "strides=2,2"]
    yield [irlint, "rules"]
    for model in sorted(glob.glob(os.path.join(run_data, "*.xml"))):
        stem = model[:-len(".xml")]
        expects = sorted(glob.glob(stem + ".out*.npy"))
        if not os.path.exists(stem + ".in.npy") or not expects:
            continue
        yield ([irlint, "run", model, "--layer", "1", "--input", stem + ".in.npy", "--threads", "1"] +
               sum((["--expect", e] for e in expects), []))


def functions_of(command, scratch):
    out = os.path.join(scratch, "callgrind.out")
    subprocess.run(["valgrind", "--tool=callgrind", "--demangle=no", f"--callgrind-out-file={out}"] + command,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    names = []
    with open(out) as f:
        for line in f:
            m = FUNCTION.match(line.rstrip("\n"))
            if m:
                name = re.sub(r"'\d+$", "", m.group(1))  # callgrind's mark of a recursive call
                if not name.startswith(("0x", "(below main)")):
                    names.append(name)
    return names


class Symbols:
    """The binary's function sizes, its string function variants by family, and its indirect functions
    (the selectors of those variants), from one listing."""

    def __init__(self, binary):
        self.sizes, self.variants, self.selectors = {}, collections.defaultdict(list), set()
        listing = subprocess.run(["nm", "-S", binary], capture_output=True, text=True, check=True).stdout
        for line in listing.splitlines():
            fields = line.split()
            if len(fields) not in (3, 4):
                continue
            kind, name = fields[-2], fields[-1]
            if len(fields) == 4:
                self.sizes[name] = max(self.sizes.get(name, 0), int(fields[1], 16))
            m = STRING_VARIANT.match(name)
            if m:
                self.variants[m.group(1)].append(name)
            if kind == "i":
                self.selectors.add(name)


def with_string_variants(names, symbols):
    """names, each C library string function (a variant, or the selector valgrind names instead) followed by
    its variants for every instruction set."""
    variants, selectors = symbols.variants, symbols.selectors
    result = []
    for name in names:
        m = STRING_VARIANT.match(name)
        family = m.group(1) if m else "__" + name if name in selectors else None
        result += [name] + sorted(variants[family]) if family else [name]
    return list(dict.fromkeys(result))


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    build = sys.argv[1]
    irlint = os.path.join(build, "irlint")
    run_data = sys.argv[2] if len(sys.argv) == 3 else os.path.join(build, "run-vs-torch")
    used_by = collections.Counter()
    first_seen = {}
    with tempfile.TemporaryDirectory() as scratch:
        for command in commands(irlint, run_data):
            for name in dict.fromkeys(functions_of(command, scratch)):
                used_by[name] += 1
                first_seen.setdefault(name, len(first_seen))
    if not used_by:
        sys.exit("startup_order: no function was profiled (is valgrind installed?)")
    symbols = Symbols(irlint)
    ordered = sorted(used_by, key=lambda n: (symbols.sizes.get(n, 0) >= HUGE, -used_by[n], first_seen[n]))
    ordered = with_string_variants(ENTRY + ordered, symbols)
    path = os.path.join(ROOT, "cmake", "startup-order.txt")
    with open(path + ".tmp", "w") as f:
        f.write("".join(n + "\n" for n in ordered))
    os.replace(path + ".tmp", path)
    print(f"{path}: {len(ordered)} functions")


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""The build itself: how CMake links irlint when a sanitizer comes through the usual flags, and whether
cmake/startup-order.txt still names the functions of the binary it orders.

    build_test.py --cmake CMAKE --source-dir DIR --work DIR [--irlint BIN --startup-order FILE]
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

# Functions of the order file that the binary no longer has lose their place; past this share the list has
# rotted (functions renamed or moved) and scripts/startup_order.py writes it anew.
MAX_MISSING_SHARE = 0.10

failures = []


def expect(condition, what):
    print(("ok   " if condition else "FAIL ") + what)
    if not condition:
        failures.append(what)


def configure(cmake, source_dir, build_dir, *options):
    shutil.rmtree(build_dir, ignore_errors=True)
    return subprocess.run([cmake, "-S", source_dir, "-B", build_dir, "-DBUILD_TESTING=OFF", *options],
                          capture_output=True, text=True, check=False)


def cached(build_dir, name):
    with open(os.path.join(build_dir, "CMakeCache.txt"), encoding="utf-8") as f:
        for line in f:
            if line.startswith(name + ":"):
                return line.split("=", 1)[1].strip()
    return None


def check_sanitizer_flags(cmake, source_dir, work):
    build = os.path.join(work, "sanitizer-flags")
    for variable in ("CMAKE_CXX_FLAGS", "CMAKE_EXE_LINKER_FLAGS"):
        result = configure(cmake, source_dir, build, f"-D{variable}=-fsanitize=address")
        expect(result.returncode == 0, f"-fsanitize= in {variable}: configures")
        if result.returncode == 0:
            expect(cached(build, "IRLINT_STATIC_RUNTIME") == "OFF",
                   f"-fsanitize= in {variable}: linked dynamically (IRLINT_STATIC_RUNTIME OFF)")
    result = configure(cmake, source_dir, build, "-DCMAKE_CXX_FLAGS=-fsanitize=undefined", "-DIRLINT_STATIC_RUNTIME=ON")
    expect(result.returncode != 0 and "cannot be combined with a sanitizer" in result.stderr,
           "IRLINT_STATIC_RUNTIME=ON with -fsanitize=: configure stops and says why")
    shutil.rmtree(build, ignore_errors=True)


def defined_symbols(binary):
    out = subprocess.run(["nm", "--defined-only", binary], capture_output=True, text=True, check=True).stdout
    return {fields[2] for fields in (line.split() for line in out.splitlines()) if len(fields) >= 3}


def check_startup_order(irlint, order_file):
    with open(order_file, encoding="utf-8") as f:
        listed = [line.strip() for line in f if line.strip()]
    present = defined_symbols(irlint)
    # The C library's string function variants differ between its versions; only irlint's own are judged.
    own = [name for name in listed if not re.match(r"^_{1,2}[a-z]", name)]
    missing = [name for name in own if name not in present]
    share = len(missing) / len(own) if own else 1.0
    expect(len(own) > 500, f"the order file lists irlint's functions ({len(own)})")
    expect(share <= MAX_MISSING_SHARE,
           f"{len(missing)} of {len(own)} ordered functions are missing from the binary ({share:.1%}, at most "
           f"{MAX_MISSING_SHARE:.0%}); regenerate the list: scripts/startup_order.py BUILD_DIR")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cmake", required=True)
    parser.add_argument("--source-dir", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--irlint")
    parser.add_argument("--startup-order")
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    check_sanitizer_flags(args.cmake, args.source_dir, args.work)
    if args.startup_order:
        check_startup_order(args.irlint, args.startup_order)
    if failures:
        print(f"{len(failures)} failed", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

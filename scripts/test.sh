#!/usr/bin/env bash
# Sets up, builds and runs every test (unit and end-to-end) through CTest.
#   scripts/test.sh                     Release build in build/
#   IRLINT_SANITIZE=ON IRLINT_BUILD_DIR=build-asan scripts/test.sh
#   scripts/test.sh -DOPTION=VALUE ...  more CMake options for the configure step
set -euo pipefail
cd "$(dirname "$0")/.."

build_dir="${IRLINT_BUILD_DIR:-build}"
IRLINT_BUILD_DIR="$build_dir" bash scripts/setup.sh
build_type="${IRLINT_BUILD_TYPE:-Release}"
started=$SECONDS
cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE="$build_type" -DIRLINT_SANITIZE="${IRLINT_SANITIZE:-OFF}" "$@" >/dev/null
cmake --build "$build_dir" -j "$(nproc)"
built=$SECONDS
ctest --test-dir "$build_dir" --output-on-failure -j "$(nproc)"
echo "test.sh: $build_dir: configured and built in $((built - started)) s, tested in $((SECONDS - built)) s"

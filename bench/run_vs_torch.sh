#!/usr/bin/env bash
# `irlint run` as a whole process against PyTorch warm in-process, on the kernel cases, one thread (or
# THREADS). Builds irlint in build/ and runs bench/run_vs_torch.py; see that file for what is timed.
#
#   bench/run_vs_torch.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

RUNS=${RUNS:-11}
THREADS=${THREADS:-1}
BUILD_DIR=${BUILD_DIR:-build}
DATA_DIR=${DATA_DIR:-$BUILD_DIR/run-vs-torch}

bash scripts/setup.sh
cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$BUILD_DIR" -j2 --target irlint >/dev/null
/usr/bin/python3 bench/run_vs_torch.py "$BUILD_DIR/irlint" "$DATA_DIR" --runs "$RUNS" --threads "$THREADS"

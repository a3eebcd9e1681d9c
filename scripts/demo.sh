#!/usr/bin/env bash
# Sets up, builds and runs `irlint check` on the bundled sample models. Two of the specification's own
# AvgPool examples are wrong, so findings are expected: the demo succeeds when irlint ran (exit 0 or 1).
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$(nproc)" >/dev/null
status=0
./build/irlint check testdata/spec testdata/valid "$@" || status=$?
if [ "$status" -gt 1 ]; then
  exit "$status"
fi

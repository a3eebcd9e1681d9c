#!/usr/bin/env bash
# A clean Release build of irlint and its tests, timed: the wall time, the compiler time summed over every
# file, and the slowest files (the limits: the whole build within 3 minutes on 2 cores, no file above 60 s).
#   bench/build_time.sh [DIR]          (default: a fresh directory under the system's temporary directory)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/setup.sh >/dev/null
command -v ninja >/dev/null || { echo "build_time: needs ninja (apt-get install ninja-build) for per-file times" >&2; exit 2; }
dir="${1:-$(mktemp -d)}"
rm -rf "$dir"
start=$(date +%s.%N)
cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
configured=$(date +%s.%N)
cmake --build "$dir" -j "$(nproc)" >/dev/null
built=$(date +%s.%N)
/usr/bin/python3 - "$dir/.ninja_log" "$start" "$configured" "$built" <<'PY'
import sys
log, start, configured, built = sys.argv[1], *map(float, sys.argv[2:])
last = {}
for line in open(log):
    if line.startswith("#"):
        continue
    begin, end, _, output, _ = line.rstrip("\n").split("\t")
    last[output] = (int(end) - int(begin)) / 1000
objects = {k: v for k, v in last.items() if k.endswith(".o")}
print(f"configure {configured - start:.1f} s, build {built - configured:.1f} s (wall, {len(objects)} files)")
print(f"compiler time summed over the files: {sum(objects.values()):.0f} s")
for output, seconds in sorted(objects.items(), key=lambda kv: -kv[1])[:8]:
    print(f"  {seconds:6.1f} s  {output}")
PY

#!/usr/bin/env bash
# How `irlint check` grows with the size of one IR: generated files of about 1, 10, 50, 100 and 200 MB
# (bench/gen_ir.py), each timed as a whole process against the pugixml parse-only program, with the peak
# RSS of both. Time and memory per MB should stay flat from the smallest file to the largest.
#
#   bench/check_scale.sh            from anywhere; it changes to the repository root
#
# Environment: SIZES (MB, default "1 10 50 100 200"), RUNS (per size and program, default 5),
#              BUILD_DIR (default build), BENCH_BUILD_DIR (default build-bench).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

SIZES=${SIZES:-1 10 50 100 200}
RUNS=${RUNS:-5}
BUILD_DIR=${BUILD_DIR:-build}
BENCH_BUILD_DIR=${BENCH_BUILD_DIR:-build-bench}
PYTHON=/usr/bin/python3
[ -x "$PYTHON" ] || PYTHON=python3

bash scripts/setup.sh
echo "== building irlint and the parse-only program" >&2
cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$BUILD_DIR" -j2 --target irlint >/dev/null
cmake -S bench -B "$BENCH_BUILD_DIR" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$BENCH_BUILD_DIR" -j2 >/dev/null
IRLINT=$BUILD_DIR/irlint
PARSE=$BENCH_BUILD_DIR/parse_only

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# gen_ir.py writes about 1,700 layers per MB.
LAYERS_PER_MB=1700

now_ns() { date +%s%N; }
# The median wall time in ms of RUNS runs of "$@".
median_ms() {
  local i t0 t1 times=()
  for ((i = 0; i < RUNS; i++)); do
    t0=$(now_ns)
    "$@" >/dev/null
    t1=$(now_ns)
    times+=($(((t1 - t0) / 1000)))
  done
  printf '%s\n' "${times[@]}" | sort -n | awk '{ v[NR] = $1 } END { printf "%.1f", v[int((NR + 1) / 2)] / 1000 }'
}
peak_mb() { /usr/bin/time -f '%M' "$@" 2>&1 >/dev/null | tail -n 1 | awk '{ printf "%.1f", $1 / 1024 }'; }

printf '%8s %8s %10s %10s %7s %10s %10s %12s %12s\n' "MB" "layers" "irlint ms" "parse ms" "ratio" \
  "irlint RSS" "parse RSS" "irlint ms/MB" "irlint RSS/MB"
for size in $SIZES; do
  model=$tmp/scale_$size.xml
  "$PYTHON" bench/gen_ir.py --layers $((size * LAYERS_PER_MB)) --seed 1 --out "$model"
  "$IRLINT" check "$model" -q >/dev/null || { echo "check_scale: errors on the generated IR" >&2; exit 1; }
  bytes=$(wc -c <"$model")
  irlint_ms=$(median_ms "$IRLINT" check "$model" -q)
  parse_ms=$(median_ms "$PARSE" "$model")
  irlint_rss=$(peak_mb "$IRLINT" check "$model" -q)
  parse_rss=$(peak_mb "$PARSE" "$model")
  awk -v b="$bytes" -v l=$((size * LAYERS_PER_MB)) -v it="$irlint_ms" -v pt="$parse_ms" -v ir="$irlint_rss" \
    -v pr="$parse_rss" 'BEGIN {
      mb = b / 1e6
      printf "%8.1f %8d %10.1f %10.1f %6.2fx %10.1f %10.1f %12.2f %12.2f\n", mb, l, it, pt, it / pt, ir, pr, it / mb, ir / mb
    }'
  rm -f "$model"
done
echo "(times: medians of $RUNS whole-process runs; RSS: peak, MB)"

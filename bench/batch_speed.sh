#!/usr/bin/env bash
# Throughput and memory of `irlint check` over a directory of generated IRs of real-model sizes:
# files per second with -j1 and with -j2, measured in the same run (alternating), their ratio, and the
# peak RSS for about a quarter of the files and for all of them (it should not grow with the file count).
#
#   bench/batch_speed.sh            from anywhere; it changes to the repository root
#
# Environment: COUNT (files, default 1000), RUNS (timed runs per -j, default 5), SEED (default 1),
#              BUILD_DIR (default build).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

COUNT=${COUNT:-1000}
RUNS=${RUNS:-5}
SEED=${SEED:-1}
BUILD_DIR=${BUILD_DIR:-build}
PYTHON=/usr/bin/python3
[ -x "$PYTHON" ] || PYTHON=python3

bash scripts/setup.sh
echo "== building irlint (Release) in $BUILD_DIR" >&2
cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$BUILD_DIR" -j2 --target irlint >/dev/null
IRLINT=$BUILD_DIR/irlint

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
corpus=$tmp/corpus
echo "== generating $COUNT IR files (seed $SEED)" >&2
"$PYTHON" bench/gen_corpus.py --count "$COUNT" --seed "$SEED" --out "$corpus" 2>"$tmp/sizes.txt"

# Also fills the page cache, so that every timed run reads the files from memory. The models are clean.
if ! "$IRLINT" check "$corpus" -q >"$tmp/findings.txt"; then
  echo "batch_speed: irlint reports errors on the generated corpus:" >&2
  grep -m 20 ': error:' "$tmp/findings.txt" >&2 || true
  exit 1
fi

measure() { "$PYTHON" bench/measure.py "$IRLINT" check "$@" -q; }
wall() { echo "$1" | cut -d' ' -f1; }
cpu() { echo "$1" | cut -d' ' -f2; }
rss_mb() { awk -v kb="$(echo "$1" | cut -d' ' -f3)" 'BEGIN { printf "%.1f", kb / 1024 }'; }
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
minimum() { printf '%s\n' "$@" | sort -g | head -1; }
rate() { awk -v n="$COUNT" -v s="$1" 'BEGIN { printf "%.1f", n / s }'; }

j1=() j2=() j1_cpu=() j2_cpu=()
echo "== timing: $RUNS runs each of -j1 and -j2, alternating" >&2
for ((i = 0; i < RUNS; i++)); do
  m=$(measure "$corpus" -j1)
  j1+=("$(wall "$m")") j1_cpu+=("$(cpu "$m")")
  m=$(measure "$corpus" -j2)
  j2+=("$(wall "$m")") j2_cpu+=("$(cpu "$m")")
done
j1_med=$(median "${j1[@]}")
j2_med=$(median "${j2[@]}")
j1_best=$(minimum "${j1[@]}")
j2_best=$(minimum "${j2[@]}")

echo "== peak RSS" >&2
quarter_files=$("$IRLINT" check "$corpus" --shard 1/4 --format json --fail-on never |
  "$PYTHON" -c 'import json, sys; print(json.load(sys.stdin)["summary"]["files"])')
rss_quarter_j1=$(measure "$corpus" --shard 1/4 -j1)
rss_all_j1=$(measure "$corpus" -j1)
rss_quarter_j2=$(measure "$corpus" --shard 1/4 -j2)
rss_all_j2=$(measure "$corpus" -j2)

printf '\n'
printf '%-34s %s\n' "corpus" "$(cat "$tmp/sizes.txt")"
printf '%-34s %s\n' "cores" "$(nproc)"
printf '%-34s %s files/s (%s s)\n' "-j1, median of $RUNS" "$(rate "$j1_med")" "$j1_med"
printf '%-34s %s files/s (%s s)\n' "-j2, median of $RUNS" "$(rate "$j2_med")" "$j2_med"
printf '%-34s %s\n' "ratio -j2 / -j1 (medians)" "$(awk -v a="$j1_med" -v b="$j2_med" 'BEGIN { printf "%.2f", a / b }')"
printf '%-34s %s\n' "ratio -j2 / -j1 (best runs)" "$(awk -v a="$j1_best" -v b="$j2_best" 'BEGIN { printf "%.2f", a / b }')"
printf '%-34s %s\n' "-j1 runs, wall (s)" "${j1[*]}"
printf '%-34s %s\n' "-j2 runs, wall (s)" "${j2[*]}"
# CPU seconds per run: equal for -j1 and -j2 when threads add no work; cores busy = CPU / wall.
printf '%-34s %s\n' "-j1 runs, CPU (s)" "${j1_cpu[*]}"
printf '%-34s %s\n' "-j2 runs, CPU (s)" "${j2_cpu[*]}"
printf '%-34s %s\n' "-j2 cores busy (median CPU / wall)" "$(awk -v c="$(median "${j2_cpu[@]}")" -v w="$j2_med" 'BEGIN { printf "%.2f", c / w }')"
printf '%-34s %s MB (-j1)  %s MB (-j2)\n' "peak RSS, $quarter_files files (shard 1/4)" "$(rss_mb "$rss_quarter_j1")" "$(rss_mb "$rss_quarter_j2")"
printf '%-34s %s MB (-j1)  %s MB (-j2)\n' "peak RSS, $COUNT files" "$(rss_mb "$rss_all_j1")" "$(rss_mb "$rss_all_j2")"
printf '%-34s %s\n' "load average at the end" "$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)"

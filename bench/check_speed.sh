#!/usr/bin/env bash
# Times `irlint check` on a generated ~20,000-layer IR against a pugixml parse of the same file, then (when
# the directory is there) `irlint check DIR` of a directory of real IRs against a pugixml parse of its files.
# The limits: 1.5x on the generated IR, 2x on the directory.
#
#   bench/check_speed.sh            from the repository root (or anywhere: it changes there itself)
#
# Environment: LAYERS (default 20000), RUNS (default 7), SEED (default 1),
#              BUILD_DIR (irlint build, default build), BENCH_BUILD_DIR (default build-bench),
#              REALIR_DIR (default ../shared/realir; skipped when missing).
# Both programs are timed as whole processes (wall clock, `date +%s%N`), alternating, RUNS times each;
# the table shows the medians, and the peak RSS of one more run of each (/usr/bin/time).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

LAYERS=${LAYERS:-20000}
RUNS=${RUNS:-7}
SEED=${SEED:-1}
BUILD_DIR=${BUILD_DIR:-build}
BENCH_BUILD_DIR=${BENCH_BUILD_DIR:-build-bench}
PYTHON=/usr/bin/python3
[ -x "$PYTHON" ] || PYTHON=python3

if [ -x scripts/setup.sh ]; then
  scripts/setup.sh
elif [ -f scripts/setup.sh ]; then
  bash scripts/setup.sh
fi

echo "== building irlint (Release) in $BUILD_DIR" >&2
cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$BUILD_DIR" -j2 --target irlint >/dev/null
echo "== building the parse-only program in $BENCH_BUILD_DIR" >&2
cmake -S bench -B "$BENCH_BUILD_DIR" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$BENCH_BUILD_DIR" -j2 >/dev/null

IRLINT=$BUILD_DIR/irlint
PARSE=$BENCH_BUILD_DIR/parse_only

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
model=$tmp/bench.xml

echo "== generating $LAYERS layers (seed $SEED)" >&2
"$PYTHON" bench/gen_ir.py --layers "$LAYERS" --seed "$SEED" --out "$model"

# The file must be clean: a benchmark of a file with errors would time the error path.
if ! "$IRLINT" check "$model" -q >"$tmp/findings.txt"; then
  echo "check_speed: irlint reports errors on the generated IR:" >&2
  grep -m 20 ': error:' "$tmp/findings.txt" >&2 || cat "$tmp/findings.txt" >&2
  exit 1
fi
parse_out=$("$PARSE" "$model")
layers=${parse_out#layers=}
layers=${layers%% *}
bytes=$(wc -c <"$model")

source bench/timing.sh

irlint_us=()
parse_us=()
echo "== timing: $RUNS runs each, alternating" >&2
for ((i = 0; i < RUNS; i++)); do
  irlint_us+=("$(time_us "$IRLINT" check "$model" -q)")
  parse_us+=("$(time_us "$PARSE" "$model")")
done


irlint_med=$(median "${irlint_us[@]}")
parse_med=$(median "${parse_us[@]}")

printf '\n'
printf '%-28s %s\n' "file" "$(awk -v b="$bytes" 'BEGIN { printf "%.1f MB (%d bytes)", b / 1e6, b }')"
printf '%-28s %s\n' "layers" "$layers"
printf '%-28s %s\n' "runs (each, alternating)" "$RUNS"
printf '%-28s %s ms\n' "irlint check -q (median)" "$(ms "$irlint_med")"
printf '%-28s %s ms\n' "pugixml parse only (median)" "$(ms "$parse_med")"
printf '%-28s %s\n' "ratio irlint / parse" "$(awk -v a="$irlint_med" -v b="$parse_med" 'BEGIN { printf "%.2fx", a / b }')"
irlint_kb=$(peak_kb "$IRLINT" check "$model" -q)
parse_kb=$(peak_kb "$PARSE" "$model")
printf '%-28s %s\n' "irlint peak RSS" "$(mb "$irlint_kb")"
printf '%-28s %s\n' "parse-only peak RSS" "$(mb "$parse_kb")"
printf '%-28s %s\n' "irlint - parse-only RSS" "$(awk -v a="$irlint_kb" -v b="$parse_kb" -v f="$bytes" \
  'BEGIN { printf "%.1f MB (%.2f file sizes)", (a - b) / 1024, (a - b) * 1024 / f }')"
printf '%-28s %s\n' "irlint runs (ms)" "$(runs_ms "${irlint_us[@]}")"
printf '%-28s %s\n' "parse-only runs (ms)" "$(runs_ms "${parse_us[@]}")"

REALIR_DIR=${REALIR_DIR:-../shared/realir}
if [ ! -d "$REALIR_DIR" ]; then
  echo "== $REALIR_DIR is not there: the directory timing is skipped" >&2
  exit 0
fi
xmls=("$REALIR_DIR"/*.xml)
dir_out=$("$PARSE" "${xmls[@]}" 2>/dev/null || true)
dir_layers=${dir_out#layers=}
dir_layers=${dir_layers%% *}
dir_j1=()
dir_jn=()
dir_parse=()
echo "== timing $REALIR_DIR (${#xmls[@]} files): $RUNS runs each, alternating" >&2
for ((i = 0; i < RUNS; i++)); do
  dir_j1+=("$(time_findings_us "$IRLINT" check "$REALIR_DIR" -q -j 1)")
  dir_jn+=("$(time_findings_us "$IRLINT" check "$REALIR_DIR" -q)")
  dir_parse+=("$(time_findings_us "$PARSE" "${xmls[@]}")")
done
j1_med=$(median "${dir_j1[@]}")
jn_med=$(median "${dir_jn[@]}")
dp_med=$(median "${dir_parse[@]}")
printf '\n'
printf '%-28s %s\n' "directory" "$REALIR_DIR (${#xmls[@]} files, $dir_layers layers)"
printf '%-28s %s ms\n' "irlint check -j 1 (median)" "$(ms "$j1_med")"
printf '%-28s %s ms\n' "irlint check (median)" "$(ms "$jn_med")"
printf '%-28s %s ms\n' "pugixml parse only (median)" "$(ms "$dp_med")"
printf '%-28s %s\n' "ratio -j 1 / parse" "$(awk -v a="$j1_med" -v b="$dp_med" 'BEGIN { printf "%.2fx", a / b }')"
printf '%-28s %s\n' "ratio default -j / parse" "$(awk -v a="$jn_med" -v b="$dp_med" 'BEGIN { printf "%.2fx", a / b }')"

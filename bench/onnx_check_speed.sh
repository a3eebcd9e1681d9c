#!/usr/bin/env bash
# Times `irlint check` of ONNX models against protobuf's parse of the same files (ONNX's ModelProto, nothing
# else), as a user meets it: whole processes, alternating, medians.
#   1. a generated ~20,000-node CNN-export-like model (bench/gen_onnx.py): limit 1.5x;
#   2. a directory of ONNX models (the ONNX backend node tests of testdata/onnx-node-tests, built once into a
#      temporary directory): -j 1 and the default -j, against parsing the same files; and, for scale, the
#      IR directory ../shared/realir against pugixml (bench/check_speed.sh's ratio), when it is there.
#
#   bench/onnx_check_speed.sh            from anywhere
#
# Environment: NODES (default 20000), RUNS (default 7), SEED (default 1), BUILD_DIR (default build),
#              BENCH_BUILD_DIR (default build-bench).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
source bench/timing.sh

NODES=${NODES:-20000}
RUNS=${RUNS:-7}
SEED=${SEED:-1}
BUILD_DIR=${BUILD_DIR:-build}
BENCH_BUILD_DIR=${BENCH_BUILD_DIR:-build-bench}
PYTHON=/usr/bin/python3

bash scripts/setup.sh
echo "== building irlint (Release) in $BUILD_DIR" >&2
cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$BUILD_DIR" -j2 --target irlint irlint_onnx_helper >/dev/null
echo "== building the parse-only programs in $BENCH_BUILD_DIR" >&2
cmake -S bench -B "$BENCH_BUILD_DIR" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$BENCH_BUILD_DIR" -j2 >/dev/null

IRLINT=$BUILD_DIR/irlint
PARSE=$BENCH_BUILD_DIR/onnx_parse_only
[ -x "$PARSE" ] || { echo "onnx_check_speed: $PARSE was not built (libonnx-dev missing?)" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
model=$tmp/bench.onnx
echo "== generating $NODES nodes (seed $SEED)" >&2
"$PYTHON" bench/gen_onnx.py --nodes "$NODES" --seed "$SEED" --out "$model"

# The model must be clean and fully checked: a benchmark of a file with findings would time the error path.
summary=$("$IRLINT" check "$model" --format json)
if ! "$PYTHON" -c 'import json,sys; f=json.load(sys.stdin)["files"][0]; sys.exit(0 if f["checked"]==f["layers"] and not f["diagnostics"] else 1)' <<<"$summary"; then
  echo "onnx_check_speed: irlint does not check the generated model clean and whole:" >&2
  "$IRLINT" check "$model" | head -20 >&2
  exit 1
fi

irlint_us=()
parse_us=()
echo "== timing the generated model: $RUNS runs each, alternating" >&2
for ((i = 0; i < RUNS; i++)); do
  irlint_us+=("$(time_us "$IRLINT" check "$model" -q)")
  parse_us+=("$(time_us "$PARSE" "$model")")
done
irlint_med=$(median "${irlint_us[@]}")
parse_med=$(median "${parse_us[@]}")
bytes=$(wc -c <"$model")
printf '\n%-30s %s\n' "model" "$(awk -v b="$bytes" 'BEGIN { printf "%.1f MB", b / 1e6 }'), $NODES nodes"
printf '%-30s %s ms\n' "irlint check -q (median)" "$(ms "$irlint_med")"
printf '%-30s %s ms\n' "protobuf parse only (median)" "$(ms "$parse_med")"
printf '%-30s %s (limit 1.50x)\n' "ratio irlint / parse" "$(ratio "$irlint_med" "$parse_med")"
printf '%-30s %s / %s\n' "peak RSS irlint / parse" "$(mb "$(peak_kb "$IRLINT" check "$model" -q)")" \
  "$(mb "$(peak_kb "$PARSE" "$model")")"
printf '%-30s %s\n' "irlint runs (ms)" "$(runs_ms "${irlint_us[@]}")"
printf '%-30s %s\n' "parse-only runs (ms)" "$(runs_ms "${parse_us[@]}")"

echo "== building the ONNX backend node tests into a directory" >&2
"$PYTHON" tests/e2e/onnx_backend_test.py --cases testdata/onnx-node-tests/cases.jsonl.gz --write-models "$tmp/dir" >/dev/null
models=("$tmp"/dir/*.onnx)
dir_j1=()
dir_jn=()
dir_parse=()
echo "== timing the directory (${#models[@]} models): $RUNS runs each, alternating" >&2
for ((i = 0; i < RUNS; i++)); do
  dir_j1+=("$(time_findings_us "$IRLINT" check "$tmp/dir" -q -j 1)")
  dir_jn+=("$(time_findings_us "$IRLINT" check "$tmp/dir" -q)")
  dir_parse+=("$(time_findings_us "$PARSE" "${models[@]}")")
done
printf '\n%-30s %s\n' "directory" "${#models[@]} ONNX backend test models"
printf '%-30s %s ms\n' "irlint check -j 1 (median)" "$(ms "$(median "${dir_j1[@]}")")"
printf '%-30s %s ms\n' "irlint check (median)" "$(ms "$(median "${dir_jn[@]}")")"
printf '%-30s %s ms\n' "protobuf parse only (median)" "$(ms "$(median "${dir_parse[@]}")")"
printf '%-30s %s\n' "ratio -j 1 / parse" "$(ratio "$(median "${dir_j1[@]}")" "$(median "${dir_parse[@]}")")"
printf '%-30s %s\n' "ratio default -j / parse" "$(ratio "$(median "${dir_jn[@]}")" "$(median "${dir_parse[@]}")")"

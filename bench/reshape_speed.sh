#!/usr/bin/env bash
# Times `irlint infer --reshape` (the whole graph inferred again, its input shapes kept) against
# `irlint check` on the largest IR of a directory of real IRs, whole processes, alternating. The limit: 2x.
#
#   bench/reshape_speed.sh
#
# Environment: RUNS (default 9), BUILD_DIR (irlint build, default build), REALIR_DIR (default ../shared/realir).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

RUNS=${RUNS:-9}
BUILD_DIR=${BUILD_DIR:-build}
REALIR_DIR=${REALIR_DIR:-../shared/realir}
PYTHON=/usr/bin/python3
[ -x "$PYTHON" ] || PYTHON=python3

if [ ! -d "$REALIR_DIR" ]; then
  echo "reshape_speed: $REALIR_DIR is not there" >&2
  exit 1
fi
echo "== building irlint (Release) in $BUILD_DIR" >&2
cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$BUILD_DIR" -j2 --target irlint >/dev/null
IRLINT=$BUILD_DIR/irlint

# The largest IR whose Parameters have a shape attribute: reshaped to those shapes.
model=""
args=()
while read -r path; do
  mapfile -t args < <("$PYTHON" - "$path" <<'PY'
import re, sys
text = open(sys.argv[1], encoding="utf-8", errors="replace").read()
for name, shape in re.findall(r'<layer [^>]*name="([^"]+)"[^>]*type="Parameter"[^>]*>\s*<data [^>]*shape="([^"]*)"', text):
    print("--reshape")
    print(f"{name}={shape}")
PY
)
  if [ ${#args[@]} -gt 0 ]; then model=$path; break; fi
done < <(ls -S "$REALIR_DIR"/*.xml)
[ -n "$model" ] || { echo "reshape_speed: no IR with Parameter shapes in $REALIR_DIR" >&2; exit 1; }

now_ns() { date +%s%N; }
time_us() {
  local t0 t1 rc=0
  t0=$(now_ns)
  "$@" >/dev/null 2>&1 || rc=$?
  t1=$(now_ns)
  [ "$rc" -le 1 ] || { echo "reshape_speed: exit $rc from $*" >&2; exit 1; }
  echo $(((t1 - t0) / 1000))
}
median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
ms() { awk -v us="$1" 'BEGIN { printf "%.1f", us / 1000 }'; }

check_us=()
reshape_us=()
for ((i = 0; i < RUNS; i++)); do
  check_us+=("$(time_us "$IRLINT" check "$model" -q)")
  reshape_us+=("$(time_us "$IRLINT" infer "$model" "${args[@]}")")
done
c=$(median "${check_us[@]}")
r=$(median "${reshape_us[@]}")
printf '%-30s %s\n' "model" "$model ($(grep -c '<layer ' "$model") layers)"
printf '%-30s %s ms\n' "irlint check -q (median)" "$(ms "$c")"
printf '%-30s %s ms\n' "irlint infer --reshape (median)" "$(ms "$r")"
printf '%-30s %s\n' "ratio reshape / check" "$(awk -v a="$r" -v b="$c" 'BEGIN { printf "%.2fx", a / b }')"

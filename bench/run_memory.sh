#!/usr/bin/env bash
# Peak memory of `irlint run` on a 512 MiB input: an AvgPool k2 s2 over a 1x128x1024x1024 f32 tensor
# (output 128 MiB), run with --save and again with --expect. The target is a peak RSS under
# input + output (+ expected) + 10%: the input is memory-mapped, never copied.
#
#   bench/run_memory.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

BUILD_DIR=${BUILD_DIR:-build}
WORK=${WORK_DIR:-$BUILD_DIR/run-memory}
PYTHON=/usr/bin/python3

bash scripts/setup.sh
if ! [ -x /usr/bin/time ]; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get install -y -qq --no-install-recommends time >/dev/null
fi
cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$BUILD_DIR" -j2 --target irlint >/dev/null
mkdir -p "$WORK"

$PYTHON - "$WORK" <<'PY'
import sys
import numpy as np
work = sys.argv[1]
n, c, h, w = 1, 128, 1024, 1024
x = np.lib.format.open_memmap(f"{work}/input.npy", mode="w+", dtype=np.float32, shape=(n, c, h, w))
rng = np.random.default_rng(1)
for ch in range(c):
    x[0, ch] = rng.standard_normal((h, w), dtype=np.float32)
x.flush()
expected = np.lib.format.open_memmap(f"{work}/expected.npy", mode="w+", dtype=np.float32, shape=(n, c, h // 2, w // 2))
for ch in range(c):
    expected[0, ch] = x[0, ch].reshape(h // 2, 2, w // 2, 2).mean(axis=(1, 3))
expected.flush()
dims = lambda shape: "".join(f"<dim>{d}</dim>" for d in shape)
port = lambda pid, shape: f'<port id="{pid}" precision="FP32">{dims(shape)}</port>'
xml = f"""<?xml version="1.0"?>
<net name="run_memory" version="11"><layers>
<layer id="0" name="input" type="Parameter" version="opset1"><data shape="{n},{c},{h},{w}" element_type="f32"/>
<output>{port(0, [n, c, h, w])}</output></layer>
<layer id="1" name="pool" type="AvgPool" version="opset14"><data kernel="2,2" strides="2,2" pads_begin="0,0"
pads_end="0,0" exclude-pad="true" rounding_type="floor" auto_pad="explicit"/>
<input>{port(0, [n, c, h, w])}</input><output>{port(1, [n, c, h // 2, w // 2])}</output></layer>
<layer id="2" name="output" type="Result" version="opset1"><input>{port(0, [n, c, h // 2, w // 2])}</input></layer>
</layers><edges><edge from-layer="0" from-port="0" to-layer="1" to-port="0"/>
<edge from-layer="1" from-port="1" to-layer="2" to-port="0"/></edges></net>"""
open(f"{work}/model.xml", "w").write(xml)
PY

peak_kib() { /usr/bin/time -f "%M" "$@" 2>&1 >/dev/null | tail -1; }
input_kib=$(( $(stat -c %s "$WORK/input.npy") / 1024 ))
output_kib=$(( $(stat -c %s "$WORK/expected.npy") / 1024 ))
irlint="$BUILD_DIR/irlint"
save_kib=$(peak_kib "$irlint" run "$WORK/model.xml" --layer pool --input "$WORK/input.npy" --save "$WORK/saved.npy")
expect_kib=$(peak_kib "$irlint" run "$WORK/model.xml" --layer pool --input "$WORK/input.npy" --expect "$WORK/expected.npy")
"$irlint" run "$WORK/model.xml" --layer pool --input "$WORK/input.npy" --expect "$WORK/expected.npy" | tail -1

budget_save=$(( (input_kib + output_kib) * 11 / 10 ))
budget_expect=$(( (input_kib + 2 * output_kib) * 11 / 10 ))
printf '%-22s %10s %10s %12s\n' "run" "peak MiB" "budget MiB" "peak/(in+out)"
printf '%-22s %10d %10d %12s\n' "--save" $((save_kib / 1024)) $((budget_save / 1024)) \
  "$($PYTHON -c "print(f'{$save_kib / ($input_kib + $output_kib):.3f}')")"
printf '%-22s %10d %10d %12s\n' "--expect" $((expect_kib / 1024)) $((budget_expect / 1024)) \
  "$($PYTHON -c "print(f'{$expect_kib / ($input_kib + 2 * $output_kib):.3f}')")"
rm -f "$WORK"/*.npy
[ "$save_kib" -le "$budget_save" ] && [ "$expect_kib" -le "$budget_expect" ]

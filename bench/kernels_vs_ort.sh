#!/usr/bin/env bash
# irlint's pooling kernels against ONNX Runtime's (MLAS, onnxruntime-node 1.30) on identical inputs, in one run.
#
#   bench/kernels_vs_ort.sh
#
# The cases and inputs are kernel_cases.py's (the PyTorch bench's); each becomes a single-node ONNX model
# (ort_cases.py) that ONNX Runtime runs with 1 and 2 intra-op threads (ort_bench.js); irlint's kernels run
# in bench/kernel_bench with --threads 1 and 2. Medians of RUNS (default 7) runs; ratio = ONNX Runtime time /
# irlint time, so above 1 means irlint is faster.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

RUNS=${RUNS:-7}
BUILD_DIR=${BENCH_BUILD_DIR:-build-kernel-bench}
DATA_DIR=${DATA_DIR:-$BUILD_DIR/cases}
PYTHON=/usr/bin/python3

bash bench/build_kernel_bench.sh "$BUILD_DIR"
bash scripts/setup_ort.sh "$BUILD_DIR/ort"

$PYTHON bench/kernel_cases.py "$DATA_DIR" --runs 1 >/dev/null
$PYTHON bench/ort_cases.py "$DATA_DIR"
echo "== ONNX Runtime (onnxruntime-node 1.30)" >&2
node bench/ort_bench.js "$BUILD_DIR/ort" "$DATA_DIR" "$RUNS" > "$DATA_DIR/ort.tsv"
echo "== irlint kernels" >&2
"$BUILD_DIR/kernel_bench" "$DATA_DIR" --benchmark_repetitions="$RUNS" --benchmark_report_aggregates_only=true \
  --benchmark_format=json --benchmark_out="$DATA_DIR/irlint.json" --benchmark_out_format=json >/dev/null

$PYTHON - "$DATA_DIR" <<'PY'
import json, math, sys
data = sys.argv[1]
ort = {}
for line in open(f"{data}/ort.tsv"):
    name, t1, t2 = line.rstrip("\n").split("\t")
    ort[name] = [float(t1), float(t2)]
irlint = {}
for b in json.load(open(f"{data}/irlint.json"))["benchmarks"]:
    if b.get("aggregate_name") == "median":
        name, threads = b["run_name"].rsplit("/threads:", 1)
        irlint.setdefault(name, [None, None])[int(threads.split("/")[0]) - 1] = b["real_time"]
ratios = {1: [], 2: []}
print(f"{'case':34} {'ort 1t':>8} {'irlint 1t':>9} {'ratio':>7} {'ort 2t':>8} {'irlint 2t':>9} {'ratio':>7}")
for name, (o1, o2) in ort.items():
    i1, i2 = irlint[name]
    ratios[1].append(o1 / i1)
    ratios[2].append(o2 / i2)
    print(f"{name:34} {o1:8.3f} {i1:9.3f} {o1 / i1:6.2f}x {o2:8.3f} {i2:9.3f} {o2 / i2:6.2f}x")
geo = {t: math.exp(sum(map(math.log, r)) / len(r)) for t, r in ratios.items()}
print(f"geometric mean: {geo[1]:.2f}x (1 thread), {geo[2]:.2f}x (2 threads); lowest: "
      f"{min(ratios[1]):.2f}x, {min(ratios[2]):.2f}x")
print("times in ms, medians; ratio = ONNX Runtime / irlint")
PY

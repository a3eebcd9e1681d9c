#!/usr/bin/env bash
# irlint's pooling kernels against PyTorch's CPU pooling on identical inputs, in one run.
#
#   bench/kernels_vs_torch.sh [--big]      --big adds a 512 MiB input
#
# PyTorch (Debian's python3-torch) is timed with one and with two threads; irlint's kernels run in
# bench/kernel_bench (Google Benchmark) on the same .npy files, with --threads 1 and 2. Medians of RUNS
# (default 5) runs; ratio = PyTorch time / irlint time, so above 1 means irlint is faster.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

RUNS=${RUNS:-5}
BUILD_DIR=${BENCH_BUILD_DIR:-build-kernel-bench}
DATA_DIR=${DATA_DIR:-$BUILD_DIR/cases}
PYTHON=/usr/bin/python3

bash bench/build_kernel_bench.sh "$BUILD_DIR"

echo "== PyTorch $($PYTHON -c 'import torch; print(torch.__version__)') on $DATA_DIR" >&2
$PYTHON bench/kernel_cases.py "$DATA_DIR" --runs "$RUNS" "$@" >/dev/null
echo "== irlint kernels" >&2
"$BUILD_DIR/kernel_bench" "$DATA_DIR" --benchmark_repetitions="$RUNS" --benchmark_report_aggregates_only=true \
  --benchmark_format=json --benchmark_out="$DATA_DIR/irlint.json" --benchmark_out_format=json >/dev/null

$PYTHON - "$DATA_DIR" <<'PY'
import json, sys
data = sys.argv[1]
torch = {}
for line in open(f"{data}/torch.tsv"):
    name, t1, t2 = line.rstrip("\n").split("\t")
    torch[name] = [float(t1), float(t2)]
irlint = {}
for b in json.load(open(f"{data}/irlint.json"))["benchmarks"]:
    if b.get("aggregate_name") == "median":
        name, threads = b["run_name"].rsplit("/threads:", 1)
        irlint.setdefault(name, [None, None])[int(threads.split("/")[0]) - 1] = b["real_time"]
def cell(v): return "n/a" if v is None else f"{v:.2f}"
def ratio(t, i): return "n/a" if t is None or i is None else f"{t / i:.2f}x"
print(f"{'case':44} {'torch 1t':>9} {'irlint 1t':>9} {'ratio':>7} {'torch 2t':>9} {'irlint 2t':>9} {'ratio':>7} {'1t torch/2t irlint':>19}")
for name, (t1, t2) in torch.items():
    i1, i2 = irlint.get(name.split(" ")[0], [None, None])
    print(f"{name:44} {cell(t1):>9} {cell(i1):>9} {ratio(t1, i1):>7} {cell(t2):>9} {cell(i2):>9} {ratio(t2, i2):>7} {ratio(t1, i2):>19}")
print("times in ms, medians; ratio = PyTorch / irlint")
PY

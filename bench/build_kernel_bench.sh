#!/usr/bin/env bash
# Installs what the kernel benchmarks need (Google Benchmark, PyTorch) and builds bench/kernel_bench into
# DIR (default build-kernel-bench), with compare_bench. Run by kernels_vs_torch.sh and kernels_vs_ort.sh.
#   bench/build_kernel_bench.sh [DIR]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

build_dir="${1:-build-kernel-bench}"
bash scripts/setup.sh
extra=()
for p in libbenchmark-dev python3-torch; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || extra+=("$p")
done
if [ ${#extra[@]} -gt 0 ]; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get install -y -qq --no-install-recommends "${extra[@]}" >/dev/null
fi
cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=Release -DIRLINT_BENCH=ON -DBUILD_TESTING=OFF >/dev/null
cmake --build "$build_dir" -j2 --target kernel_bench compare_bench >/dev/null

#!/usr/bin/env bash
# Installs ONNX Runtime for Node (npm package onnxruntime-node, whose CPU library ships inside the package)
# into DIR (default build/ort) for the differential test tests/ort. Idempotent; needs npm and node.
#   scripts/setup_ort.sh [DIR]
set -euo pipefail
cd "$(dirname "$0")/.."

version=1.30.0
dir="${1:-build/ort}"
installed="$dir/node_modules/onnxruntime-node/package.json"
if [ -f "$installed" ] && grep -q "\"version\": \"$version\"" "$installed"; then
  exit 0
fi
if ! command -v npm >/dev/null || ! command -v node >/dev/null; then
  echo "setup_ort: npm and node are needed for the ONNX Runtime differential test (tests/ort);" \
       "without them that test fails unless IRLINT_SKIP_ORT=1" >&2
  exit 0
fi
echo "setup_ort: installing onnxruntime-node@$version into $dir" >&2
mkdir -p "$dir"
# --ignore-scripts: the package's install script only downloads GPU libraries; the CPU one is included.
npm install --prefix "$dir" --ignore-scripts --no-audit --no-fund --loglevel=error "onnxruntime-node@$version" >&2

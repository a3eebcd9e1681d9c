#!/usr/bin/env bash
# Installs the Debian packages irlint needs to build and test, and ONNX Runtime for Node beside the build
# (scripts/setup_ort.sh). Idempotent; silent when all are present.
set -euo pipefail

packages=(g++ cmake make libpugixml-dev libcli11-dev libfmt-dev libpng-dev doctest-dev python3 python3-numpy
          python3-onnx libonnx-testdata libonnx-dev libprotobuf-dev protobuf-compiler python3-jsonschema
          python3-torch libtomlplusplus-dev)
# lld links irlint with its start-up functions side by side (CMakeLists.txt, cmake/startup-order.txt).
packages+=(lld)
# The Python module (import irlint) and its tests.
packages+=(python3-dev pybind11-dev python3-pytest)
# Packaging and its tests: dpkg-shlibdeps (Depends of the .deb), groff (the man page), YAML (CI definitions).
packages+=(dpkg-dev groff-base python3-yaml)
# The HTML reports' test opens them in a real browser: headless Chromium, and a font to render their text.
packages+=(chromium fonts-dejavu-core)
# A clang build (CXX=clang++ scripts/test.sh) needs the compiler.
case "${CXX:-}" in *clang*) packages+=(clang) ;; esac
# ... and, under the sanitizers (and for scripts/fuzz.sh), their runtimes and libFuzzer's (Debian 12 puts them in
# libclang-rt-14-dev).
case "${CXX:-}:${IRLINT_SANITIZE:-OFF}" in *clang*:ON) packages+=(libclang-rt-14-dev) ;; esac

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -ne 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# ONNX Runtime for the differential test, beside the build (IRLINT_BUILD_DIR, default build).
bash "$(dirname "$0")/setup_ort.sh" "${IRLINT_BUILD_DIR:-build}/ort"

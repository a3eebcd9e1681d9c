#!/usr/bin/env bash
# Installs the Debian packages irlint needs to build and test. Idempotent; silent when all are present.
set -euo pipefail

packages=(g++ cmake make libpugixml-dev libcli11-dev libfmt-dev libpng-dev doctest-dev python3 python3-numpy
          python3-onnx libonnx-testdata libonnx-dev libprotobuf-dev protobuf-compiler python3-jsonschema
          python3-torch)
# Packaging and its tests: dpkg-shlibdeps (Depends of the .deb), groff (the man page), YAML (CI definitions).
packages+=(dpkg-dev groff-base python3-yaml)
# A clang build (CXX=clang++ scripts/test.sh) needs the compiler.
case "${CXX:-}" in *clang*) packages+=(clang) ;; esac

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "setup: installing ${missing[*]}" >&2
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null

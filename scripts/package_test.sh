#!/usr/bin/env bash
# Builds the Debian package (cpack -G DEB), installs it with dpkg, runs the installed irlint on testdata/
# (with its man page and bash completion), and removes it again. Needs root or sudo: it installs into /usr.
#   scripts/package_test.sh             package of the Release build in build/
#   IRLINT_BUILD_DIR=dir scripts/package_test.sh
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh
build_dir="${IRLINT_BUILD_DIR:-build}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"

fail() {
  echo "package test: FAILED: $*" >&2
  exit 1
}

if dpkg-query -W -f='${Status}' irlint 2>/dev/null | grep -q "install ok installed"; then
  fail "a package named irlint is installed already; remove it first (dpkg -r irlint)"
fi

cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=Release >/dev/null
python_module=no
grep -q "IRLINT_PYTHON:BOOL=ON" "$build_dir/CMakeCache.txt" && python_module=yes
targets=(irlint irlint_help_files)
[ "$python_module" = no ] || targets+=(irlint_python)
cmake --build "$build_dir" -j "$(nproc)" --target "${targets[@]}"
rm -f "$build_dir"/irlint_*.deb
(cd "$build_dir" && cpack -G DEB >/dev/null)
deb=$(ls "$build_dir"/irlint_*.deb)
echo "== package $(basename "$deb"): $(stat -c %s "$deb") bytes =="
dpkg-deb -f "$deb" Package Version Depends

$sudo dpkg -i "$deb" >/dev/null
trap '$sudo dpkg -r irlint >/dev/null 2>&1 || true' EXIT

installed=/usr/bin/irlint
[ -x "$installed" ] || fail "$installed is not there after dpkg -i"
"$installed" --version | head -1 | grep -qx "irlint $(dpkg-deb -f "$deb" Version)" \
  || fail "the installed irlint --version does not print the package's version"

status=0
"$installed" check testdata/valid -q >/dev/null || status=$?
[ "$status" -eq 0 ] || fail "irlint check testdata/valid exited with $status, expected 0"
status=0
findings=$("$installed" check testdata/spec -q --format json) || status=$?
[ "$status" -eq 1 ] || fail "irlint check testdata/spec exited with $status, expected 1 (its known findings)"
echo "$findings" | grep -q '"rule":"output-shape-mismatch"' || fail "no output-shape-mismatch in testdata/spec"
# ONNX commands run in irlint-onnx, which the package installs in its library directory.
if grep -q "IRLINT_ONNX:BOOL=ON" "$build_dir/CMakeCache.txt"; then
  "$installed" --version | grep -q "^ONNX support: yes" || fail "the installed irlint does not find irlint-onnx"
  onnx_model=/usr/share/libonnx-testdata/data/node/test_maxpool_2d_default/model.onnx
  if [ -f "$onnx_model" ]; then
    "$installed" check "$onnx_model" -q >/dev/null || fail "the installed irlint cannot check $onnx_model"
  fi
fi

man_page=/usr/share/man/man1/irlint.1
[ -f "$man_page" ] || fail "$man_page is missing"
warnings=$(groff -man -ww -z "$man_page" 2>&1)
[ -z "$warnings" ] || fail "groff warns about $man_page: $warnings"
completion=/usr/share/bash-completion/completions/irlint
[ -f "$completion" ] || fail "$completion is missing"
bash -c "source $completion && complete -p irlint" >/dev/null || fail "$completion defines no completion for irlint"
[ -f /usr/share/doc/irlint/docs/cli.md ] || fail "/usr/share/doc/irlint/docs/cli.md is missing"

# The Python module, from a directory outside the tree so that nothing but the installed package is imported.
if [ "$python_module" = yes ]; then
  outside=$(mktemp -d)
  valid="$PWD/testdata/valid"
  version=$(cd "$outside" && env -u PYTHONPATH /usr/bin/python3 -c "import irlint; print(irlint.__version__)") \
    || fail "import irlint fails after dpkg -i"
  [ "$version" = "$(dpkg-deb -f "$deb" Version)" ] || fail "irlint.__version__ is $version, not the package's version"
  (cd "$outside" && env -u PYTHONPATH /usr/bin/python3 -c "import irlint, sys; sys.exit(irlint.check(sys.argv[1]).exit_code)" \
    "$valid") || fail "irlint.check of testdata/valid is not clean with the installed module"
  rmdir "$outside"
fi

$sudo dpkg -r irlint >/dev/null
trap - EXIT
[ ! -e "$installed" ] || fail "$installed is still there after dpkg -r"
if [ "$python_module" = yes ]; then
  (cd / && env -u PYTHONPATH /usr/bin/python3 -c "import irlint" 2>/dev/null) && fail "import irlint still works after dpkg -r"
fi
echo "package test: installed, ran irlint on testdata/, removed: ok"

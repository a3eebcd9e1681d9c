#!/usr/bin/env bash
# Builds the libFuzzer targets of fuzz/ with clang (AddressSanitizer + UndefinedBehaviorSanitizer) and runs
# each for SECONDS (default 60), seeded from testdata/ and from the committed seeds in fuzz/corpus/TARGET.
# Exits 1 if any target finds a crash, a leak, a timeout or runs out of memory; the input that did it is left
# in build-fuzz/artifacts/. fuzz_onnx is built and run where irlint reads ONNX (libonnx-dev installed).
#   scripts/fuzz.sh [SECONDS]
# New inputs that reach new code are kept in build-fuzz/corpus/TARGET and reused by the next run.
# IRLINT_FUZZ_BUILD_DIR names a build tree configured with clang and -DIRLINT_FUZZ=ON to build the targets in
# instead (CI's sanitizer build, whose library is already compiled with the fuzzing flags).
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-60}"
case "$seconds" in
  ''|*[!0-9]*) echo "usage: scripts/fuzz.sh [SECONDS]" >&2; exit 2 ;;
esac

# clang with the sanitizers' and libFuzzer's runtimes: what setup.sh installs for a clang sanitizer build.
CXX=clang++ IRLINT_SANITIZE=ON bash scripts/setup.sh

build="${IRLINT_FUZZ_BUILD_DIR:-build-fuzz}"
targets=(fuzz_ir fuzz_npy fuzz_parsers fuzz_report fuzz_config fuzz_baseline fuzz_fix)
if [ -z "${IRLINT_FUZZ_BUILD_DIR:-}" ]; then
  cmake -S . -B "$build" -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo -DIRLINT_FUZZ=ON \
    -DBUILD_TESTING=OFF >/dev/null
elif ! grep -q '^IRLINT_FUZZ:BOOL=ON$' "$build/CMakeCache.txt" 2>/dev/null; then
  echo "fuzz: $build is not a build tree configured with -DIRLINT_FUZZ=ON" >&2
  exit 2
fi
if grep -q '^IRLINT_ONNX:BOOL=ON$' "$build/CMakeCache.txt"; then
  targets+=(fuzz_onnx)
fi
# irlint itself writes the report seeds (real shard reports) of fuzz_report: the binary IRLINT_SEED_BINARY
# names (CI passes the one its Release build made), else one built here, with the fuzzing flags.
seed_irlint="${IRLINT_SEED_BINARY:-}"
if [ -z "$seed_irlint" ]; then
  cmake --build "$build" -j "$(nproc)" --target "${targets[@]}" irlint
  seed_irlint="$build/irlint"
else
  cmake --build "$build" -j "$(nproc)" --target "${targets[@]}"
fi
/usr/bin/python3 fuzz/make_seeds.py --testdata testdata --out "$build/seeds" --irlint "$seed_irlint"

# The longest input each target is given: an IR of some layers, a .npy header with a little data, a
# case of a few lines, a report of some files, a configuration or baseline of some lines, an IR to fix and an
# ONNX model of some nodes.
declare -A max_len=([fuzz_ir]=65536 [fuzz_npy]=4096 [fuzz_parsers]=1024 [fuzz_report]=65536 [fuzz_config]=4096
                    [fuzz_baseline]=4096 [fuzz_fix]=65536 [fuzz_onnx]=16384)

# Runs one target; its exit status goes to $build/TARGET.status.
fuzz_one() {
  local target=$1 log="$build/$1.log" status=0 seeds=()
  mkdir -p "$build/corpus/$target" "$build/artifacts"
  for dir in "$build/seeds/$target" "fuzz/corpus/$target"; do
    [ -d "$dir" ] && seeds+=("$dir")
  done
  "$build/fuzz/$target" "$build/corpus/$target" "${seeds[@]}" \
    -max_total_time="$seconds" -max_len="${max_len[$target]}" -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix="$build/artifacts/$target-" -print_final_stats=1 >"$log" 2>&1 || status=$?
  echo "$status" >"$build/$target.status"
}

# The targets run side by side, one per core: each gets SECONDS of its own.
parallel=$(nproc)
echo "== ${#targets[@]} targets, ${seconds} s each, ${parallel} at a time =="
running=0
for target in "${targets[@]}"; do
  if [ "$running" -ge "$parallel" ]; then
    wait -n
    running=$((running - 1))
  fi
  fuzz_one "$target" &
  running=$((running + 1))
done
wait

failed=0
summary=()
for target in "${targets[@]}"; do
  log="$build/$target.log"
  status=$(cat "$build/$target.status" 2>/dev/null || echo 1)
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
  if [ "$status" -ne 0 ]; then
    failed=1
    grep -E "ERROR|runtime error|SUMMARY|Test unit written" "$log" | head -20 >&2 || true
    summary+=("$target: FAILED (exit $status), see $log")
  else
    summary+=("$target: ${runs:-?} runs in ${seconds} s, ${rate:-?} execs/s, no crash")
  fi
done

echo "== fuzz summary =="
printf '%s\n' "${summary[@]}"
exit "$failed"

# Shared by the benchmark scripts (sourced): wall-clock timing of whole processes and medians.

now_ns() { date +%s%N; }

# Runs "$@" once with stdout discarded; prints the wall time in microseconds. Fails on a non-zero exit.
time_us() {
  local t0 t1
  t0=$(now_ns)
  "$@" >/dev/null
  t1=$(now_ns)
  echo $(((t1 - t0) / 1000))
}

# The same for a command that may exit 1 (findings): any other exit fails.
time_findings_us() {
  local t0 t1 rc=0
  t0=$(now_ns)
  "$@" >/dev/null || rc=$?
  t1=$(now_ns)
  [ "$rc" -le 1 ] || { echo "timing: exit $rc from $*" >&2; exit 1; }
  echo $(((t1 - t0) / 1000))
}

median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
ms() { awk -v us="$1" 'BEGIN { printf "%.1f", us / 1000 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2fx", a / b }'; }
runs_ms() { local t out=""; for t in "$@"; do out+="$(ms "$t") "; done; echo "${out% }"; }
peak_kb() { /usr/bin/time -f '%M' "$@" 2>&1 >/dev/null | tail -n 1; }
mb() { awk -v kb="$1" 'BEGIN { printf "%.1f MB", kb / 1024 }'; }

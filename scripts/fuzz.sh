#!/usr/bin/env bash
# Runs kjit's libFuzzer targets (tests/fuzz/) for a bounded time each, starting from the corpus in
# tests/fuzz/corpus/, in the AddressSanitizer build (build-asan/, made by scripts/sanitize.sh).
#   scripts/fuzz.sh [--seconds N] [--merge] [target...]
# Targets: cache_entry_fuzzer device_spec_fuzzer manifest_fuzzer bitcode_fuzzer (all by default).
# --seconds N  time per target (default 60; CI's figure). Longer by hand: --seconds 3600.
# --merge      afterwards, add the inputs that reached new code to tests/fuzz/corpus/ (commit them).
# New inputs go to build-asan/fuzz/<target>/; a crash leaves its input there as crash-* and fails
# the run. Prints each target's executions, corpus size and crashes.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds=60
merge=0
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds="$2"; shift 2 ;;
    --merge) merge=1; shift ;;
    -*) echo "usage: scripts/fuzz.sh [--seconds N] [--merge] [target...]" >&2; exit 2 ;;
    *) targets+=("$1"); shift ;;
  esac
done
if [ ${#targets[@]} -eq 0 ]; then
  # bitcode_fuzzer reads each input in a forked child first and rejects those on which LLVM's own
  # reader dies (docs/reliability.md): what remains to find is kjit's.
  targets=(cache_entry_fuzzer device_spec_fuzzer manifest_fuzzer bitcode_fuzzer)
fi
"$root/scripts/sanitize.sh" address --build-only
build="$root/build-asan"
export ASAN_OPTIONS="detect_leaks=1:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:${UBSAN_OPTIONS:-}"
status=0
summary=()
for t in "${targets[@]}"; do
  bin="$build/tests/fuzz/$t"
  seeds="$root/tests/fuzz/corpus/$t"
  work="$build/fuzz/$t"
  mkdir -p "$work/corpus"
  log="$work/run.log"
  echo "fuzz: $t for ${seconds}s"
  rc=0
  "$bin" -max_total_time="$seconds" -timeout=30 -rss_limit_mb=4096 -print_final_stats=1 \
    -artifact_prefix="$work/" "$work/corpus" "$seeds" > "$log" 2>&1 || rc=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  crashes=$(find "$work" -maxdepth 1 \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' \
    -o -name 'oom-*' \) | wc -l)
  units=$(find "$work/corpus" "$seeds" -type f | wc -l)
  summary+=("$t: ${seconds}s, ${execs:-?} executions, $units corpus inputs, exit $rc, $crashes findings")
  if [ "$rc" -ne 0 ] || [ "$crashes" -ne 0 ]; then
    status=1
    tail -n 60 "$log"
  fi
  if [ "$merge" -eq 1 ]; then
    "$bin" -merge=1 "$seeds" "$work/corpus" > "$work/merge.log" 2>&1
  fi
done
printf 'fuzz: %s\n' "${summary[@]}"
exit $status

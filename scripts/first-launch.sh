#!/usr/bin/env bash
# Time to first launch on one device, each run a fresh process (benchmarks/first_launch.cpp):
# 1 and 32 programs, cold (cache off) and warm (from a filled disk cache); on a GPU also cold with
# the context awaited before compiling (what a runtime without kjit's overlap pays). Prints the
# medians and writes the `first-launch-<device>` section of docs/benchmarks.md.
#
# Usage: scripts/first-launch.sh --device cpu|cuda [--reps N] [--build DIR] [--out DIR]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
device=""
reps=7
build="$root/build"
out=""
usage() {
  echo "usage: $0 --device cpu|cuda [--reps N] [--build DIR] [--out DIR]" >&2
  exit 2
}
while [ $# -gt 0 ]; do
  case "$1" in
    --device) device="$2"; shift ;;
    --reps) reps="$2"; shift ;;
    --build) build="$2"; shift ;;
    --out) out="$2"; shift ;;
    *) usage ;;
  esac
  shift
done
[ -n "$device" ] || usage
out="${out:-$build}"
mkdir -p "$out"
binary="$build/benchmarks/kjit_first_launch"
if [ ! -x "$binary" ]; then
  echo "first-launch: skipped, this build has no kjit_first_launch"
  exit 0
fi
log="$out/first-launch-$device.log"
warm_cache="$(mktemp -d)"
trap 'rm -rf "$warm_cache"' EXIT
run() {  # run <cold|warm> <programs> [--sequential]
  local cache="$1" programs="$2"
  shift 2
  echo -n "$cache "
  if [ "$cache" = cold ]; then
    KJIT_DEVICE=$device KJIT_CACHE=off "$binary" --programs "$programs" "$@"
  else
    KJIT_DEVICE=$device KJIT_CACHE_DIR="$warm_cache" "$binary" --programs "$programs" "$@"
  fi
}
if ! KJIT_DEVICE=$device KJIT_CACHE_DIR="$warm_cache" "$binary" --programs 32 > "$log" 2>&1; then
  echo "first-launch on $device: skipped or failed:"
  tail -3 "$log" | sed 's/^/  /'
  exit 0
fi
KJIT_DEVICE=$device KJIT_CACHE_DIR="$warm_cache" "$binary" --programs 1 >> "$log" 2>&1
echo "first-launch on $device ($reps runs of each way)"
for ((r = 0; r < reps; r++)); do  # the ways alternate, so that drift hits each alike
  for programs in 1 32; do
    run cold "$programs"
    if [ "$device" != cpu ]; then
      run cold "$programs" --sequential
    fi
    run warm "$programs"
  done
done > "$log" 2>&1
python3 "$root/benchmarks/first_launch_report.py" "$log" --markdown "$root/docs/benchmarks.md" \
  --section "first-launch-$device"

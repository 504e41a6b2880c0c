#!/usr/bin/env bash
# Runs kjit's benchmark suite: every suite the build has that this machine can run.
#  - CPU: kjit against the same loops compiled ahead of time with OpenMP, and cold compiles.
#  - Runtime specialisation (Kernel::specialize) against the same kernels as they are, on the CPU
#    and, where a CUDA device exists, on it.
#  - Launch graphs (a replayed kjit::Graph of 100 launches) against the launches, on the CPU and
#    CUDA; kjit_bench_cuda also has them against raw cuLaunchKernel calls.
#  - Managed memory against device memory, where a CUDA device exists.
#  - CPU checked mode (KJIT_CHECK=memory, then memory,race) against the same kernels unchecked.
#  - CUDA, where a CUDA device exists: kjit against raw driver calls, nvcc -O3 and plain NVRTC.
#  - The disk cache (cold compile against warm load, 1 and 32 programs) on each of those devices.
#  - Time to first launch in fresh processes, cold and warm, on each (scripts/first-launch.sh).
#  - CuPy's RawModule against kjit's CUDA and cache rows, where CuPy is installed.
# Prints `ratio <case> <kjit time / baseline time>` rows and rewrites each suite's section of
# docs/benchmarks.md (device, date, medians, ratios). A suite that cannot run says why.
#
# Usage: scripts/benchmarks.sh [--quick] [--reps N] [--build DIR] [--out DIR]
#   --quick      fewer, shorter repetitions (the CPU rows take about a minute on 2 cores)
#   --reps N     repetitions of each case (default 7; the median is reported)
#   --build DIR  an existing build (the GPU machine's CUDA-only build); default: build/, configured
#   --out DIR    where the JSON results and a copy of docs/benchmarks.md go; default: the build
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
reps=7
min_time=1
build=""
out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) reps=3; min_time=0.2 ;;
    --reps) reps="$2"; shift ;;
    --build) build="$2"; shift ;;
    --out) out="$2"; shift ;;
    *) echo "usage: $0 [--quick] [--reps N] [--build DIR] [--out DIR]" >&2; exit 2 ;;
  esac
  shift
done
if [ -z "$build" ]; then
  "$root/scripts/configure.sh"
  build="$root/build"
fi
out="${out:-$build}"
mkdir -p "$out"
docs="$root/docs/benchmarks.md"
bench="$build/benchmarks"
aggregates=(--benchmark_report_aggregates_only=true --benchmark_out_format=json)
# A run's repetitions in random order, kjit's and the baselines' mixed: the machine's speed drifts
# (this VM's memory bandwidth moves by a third within minutes), and a ratio should not depend on
# which of its two rows ran while the machine was slow.
interleave=(--benchmark_enable_random_interleaving=true)
ran=0

# suite <name> <docs section> <binary> [environment...]: runs one suite, reports, or says why not.
# Sections named specialize-* also state the geometric mean of their ratios.
suite() {
  local name="$1" section="$2" binary="$3"
  shift 3
  local extra=()
  [[ "$section" == specialize-* ]] && extra=(--geomean)
  if [ ! -x "$bench/$binary" ]; then
    echo "benchmarks: $name: skipped, this build has no $binary"
    return 0
  fi
  echo "benchmarks: $name ($binary, $reps repetitions)"
  if ! env "$@" "$bench/$binary" --benchmark_repetitions="$reps" \
      --benchmark_min_time="$min_time" "${aggregates[@]}" "${interleave[@]}" \
      --benchmark_out="$out/bench-$section.json" > "$out/bench-$section.log" 2>&1; then
    echo "benchmarks: $name: skipped or failed:"
    tail -5 "$out/bench-$section.log" | sed 's/^/  /'
    return 0
  fi
  python3 "$root/benchmarks/report.py" "$out/bench-$section.json" --markdown "$docs" \
    --section "$section" "${extra[@]}"
  ran=$((ran + 1))
  done_suites+=" $section"
}
done_suites=""

suite "CPU against OpenMP" cpu kjit_bench_cpu KJIT_DEVICE=cpu
suite "CUDA against raw driver calls, nvcc and NVRTC" cuda kjit_bench_cuda KJIT_DEVICE=cuda
suite "Runtime specialisation on the CPU" specialize-cpu kjit_bench_specialization KJIT_DEVICE=cpu
suite "Runtime specialisation on CUDA" specialize-cuda kjit_bench_specialization KJIT_DEVICE=cuda
suite "Launch graphs on the CPU" graphs-cpu kjit_bench_graphs KJIT_DEVICE=cpu
suite "Launch graphs on CUDA" graphs-cuda kjit_bench_graphs KJIT_DEVICE=cuda
suite "Managed memory on CUDA" managed-cuda kjit_bench_managed KJIT_DEVICE=cuda
suite "CPU checked mode (memory) against unchecked" checked-memory kjit_bench_checked \
  KJIT_DEVICE=cpu KJIT_CHECK=memory
suite "CPU checked mode (memory and race) against unchecked" checked-race kjit_bench_checked \
  KJIT_DEVICE=cpu KJIT_CHECK=memory,race
for device in cpu cuda; do
  if [ -x "$bench/kjit_bench_cache" ]; then
    echo "benchmarks: disk cache on $device"
    if KJIT_DEVICE=$device "$bench/kjit_bench_cache" --benchmark_repetitions="$reps" \
        "${aggregates[@]}" --benchmark_out="$out/bench-cache-$device.json" \
        > "$out/bench-cache-$device.log" 2>&1; then
      grep -E "^device|median" "$out/bench-cache-$device.log" | sed 's/^/  /'
      ran=$((ran + 1))
      done_suites+=" cache-$device"
    else
      echo "benchmarks: disk cache on $device: skipped or failed:"
      tail -2 "$out/bench-cache-$device.log" | sed 's/^/  /'
    fi
  fi
done
if [[ "$done_suites" == *" cuda"* && "$done_suites" == *" cache-cuda"* ]]; then
  echo "benchmarks: CuPy's RawModule against kjit's CUDA rows"
  python3 "$root/benchmarks/cupy_rawmodule.py" --kernels "$root/kernels" --reps "$reps" \
    --kjit-cuda "$out/bench-cuda.json" --kjit-cache "$out/bench-cache-cuda.json" \
    --out "$out/bench-cupy.json"
  if [ -f "$out/bench-cupy.json" ]; then
    python3 "$root/benchmarks/report.py" "$out/bench-cupy.json" --markdown "$docs" --section cupy
  fi
else
  echo "benchmarks: CuPy: skipped, it is compared with the CUDA and cache-on-cuda rows, which did not run"
fi
for device in cpu cuda; do
  bash "$root/scripts/first-launch.sh" --device "$device" --reps "$reps" --build "$build" \
    --out "$out"
done
# Many processes starting cold at once, with and without the remote tier (needs redis-server).
for device in cpu cuda; do
  worker="$build/tests/kjit_cache_worker"
  if [[ "$done_suites" == *" cache-$device"* ]] && command -v redis-server >/dev/null &&
    [ -x "$worker" ]; then
    echo "benchmarks: cold starts of 1, 8 and 64 processes on $device"
    python3 "$root/benchmarks/fleet_cold_start.py" "$worker" --device "$device" \
      --markdown "$docs" | sed 's/^/  /'
  else
    echo "benchmarks: fleet cold starts on $device: skipped (no $device, redis-server or worker)"
  fi
done
cp "$docs" "$out/benchmarks.md" 2>/dev/null || true
if [ "$ran" -eq 0 ]; then
  echo "benchmarks: nothing ran" >&2
  exit 1
fi

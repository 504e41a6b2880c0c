#!/usr/bin/env bash
# On the GPU machine: runs the programs scripts/pack-for-gpu.sh built on Debian 12 (CPU, CUDA and
# HIP backends, with LLVM) from .carry-run/, with Debian's runtime libraries unpacked beside them:
# the cross-backend suite (CPU and CUDA in one process, bitcode included), the whole API suite on
# cuda:0, the corpus of real kernel files on cuda:0 and the CPU, the bitcode, barrier, warp and range tests on the CPU, the CPU fault and launch
# allocation tests, and checked mode's catalogue (KJIT_CHECK=memory,race) with the kernel suites
# run checked. With --bench, then the CPU
# benchmark against OpenMP on all of this machine's cores (bench-cpu.json; turn it into a section
# of docs/benchmarks.md here with benchmarks/report.py --section cpu16). With --scaling FILTER,
# only the benchmark rows FILTER matches, once per worker count (1, 4, 8 and all cores; kjit's
# pool and OpenMP's team alike; SCALING_THREADS to choose, SCALING_TAG to tell runs apart):
# bench-cpu-N.json. With --probe, benchmarks/probes/grid_stride_scaling.cpp (built into
# .carry-run/bin by hand) at those worker counts. With --specialize, then the specialisation
# benchmark on cuda:0 and on the CPU's cores (bench-specialize-cuda.json, bench-specialize-cpu.json;
# benchmarks/report.py --section specialize-cuda / specialize-cpu16 here); with it or with
# --managed, the managed-memory benchmark on cuda:0 (bench-managed-cuda.json); with --graphs,
# the graph benchmark on cuda:0 and the CPU (bench-graphs-*.json) and kjit_bench_cuda's graph and
# launch rows against raw cuLaunchKernel (bench-graphs-raw.json). Logs go to $OUT.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
run="$root/.carry-run"
out="${OUT:-$run/out}"
mkdir -p "$out"
libs="$(mktemp -d /tmp/kjit-carried-XXXXXX)"
for deb in "$run"/debs/*.deb; do
  dpkg -x "$deb" "$libs"
done
export LD_LIBRARY_PATH="$run/bin:$libs/usr/lib/x86_64-linux-gnu:$libs/usr/lib/llvm-19/lib:/usr/local/cuda/lib64"
export KJIT_TEST_SOURCE_DIR="$root"  # where the tests find kernels/
export KJIT_CACHE_DIR="$libs/cache"  # cold: every program compiles once
{
  date -u
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
  nproc
  lscpu | grep -E "Model name|Thread|Core|Socket|NUMA node|L2|L3"
  grep -o -m1 'avx512_fp16' /proc/cpuinfo || echo "no avx512_fp16"
} 2>&1 | tee "$out/machine.txt"
bench() {  # bench OUTPUT [ARGS...]: the CPU benchmark, repetitions interleaved as in benchmarks.sh
  local json="$1"
  shift
  KJIT_DEVICE=cpu KJIT_BENCH_SOURCE_DIR="$root" "$run/bin/kjit_bench_cpu" --benchmark_repetitions=5 \
    --benchmark_min_time=0.5 --benchmark_report_aggregates_only=true \
    --benchmark_enable_random_interleaving=true --benchmark_out_format=json \
    --benchmark_out="$out/$json.json" "$@" > "$out/$json.log" 2>&1
}
if [ "${1:-}" = "--probe" ]; then  # benchmarks/probes/grid_stride_scaling.cpp, built by the caller
  for n in ${PROBE_THREADS:-1 4 8 $(nproc)}; do
    KJIT_CPU_THREADS=$n OMP_NUM_THREADS=$n "$run/bin/grid_stride_scaling" "$root/kernels" 15 \
      ${PROBE_ORDER:-}
  done 2>&1 | tee -a "$out/grid-stride-scaling.log"
  exit 0
fi
if [ "${1:-}" = "--scaling" ]; then
  status=0
  for n in ${SCALING_THREADS:-1 4 8 $(nproc)}; do
    name="bench-cpu-$n${SCALING_TAG:-}"
    KJIT_CPU_THREADS=$n OMP_NUM_THREADS=$n bench "$name" --benchmark_filter="$2" || status=1
    grep -E "median" "$out/$name.log" | awk -v n="$n${SCALING_TAG:-}" '{print n, $1, $2, $3}'
  done
  exit $status
fi
if [ "${1:-}" = "--compat" ]; then
  # Loading real kernel files: the corpus (GoogleTest JSON results, for
  # scripts/compatibility_tables.py) and the API suite on cuda:0, the corpus on the CPU's cores,
  # failed compiles (many in one process, and a program whose compiles all fail, run PROBE_RUNS
  # times; with .carry-run/nofix/, a libkjit built without a fix, to compare), and a held-out
  # set's driver where one was carried (.carry-run/heldout and its sources in
  # .carry-run/heldout-src).
  status=0
  for device in cuda cpu; do
    KJIT_DEVICE=$device "$run/bin/kjit_failing_compile_tests" > "$out/failing-$device.log" 2>&1 ||
      status=1
    grep -E "FAILED|PASSED" "$out/failing-$device.log" | sed "s/^/failing compiles ($device): /"
    KJIT_DEVICE=$device "$run/bin/kjit_corpus_tests" --gtest_output="json:$out/corpus-$device.json" \
      > "$out/corpus-$device.log" 2>&1 || status=1
    grep -E "FAILED|PASSED|SKIPPED \]" "$out/corpus-$device.log" | sed "s/^/corpus ($device): /" | head -12
    if [ -x "$run/heldout" ]; then
      HELDOUT_SRC="$run/heldout-src" KJIT_DEVICE=$device "$run/heldout" > "$out/heldout-$device.txt" 2>&1
      grep -E "^# summary|^(FAIL|LOAD-FAIL)" "$out/heldout-$device.txt" | cut -c1-160 | sed "s/^/heldout ($device): /"
    fi
  done
  for lib in nofix bin; do
    [ -d "$run/$lib" ] && [ -f "$run/$lib/libkjit.so.0" ] || continue
    crashes=0
    for i in $(seq "${PROBE_RUNS:-100}"); do
      LD_LIBRARY_PATH="$run/$lib:$LD_LIBRARY_PATH" KJIT_DEVICE=cuda \
        "$run/bin/kjit_failing_compile_probe" 6 > /dev/null 2>> "$out/probe-$lib.log"
      code=$?
      [ $code -ne 0 ] && { crashes=$((crashes + 1)); echo "run $i: exit $code" >> "$out/probe-$lib.log"; }
    done
    echo "probe with $lib: $crashes of ${PROBE_RUNS:-100} runs did not exit 0"
  done
  KJIT_DEVICE=cuda "$run/bin/kjit_api_tests" > "$out/api-cuda.log" 2>&1 || status=1
  grep -E "FAILED|PASSED|SKIPPED \]" "$out/api-cuda.log" | head -20
  exit $status
fi
status=0
"$run/bin/kjit_cross_backend_tests" 2>&1 | tee "$out/cross.log" | grep -E "^\[  |OK|FAILED|SKIPPED" || status=1
grep -q "FAILED" "$out/cross.log" && status=1
KJIT_DEVICE=cuda "$run/bin/kjit_api_tests" > "$out/api-cuda.log" 2>&1 || status=1
grep -E "FAILED|PASSED|SKIPPED \]" "$out/api-cuda.log" | head -20
# The corpus of real kernel files (tests/corpus), on CUDA and on this machine's CPU cores.
for device in cuda cpu; do
  KJIT_DEVICE=$device "$run/bin/kjit_corpus_tests" > "$out/corpus-$device.log" 2>&1 || status=1
  grep -E "FAILED|PASSED|SKIPPED \]" "$out/corpus-$device.log" | sed "s/^/corpus ($device): /" | head -5
done
KJIT_DEVICE=cpu "$run/bin/kjit_api_tests" --gtest_filter='Bitcode*' > "$out/api-cpu-bitcode.log" 2>&1 || status=1
grep -E "FAILED|PASSED" "$out/api-cpu-bitcode.log" | head -5
# The barrier and warp kernels on all of this machine's cores, split at barriers and on fibers.
for mode in regions fibers; do
  KJIT_DEVICE=cpu KJIT_CPU_BARRIERS=$mode "$run/bin/kjit_api_tests" \
    --gtest_filter='Barriers*:Dialect*:Kernels*:RajaPerf*:Warp*:CooperativeGroups*:GridStride*:DebugBuild*:HotReload*' \
    > "$out/api-cpu-$mode.log" 2>&1 || status=1
  grep -E "FAILED|PASSED" "$out/api-cpu-$mode.log" | sed "s/^/cpu ($mode): /" | head -5
done
# Faults in CPU kernels, one process per test (a fault breaks the device), and allocation-free
# launches, on this machine's cores.
for t in $(KJIT_DEVICE=cpu "$run/bin/kjit_cpu_fault_tests" --gtest_list_tests |
  awk '/^[^ ]/ {s=$1} /^  / {print s $1}'); do
  KJIT_DEVICE=cpu "$run/bin/kjit_cpu_fault_tests" --gtest_filter="$t" >> "$out/cpu-faults.log" 2>&1 ||
    { status=1; echo "cpu fault test failed: $t"; }
done
grep -c "^\[       OK \]" "$out/cpu-faults.log" | sed 's/^/cpu faults: passed /'
KJIT_DEVICE=cpu "$run/bin/kjit_launch_allocation_tests" > "$out/cpu-allocations.log" 2>&1 || status=1
grep -E "FAILED|PASSED" "$out/cpu-allocations.log" | sed 's/^/cpu allocations: /' | head -3
# Checked mode (its program sets KJIT_CHECK=memory,race itself), and the kernel suites run checked.
KJIT_DEVICE=cpu "$run/bin/kjit_memory_check_tests" > "$out/cpu-checked.log" 2>&1 || status=1
grep -E "FAILED|PASSED" "$out/cpu-checked.log" | sed 's/^/cpu checked: /' | head -3
KJIT_DEVICE=cpu KJIT_CHECK=memory,race "$run/bin/kjit_api_tests" \
  --gtest_filter='Barriers*:Dialect*:Kernels*:RajaPerf*:Warp*:CooperativeGroups*:GridStride*:Half*:MathApi*' \
  > "$out/api-cpu-checked.log" 2>&1 || status=1
grep -E "FAILED|PASSED" "$out/api-cpu-checked.log" | sed 's/^/cpu suites checked: /' | head -5
if [ "${1:-}" = "--specialize" ] || [ "${1:-}" = "--managed" ]; then
  KJIT_DEVICE=cuda "$run/bin/kjit_bench_managed" --benchmark_repetitions=5 \
    --benchmark_min_time=0.3 --benchmark_report_aggregates_only=true \
    --benchmark_enable_random_interleaving=true --benchmark_out_format=json \
    --benchmark_out="$out/bench-managed-cuda.json" > "$out/bench-managed-cuda.log" 2>&1 || status=1
  grep -E "median" "$out/bench-managed-cuda.log" | awk '{print "cuda", $1, $2, $3, $NF}'
fi
if [ "${1:-}" = "--graphs" ]; then  # replayed graphs against kjit's and raw launches
  for device in cuda cpu; do
    KJIT_DEVICE=$device "$run/bin/kjit_bench_graphs" --benchmark_repetitions=5 \
      --benchmark_min_time=0.3 --benchmark_report_aggregates_only=true \
      --benchmark_enable_random_interleaving=true --benchmark_out_format=json \
      --benchmark_out="$out/bench-graphs-$device.json" > "$out/bench-graphs-$device.log" 2>&1 ||
      status=1
    grep -E "median" "$out/bench-graphs-$device.log" | awk -v d="$device" '{print d, $1, $2, $3}'
  done
  KJIT_BENCH_NVCC_CUBIN="$run/bin/nvcc_baselines.cubin" KJIT_BENCH_SOURCE_DIR="$root" \
    "$run/bin/kjit_bench_cuda" --benchmark_filter='graph100|launch_enqueue' \
    --benchmark_repetitions=5 --benchmark_min_time=0.3 --benchmark_report_aggregates_only=true \
    --benchmark_enable_random_interleaving=true --benchmark_out_format=json \
    --benchmark_out="$out/bench-graphs-raw.json" > "$out/bench-graphs-raw.log" 2>&1 || status=1
  grep -E "median" "$out/bench-graphs-raw.log" | awk '{print "raw", $1, $2, $3}'
fi
if [ "${1:-}" = "--specialize" ]; then
  for device in cuda cpu; do
    KJIT_DEVICE=$device KJIT_BENCH_SOURCE_DIR="$root" "$run/bin/kjit_bench_specialization" \
      --benchmark_repetitions=5 --benchmark_min_time=0.3 --benchmark_report_aggregates_only=true \
      --benchmark_enable_random_interleaving=true --benchmark_out_format=json \
      --benchmark_out="$out/bench-specialize-$device.json" > "$out/bench-specialize-$device.log" 2>&1 ||
      status=1
    grep -E "median" "$out/bench-specialize-$device.log" | awk -v d="$device" '{print d, $1, $2, $3}'
  done
fi
if [ "${1:-}" = "--bench" ]; then
  bench bench-cpu || status=1
  grep -E "median" "$out/bench-cpu.log" | awk '{print $1, $2, $3}'
fi
exit $status

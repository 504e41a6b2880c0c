#!/usr/bin/env bash
# Here (Debian 12): packs what scripts/gpu-carried.sh runs on the GPU machine, which has no LLVM
# to build the CPU backend or the bitcode compilers with: libkjit.so, the API and cross-backend
# test programs, the CPU benchmark (against OpenMP) and the specialisation benchmark from build/ (CPU, CUDA and HIP backends),
# and Debian's runtime packages they need (LLVM 19, Clang 19, spdlog, fmt, Boost.Context, Z3,
# Google Benchmark), into .carry-run/ (about 55 MB; git ignores it). Carry .carry-run to the
# device and run scripts/gpu-carried.sh there.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
run="$root/.carry-run"
cmake --build "$root/build" --target kjit kjit_api_tests kjit_cross_backend_tests kjit_bench_cpu \
  kjit_cpu_fault_tests kjit_launch_allocation_tests kjit_memory_check_tests \
  kjit_bench_specialization kjit_bench_managed kjit_bench_graphs kjit_bench_cuda kjit_corpus_tests \
  kjit_failing_compile_tests kjit_failing_compile_probe
rm -rf "$run"
mkdir -p "$run/bin" "$run/debs"
cp -L "$root/build/src/libkjit.so.0" "$run/bin/"  # the SONAME, as a plain file
cp "$root/build/tests/kjit_api_tests" "$root/build/tests/kjit_cross_backend_tests" \
  "$root/build/tests/kjit_cpu_fault_tests" "$root/build/tests/kjit_launch_allocation_tests" \
  "$root/build/tests/kjit_memory_check_tests" "$root/build/tests/kjit_corpus_tests" \
  "$root/build/tests/kjit_failing_compile_tests" "$root/build/tests/kjit_failing_compile_probe" \
  "$root/build/benchmarks/kjit_bench_cpu" \
  "$root/build/benchmarks/kjit_bench_specialization" "$root/build/benchmarks/kjit_bench_managed" \
  "$root/build/benchmarks/kjit_bench_graphs" "$root/build/benchmarks/kjit_bench_cuda" \
  "$root/build/benchmarks/nvcc_baselines.cubin" "$run/bin/"
strip --strip-unneeded "$run"/bin/kjit_* "$run"/bin/libkjit.so.0
(cd "$run/debs" && apt-get download libllvm19 libclang-cpp19 libspdlog1.10 libfmt9 \
  libboost-context1.74.0 libz3-4 libbenchmark1debian >/dev/null)
du -sh "$run"

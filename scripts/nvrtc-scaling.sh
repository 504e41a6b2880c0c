#!/usr/bin/env bash
# Measures whether NVRTC compiles run in parallel: 32 small programs on 1 to 16 threads of one
# process, then spread over 1 to 16 processes (each loading NVRTC). Needs CUDA's NVRTC, no GPU.
# docs/benchmarks.md (time to first launch) quotes its figures from the GPU machine.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cuda="${CUDA_HOME:-/usr/local/cuda}"
exe="$(mktemp -d)/nvrtc_scaling"
g++ -O2 -std=c++20 "$root/benchmarks/probes/nvrtc_scaling.cpp" -I"$cuda/include" \
  -DCUDA_INCLUDE="\"$cuda/include\"" \
  -L"$cuda/lib64" -Wl,-rpath,"$cuda/lib64" -lnvrtc -pthread -o "$exe"
prelude="$root/src/backends/cuda/prelude/cuda_prelude.h"
echo "$(nproc) CPUs"
for n in 1 2 4 8 16; do "$exe" "$n" "$prelude"; done
for n in 1 2 4 8 16; do "$exe" "$n" "$prelude" --fork; done
for k in 1 2 4 8 16; do
  start=$(date +%s%N)
  for i in $(seq 1 "$k"); do "$exe" 1 "$prelude" --count $((32 / k)) --salt $((i * 100)) & done
  wait
  echo "$k processes: 32 compiles in $((($(date +%s%N) - start) / 1000000)) ms wall (each loads NVRTC)"
done
start=$(date +%s%N)
"$exe" 1 "$prelude" --count 1
echo "one process that loads NVRTC and compiles one program: $((($(date +%s%N) - start) / 1000000)) ms"

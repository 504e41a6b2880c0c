#!/usr/bin/env bash
# Compiles examples.cu to LLVM bitcode for each kind of device kjit runs, with clang-19 and
# nothing else (no CUDA or ROCm headers, no device libraries). These are the recipes
# docs/bitcode.md explains; the .bc files beside this script are their output.
#
# usage: make-bitcode.sh [OUT_DIR] [SOURCE]   (defaults: this folder, examples.cu)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="${1:-$here}"
src="${2:-$here/examples.cu}"
stem="$(basename "$src" .cu)"
clang="${CLANG:-clang++-19}"
prelude="$here/../../src/backends/cpu/prelude"
mkdir -p "$out"

# Host (x86_64): kjit's CPU kernel header defines the dialect; the optimiser runs in kjit,
# after the kernels are rewritten for the CPU (-disable-llvm-passes keeps the IR as the front
# end made it).
"$clang" -x c++ -std=c++20 -O3 -Xclang -disable-llvm-passes -nostdinc -fdeclspec -fno-rtti \
  -fno-exceptions -fno-use-cxa-atexit -ffp-contract=fast -fPIC \
  -include "$prelude/cpu_abi.h" -include "$prelude/cpu_prelude.h" \
  -emit-llvm -c "$src" -o "$out/$stem.host.bc"

# NVIDIA (nvptx64): sm_75 bitcode suits every GPU that CUDA 13 supports (kjit makes PTX for the
# device it runs on; the driver finishes it).
"$clang" -x cuda --cuda-device-only --cuda-gpu-arch=sm_75 -nocudainc -nocudalib \
  -Wno-unknown-cuda-version -include "$here/gpu_dialect.h" -O3 \
  -emit-llvm -c "$src" -o "$out/$stem.sm_75.bc"

# AMD (amdgcn): one file per processor. Code object version 4 is what ROCm 5 loads.
for arch in gfx90a gfx942; do
  "$clang" -x hip --cuda-device-only --offload-arch="$arch" -nogpuinc -nogpulib \
    -mcode-object-version=4 -include "$here/gpu_dialect.h" -O3 \
    -emit-llvm -c "$src" -o "$out/$stem.$arch.bc"
done

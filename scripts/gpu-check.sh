#!/usr/bin/env bash
# On the GPU machine (Ubuntu 24.04, CUDA 13, no LLVM): builds kjit with the CUDA backend only,
# runs the CUDA and core test suites, then, when asked, the benchmark suite (--bench: the CUDA, cache,
# CuPy and time-to-first-launch rows), only the time-to-first-launch runs (--first-launch) or the
# whole programs of Proteus's benchmark set (--programs, scripts/real-programs.sh), and
# leaves logs and the rewritten docs/benchmarks.md in $OUT (or build-gpu/out). Arguments after
# --programs go to real-programs.sh (e.g. --only lulesh --reps 3).
# One call does it all, to spend little device time.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$root/build-gpu"
out="${OUT:-$build/out}"
mkdir -p "$out"
{
  date -u
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
  nvcc --version | tail -2
  g++ --version | head -1
  nproc
} 2>&1 | tee "$out/machine.txt"

examples=ON
if [ ! -d /usr/include/CLI ] && [ ! -d "$root/.carry-deps/include/CLI" ]; then
  examples=OFF  # the examples need CLI11 (the demo libpng too; CMake leaves it out without)
fi
mode="${1:-}"
shift || true
benchmarks=OFF
if [ "$mode" = "--bench" ] || [ "$mode" = "--first-launch" ] || [ "$mode" = "--programs" ]; then
  benchmarks=ON
fi
# Header-only dependencies the GPU machine lacks (xxHash, nlohmann-json, CLI11) may be carried
# there in .carry-deps/ (include/ and share/cmake/, copied from Debian's packages).
prefix=""
if [ -d "$root/.carry-deps" ]; then
  prefix="-DCMAKE_PREFIX_PATH=$root/.carry-deps"
fi
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DKJIT_WITH_CPU=OFF $prefix \
  -DKJIT_WITH_CUDA=ON -DKJIT_BUILD_EXAMPLES=$examples -DKJIT_BUILD_BENCHMARKS=$benchmarks \
  > "$out/configure.log" 2>&1 || { tail -30 "$out/configure.log"; exit 1; }
cmake --build "$build" -j "$(nproc)" > "$out/build.log" 2>&1 || { grep -E "error|Error" -A5 "$out/build.log" | head -60; exit 1; }
echo "built (examples=$examples, benchmarks=$benchmarks)"

cd "$build"
export KJIT_CACHE_DIR="$build/test-cache"  # the suite's own cache, emptied: it starts cold
rm -rf "$KJIT_CACHE_DIR"
ctest -L "cuda|core" -j 8 --output-on-failure --timeout 300 --output-junit "$out/ctest.xml" \
  > "$out/ctest.log" 2>&1
status=$?
grep -E "tests passed|tests failed|\*\*\*Failed|Timeout" "$out/ctest.log" | head -40
# The skips this machine may have (tests/expected_skips/gpu-check.txt): any other fails the run.
python3 "$root/scripts/summarize_tests.py" "$out/ctest.xml" \
  --expected "$root/tests/expected_skips/gpu-check.txt" > "$out/skips.log" || status=1
head -30 "$out/skips.log"
grep -E "^  (UNEXPECTED|EXPECTED SKIP NOT SEEN)|^skips:" "$out/skips.log"
if [ "$mode" = "--bench" ]; then  # the suite's one script: here, the CUDA and cache rows
  bash "$root/scripts/benchmarks.sh" --reps 5 --build "$build" --out "$out" || status=1
fi
if [ "$mode" = "--first-launch" ]; then  # --bench runs it within benchmarks.sh
  bash "$root/scripts/first-launch.sh" --device cuda --reps 7 --build "$build" --out "$out" ||
    status=1
fi
if [ "$mode" = "--programs" ]; then
  bash "$root/scripts/real-programs.sh" --build "$build" --out "$out" --reps 5 "$@" || status=1
fi
cp "$root/docs/benchmarks.md" "$out/benchmarks.md"
exit $status

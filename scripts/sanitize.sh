#!/usr/bin/env bash
# Builds kjit with Clang 19 under a sanitizer and runs the test suite there:
#   scripts/sanitize.sh address   AddressSanitizer + UndefinedBehaviorSanitizer (+ LeakSanitizer),
#                                 in build-asan/ (which also holds the fuzzers: scripts/fuzz.sh)
#   scripts/sanitize.sh thread    ThreadSanitizer, in build-tsan/
# --build-only (after the kind) builds without testing.
# Any report fails the test that caused it; there are no suppressions. Extra arguments go to
# ctest (for example -L cpu).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
kind="${1:-}"
shift || true
build_only=0
if [ "${1:-}" = "--build-only" ]; then
  build_only=1
  shift
fi
case "$kind" in
  address)
    dir="$root/build-asan"
    # The fuzzers share this build: their coverage instrumentation (fuzzer-no-link) is on every
    # object.
    flags="-fsanitize=address,undefined,fuzzer-no-link -fno-sanitize-recover=undefined"
    flags="$flags -include $root/tests/sanitizers/llvm_without_poisoning.h"
    extra=(-DKJIT_BUILD_FUZZERS=ON)
    ;;
  thread)
    dir="$root/build-tsan"
    flags="-fsanitize=thread"
    extra=()
    ;;
  *)
    echo "usage: scripts/sanitize.sh address|thread [ctest arguments]" >&2
    exit 2
    ;;
esac
"$root/scripts/install-deps.sh"
mkdir -p "$dir"
# -O1 and line tables only: what the sanitizers' reports need (a stack with file and line), at
# about two thirds of the compile time of -O2 -g on CI's two cores.
CC=clang-19 CXX=clang++-19 cmake -S "$root" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS="$flags -fno-omit-frame-pointer" \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only -DNDEBUG" \
  -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only -DNDEBUG" \
  -DCMAKE_EXE_LINKER_FLAGS="$flags" -DCMAKE_SHARED_LINKER_FLAGS="$flags" \
  -DKJIT_BUILD_BENCHMARKS=OFF -DKJIT_BUILD_EXAMPLES=OFF "${extra[@]}" > "$dir/configure.log" \
  || { cat "$dir/configure.log"; exit 1; }
cmake --build "$dir" -j "$(nproc)"
[ "$build_only" -eq 0 ] || exit 0

# use_sigaltstack=0: LLVM installs its own alternate signal stacks on compiling threads, which ASan
# would otherwise try to unmap as its own when the thread ends. allocator_may_return_null=1: a
# failed huge allocation is an error kjit reports (the tests check it), not a crash.
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:use_sigaltstack=0:allocator_may_return_null=1:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:${UBSAN_OPTIONS:-}"
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:allocator_may_return_null=1:${TSAN_OPTIONS:-}"
cd "$dir"
export KJIT_CACHE_DIR="$dir/test-cache"
rm -rf "$KJIT_CACHE_DIR"
status=0
# The checked runs of the corpus and of the kernel suites test what kjit's compile-time
# instrumentation inserts, which a sanitizer does not change; their O0 kernels calling a sanitized
# check before every access ran past 15 minutes under ASan here. The plain suite runs them; the
# checked-mode catalogue (cpu-checked.CheckedMode.*) runs under AddressSanitizer.
left_out='^cpu-checked\.(corpus_gives|kernel_suites_give)_no_report$'
echo "sanitize: leaving out cpu-checked.corpus_gives_no_report and" \
  "cpu-checked.kernel_suites_give_no_report (the plain suite runs them)"
# A thousand failing compiles test the compiler's own state after many failures: NVRTC and
# hipRTC are vendor libraries the sanitizers do not instrument, and on the CPU backend the
# thousand repeat one path that the other failing-compile tests run here. Under AddressSanitizer
# they took over five minutes of CI; the plain suite runs them.
echo "sanitize: leaving out the thousand-failing-compiles tests (the plain suite runs them)"
left_out="$left_out|^core\.(Nvrtc|Hiprtc)\.AThousandFailingCompilesLeaveItWorking$"
left_out="$left_out|^cpu\.FailingCompiles\.AThousandOfThemLeaveTheLibraryAndTheDeviceWorking$"
# The corpus compile runs kjit-warm once per file for two targets (202 processes, over eleven
# minutes under AddressSanitizer), and the compile of one 50 MB source three and a half: both
# mostly time in Clang and NVRTC, which are not instrumented. The source layer still runs on the
# real files here, in-process, in the corpus kernel tests (cpu.Corpus.*) under AddressSanitizer.
# So are the four corpus kernel tests that spend their time running kernels (a third of the
# corpus suite's time under AddressSanitizer); their files' source layer runs in the plain suite.
echo "sanitize: leaving out core.corpus.every_file_compiles, CompileErrors.AFiftyMegabyteSource..." \
  "and four long corpus kernel tests (the plain suite runs them)"
left_out="$left_out|^core\.corpus\.every_file_compiles$"
left_out="$left_out|\.CompileErrors\.AFiftyMegabyteSourceCompilesAndFiftyMegabytesOfGarbage"
left_out="$left_out|^cpu\.Corpus\.(ReductionEveryKernel|LlmC_SoftmaxForward|Shoc_Scan)$"
left_out="$left_out|^cpu\.Corpus\.ThreadFenceReductionLastBlockSumsTheOthers$"
# ThreadSanitizer checks kjit's threads: the compile pool, background variants, caches, streams,
# graphs and the CPU backend's block and warp executors. The suites that test what one kernel
# computes (the corpus kernels, the kernel suites, the kernel language, math, half precision,
# dialects, RAJAPerf, checked mode's catalogue) launch through the same executor as the suites
# kept here, and were over half of the stage's time; those of one compile on the caller's thread
# (NVRTC's, hipRTC's and AMDGPU code objects, every kernel header, compile errors, the
# compile-fail programs) have no thread of kjit's. AddressSanitizer and the plain suite run them.
if [ "$kind" = thread ]; then
  echo "sanitize: leaving out the suites of what kernels compute and of single compiles" \
    "(AddressSanitizer and the plain suite run them)"
  left_out="$left_out|^cpu\.(Corpus|KernelLanguage|MathApi|Half|Dialect|RajaPerf|CompileErrors)\."
  left_out="$left_out|^cpu(-fibers)?\.(Kernels|GridStride|Bitcode|HostCode)\."
  left_out="$left_out|^cpu-checked\.CheckedMode\.|^cpu\.EachHeader/|^compile\."
  left_out="$left_out|^core\.(Nvrtc|NvrtcLog|NvrtcKernelLanguage|Hiprtc|HiprtcKernelLanguage)\."
  left_out="$left_out|^core\.(BitcodeAmdgpu|AmdgpuTarget|HipAbi)\."
fi
# The GPU backends' suites only skip on a machine without a GPU (the plain suite checks those
# skips): eight hundred processes that start and say so.
echo "sanitize: leaving out the cuda, hip and cross-backend suites (no GPU to run them on)"
left_out="$left_out|^(cuda|hip|cross)[.-]"
# Sixty-four sanitized processes of the CPU backend at once would need more memory than a CI
# machine has; the same lease logic runs here in the two- and three-process remote-cache tests,
# and the plain suite runs the sixty-four.
# The MPI example's runtime (Open MPI) is not instrumented; the remote tier it runs is, in the
# remote-cache tests of two and three processes.
echo "sanitize: leaving out cpu.example.fleet_mpi (the plain suite runs it)"
left_out="$left_out|^cpu\.example\.fleet_mpi$"
echo "sanitize: leaving out cpu.RemoteCacheTest.SixtyFourProcesses... (the plain suite runs it)"
left_out="$left_out|^cpu\.RemoteCacheTest\.SixtyFourProcessesStartingColdCompileEachProgramOnce$"
# --timeout: as in scripts/test.sh, with room for the sanitizers' slower tests.
ctest -j "$(nproc)" --timeout 900 --output-on-failure --output-junit ctest-results.xml -E "$left_out" "$@" \
  || status=$?
echo "sanitize: $kind"
python3 "$root/scripts/summarize_tests.py" ctest-results.xml
exit $status

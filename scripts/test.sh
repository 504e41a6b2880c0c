#!/usr/bin/env bash
# Builds kjit and runs the whole test suite (CTest), then lists every skipped test with its reason
# and checks the skips against this kind of machine's list (tests/expected_skips/): a skip the
# list does not expect, or a listed skip that did not happen, fails the run. Extra arguments go
# to ctest (for example -L cpu); a run of part of the suite lists its skips but does not check
# them. KJIT_MACHINE_KIND names the list instead of the kind detected here (CI sets it: a CI
# machine that lost ROCm must fail on its skips, not be taken for a machine without ROCm).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/configure.sh"
cd "$root/build"
# The suite's own disk cache, emptied first: every run starts cold (compiles) and warms as it
# goes (later tests load what earlier ones compiled). The cache tests make their own.
export KJIT_CACHE_DIR="$root/build/test-cache"
rm -rf "$KJIT_CACHE_DIR"

# The machine's kind: an NVIDIA driver or none, and ROCm's HIP runtime (with hipRTC) or none.
machine_kind() {
  local libs gpu=cpu
  # Read whole first: `ldconfig -p | grep -q` can fail under pipefail when grep stops early.
  libs="$( (ldconfig -p || /sbin/ldconfig -p) 2>/dev/null || true)"
  if [ -e /dev/nvidiactl ] || grep -q 'libcuda\.so\.1 ' <<<"$libs"; then
    gpu=nvidia
  fi
  if grep -q 'libamdhip64\.so' <<<"$libs"; then
    echo "$gpu-rocm"
  else
    echo "$gpu"
  fi
}
kind="${KJIT_MACHINE_KIND:-$(machine_kind)}"
expected=()
if [ $# -gt 0 ]; then
  echo "skips: part of the suite (ctest $*): skips are listed, not checked"
elif [ -f "$root/tests/expected_skips/$kind.txt" ]; then
  expected=(--expected "$root/tests/expected_skips/$kind.txt")
elif [ -n "${KJIT_MACHINE_KIND:-}" ]; then
  echo "skips: KJIT_MACHINE_KIND=$KJIT_MACHINE_KIND names no list in tests/expected_skips/" >&2
  exit 2
else
  echo "skips: NOT CHECKED: no list of expected skips for machine kind '$kind'" \
    "(tests/expected_skips/README.md)"
fi

status=0
# --timeout: the limit of a test that sets none, so that a test that hangs fails alone instead of
# holding the run until CI gives up on it.
ctest -j "$(nproc)" --timeout 600 --output-on-failure --output-junit ctest-results.xml "$@" \
  || status=$?
python3 "$root/scripts/summarize_tests.py" ctest-results.xml "${expected[@]}" || status=1
exit $status

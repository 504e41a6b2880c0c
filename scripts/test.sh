#!/usr/bin/env bash
# Builds kjit and runs the whole test suite (CTest), then lists every skipped test with its reason.
# Extra arguments go to ctest (for example -L cpu).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/configure.sh"
cd "$root/build"
# The suite's own disk cache, emptied first: every run starts cold (compiles) and warms as it
# goes (later tests load what earlier ones compiled). The cache tests make their own.
export KJIT_CACHE_DIR="$root/build/test-cache"
rm -rf "$KJIT_CACHE_DIR"
status=0
ctest -j "$(nproc)" --output-on-failure --output-junit ctest-results.xml "$@" || status=$?
python3 "$root/scripts/summarize_tests.py" ctest-results.xml
exit $status

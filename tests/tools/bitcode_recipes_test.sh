#!/usr/bin/env bash
# The recipes of kernels/bitcode/make-bitcode.sh still work: clang++-19 makes bitcode of every
# kind from examples.cu, and kjit-warm compiles each for its target (no GPU needed). Skipped,
# saying why, where clang++-19 is not installed.
#
# usage: bitcode_recipes_test.sh KJIT_WARM REPOSITORY
set -euo pipefail
warm="$1"
repo="$2"
if ! command -v clang++-19 >/dev/null; then
  echo "SKIPPED: clang++-19 is not installed, so make-bitcode.sh's recipes are not rerun"
  exit 0
fi
dir="$(mktemp -d /tmp/kjit-bitcode-recipes-XXXXXX)"
trap 'rm -rf "$dir"' EXIT
"$repo/kernels/bitcode/make-bitcode.sh" "$dir/bc"
kernels=(-k vadd -k 'saxpy<float>' -k 'saxpy<double>' -k histogram256 -k 'reduce_sum<int>'
         -k 'reduce_sum<float>')
check() {  # FILE TARGET
  local out status=0
  out="$("$warm" --cache-dir "$dir/cache" "$dir/bc/$1" "${kernels[@]}" -t "$2" --json - 2>&1)" \
    || status=$?
  if [ "$status" -ne 0 ] || ! grep -q '"status": "compiled"' <<<"$out"; then
    echo "FAILED: $1 for $2 (kjit-warm exited $status):"
    echo "$out"
    exit 1
  fi
  echo "ok: $1 compiled for $2"
}
check examples.host.bc cpu
check examples.sm_75.bc cuda:sm_90
check examples.gfx90a.bc hip:gfx90a
check examples.gfx942.bc hip:gfx942

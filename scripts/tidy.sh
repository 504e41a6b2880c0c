#!/usr/bin/env bash
# Runs clang-tidy (19, the LLVM whose headers kjit includes) on src/ with the build's compile
# commands; prints the findings and exits non-zero when there are any.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tidy="$(command -v clang-tidy-19 || true)"
if [ -z "$tidy" ]; then
  echo "tidy: clang-tidy-19 is not installed (apt-get install clang-tidy-19)" >&2
  exit 2
fi
[ -f "$root/build/compile_commands.json" ] || "$root/scripts/configure.sh"
cd "$root"
outs=$(mktemp -d)
# One clang-tidy per core and file, each writing its own output, so findings never interleave.
# The files that parse LLVM's and Clang's headers (the CPU backend and the LLVM layer) take the
# longest and go first, so that no long one is left running alone at the end.
{
  git ls-files 'src/backends/cpu/*.cpp' 'src/backends/llvm/*.cpp'
  git ls-files 'src/*.cpp'
} | awk '!seen[$0]++' | xargs -P "$(nproc)" -n 1 sh -c \
  '"$0" -p build --quiet "$@" > "$(mktemp -p "'"$outs"'")" 2>/dev/null || true' "$tidy"
findings=$(cat "$outs"/* | grep -cE "(warning|error): " || true)
cat "$outs"/*
rm -rf "$outs"
echo "tidy: $findings findings"
[ "$findings" -eq 0 ]

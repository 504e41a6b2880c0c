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
# One clang-tidy per core, four files each; each writes its own file, so findings never interleave.
git ls-files 'src/*.cpp' | xargs -P "$(nproc)" -n 4 sh -c \
  '"$0" -p build --quiet "$@" > "$(mktemp -p "'"$outs"'")" 2>/dev/null || true' "$tidy"
findings=$(cat "$outs"/* | grep -cE "(warning|error): " || true)
cat "$outs"/*
rm -rf "$outs"
echo "tidy: $findings findings"
[ "$findings" -eq 0 ]

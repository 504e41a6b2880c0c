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
files=$(git ls-files 'src/*.cpp')
out=$(mktemp)
# shellcheck disable=SC2086
"$tidy" -p build --quiet $files > "$out" 2>/dev/null || true
findings=$(grep -cE "(warning|error): " "$out" || true)
cat "$out"
rm -f "$out"
echo "tidy: $findings findings"
[ "$findings" -eq 0 ]

#!/usr/bin/env bash
# Configures and builds kjit in build/ (Release), after installing dependencies. Used by the
# demo, test and benchmark scripts; extra arguments go to CMake.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/install-deps.sh"
mkdir -p "$root/build"
cmake -S "$root" -B "$root/build" -G Ninja -DCMAKE_BUILD_TYPE=Release "$@" > "$root/build/configure.log" \
  || { cat "$root/build/configure.log"; exit 1; }
cmake --build "$root/build" -j "$(nproc)"

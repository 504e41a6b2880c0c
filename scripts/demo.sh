#!/usr/bin/env bash
# The main demo: renders the Mandelbrot set with kjit on the selected device (KJIT_DEVICE, else
# the best GPU, else the CPU), writes mandelbrot.png, and checks it against the host image.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/configure.sh"
"$root/build/examples/kjit-mandelbrot" --verify --out "${1:-mandelbrot.png}"

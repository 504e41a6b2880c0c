#!/usr/bin/env bash
# Runs the CPU benchmarks (kjit against ahead-of-time OpenMP, cold compile per kernel), prints
# `ratio <case> <kjit time / baseline time>` rows, and rewrites the CPU section of
# docs/benchmarks.md. --quick: fewer, shorter repetitions (a couple of minutes on 2 cores).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
reps=7
min_time=1
if [ "${1:-}" = "--quick" ]; then
  reps=3
  min_time=0.2
fi
"$root/scripts/configure.sh"
out="$root/build/bench-cpu.json"
"$root/build/benchmarks/kjit_bench_cpu" --benchmark_repetitions="$reps" --benchmark_min_time="$min_time" \
  --benchmark_report_aggregates_only=true --benchmark_out="$out" --benchmark_out_format=json
python3 "$root/benchmarks/report.py" "$out" --markdown "$root/docs/benchmarks.md" --section cpu

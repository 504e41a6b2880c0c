#!/usr/bin/env bash
# Cold compiles of 1 and 32 programs (kjit_bench_cache's cache/cold rows: one after another, and
# all at once through kjit::build_all) with concurrent compiles of a serial compiler forked
# (KJIT_COMPILE_FORK=auto, the default) and kept in process (off), in alternating rounds so that
# both ways see the same machine. docs/benchmarks.md quotes its figures.
#   scripts/cold-compile.sh --build DIR --device cuda|cpu [--rounds N] [--out DIR]
set -euo pipefail
build=""
device=cuda
rounds=3
out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build="$2"; shift 2 ;;
    --device) device="$2"; shift 2 ;;
    --rounds) rounds="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    *) echo "cold-compile.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
bench="$build/benchmarks/kjit_bench_cache"
[ -x "$bench" ] || { echo "cold-compile.sh: no $bench (configure with KJIT_BUILD_BENCHMARKS=ON)" >&2; exit 2; }
out="${out:-$(mktemp -d)}"
mkdir -p "$out"
echo "$(nproc) CPUs; $rounds rounds; each row the median of 5 repetitions, in ms"
for round in $(seq 1 "$rounds"); do
  for fork in auto off; do
    json="$out/cold-compile-$device-$fork-$round.json"
    KJIT_DEVICE=$device KJIT_COMPILE_FORK=$fork "$bench" --benchmark_filter='cache/cold/' \
      --benchmark_repetitions=5 --benchmark_report_aggregates_only=true \
      --benchmark_out_format=json --benchmark_out="$json" > "$out/cold-compile.log" 2>&1
    python3 - "$json" "$fork" "$round" <<'PY'
import json, sys
rows = {"/".join(b["run_name"].split("/")[:3]): b["real_time"] for b in json.load(open(sys.argv[1]))["benchmarks"]
        if b.get("aggregate_name") == "median"}
one = rows.get("cache/cold/1", float("nan"))
par = rows.get("cache/cold/32_parallel", float("nan"))
print(f"round {sys.argv[3]} fork={sys.argv[2]:4}: 1 program {one:7.1f}, 32 one after another "
      f"{rows.get('cache/cold/32_serial', float('nan')):7.1f}, 32 by build_all {par:7.1f} "
      f"({par / one:.1f}x one)")
PY
  done
done

#!/usr/bin/env bash
# Whole programs of Proteus's benchmark set (benchmarks/programs/) end to end. On a GPU (--device
# cuda, the default): the nvcc build of the upstream program as shipped, and kjit's host program
# with the kernel file as shipped, plain and specialised, each with a cold and a warm kernel
# cache; kjit's outputs are checked against the nvcc build of the same kernel. On the CPU
# (--device cpu): kjit's host program on the CPU backend against an OpenMP build of the same
# loops on every core, outputs checked against it. Writes the medians to <out>/programs.md and
# every run to <out>/programs-runs.csv.
#   scripts/real-programs.sh --build DIR [--device cuda|cpu] [--out DIR] [--reps N] [--arch 90]
#                            [--only PROGRAM[,PROGRAM...]]
# DIR is a build with KJIT_BUILD_BENCHMARKS=ON and the backend asked for (scripts/gpu-check.sh
# makes one for CUDA); on CUDA nvcc must be on PATH or in /usr/local/cuda/bin.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build=""
out=""
reps=5
arch=90
device=cuda
only=""
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --reps) reps="$2"; shift 2 ;;
    --arch) arch="$2"; shift 2 ;;
    --device) device="$2"; shift 2 ;;
    --only) only="$2"; shift 2 ;;
    *) echo "usage: scripts/real-programs.sh --build DIR [--device cuda|cpu] [--out DIR]" \
         "[--reps N] [--arch 90] [--only PROGRAM[,PROGRAM...]]" >&2
       exit 2 ;;
  esac
done
[ -n "$build" ] || { echo "real-programs: --build DIR is needed" >&2; exit 2; }
case "$device" in
  cuda | cpu) export KJIT_DEVICE="$device" ;;
  *) echo "real-programs: --device is cuda or cpu, not '$device'" >&2; exit 2 ;;
esac
out="${out:-$build/programs}"
mkdir -p "$out"
export PATH="$PATH:/usr/local/cuda/bin"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
programs="$root/benchmarks/programs"
status=0

# Milliseconds that a command takes, its output in $work/last.txt; fails when the command does.
wall_ms() {
  local start end
  start=$(date +%s%N)
  "$@" > "$work/last.txt" 2>&1 || { cat "$work/last.txt" >&2; return 1; }
  end=$(date +%s%N)
  echo $(( (end - start) / 1000000 ))
}
kernel_ms() {  # the kernels' time per launch, as the programs report it
  local ms
  ms="$(sed -n 's/^Average kernel execution time \([0-9.]*\) (ms)$/\1/p' "$work/last.txt")"
  if [ -z "$ms" ]; then  # sw4ck as shipped: a line per data set, whose kernels a repeat runs
    ms="$(awk '/^Average execution time of sw4ck kernels: / {sum += $7; n++}
               END {if (n) printf "%f", sum}' "$work/last.txt")"
  fi
  echo "$ms"
}

# A program (or version) that reports no kernel time leaves that column empty.
echo "program,version,cache,rep,wall_ms,kernel_ms" > "$out/programs-runs.csv"
record() {  # program version cache rep wall
  echo "$1,$2,$3,$4,$5,$(kernel_ms)" >> "$out/programs-runs.csv"
}

# Whether two output files are equal, bit for bit; says which values differ when not. The values
# are floats, or doubles with a fifth argument `d`.
same_output() {  # program version expected got [f|d]
  if cmp -s "$3" "$4"; then
    echo "$1: $2's output equals the baseline's, bit for bit"
    return 0
  fi
  echo "$1: $2's output DIFFERS from the baseline's" >&2
  python3 - "$3" "$4" "${5:-f}" <<'PY' >&2 || true
import struct, sys
a, b = (open(f, 'rb').read() for f in sys.argv[1:3])
kind = sys.argv[3]
size = struct.calcsize(kind)
fa, fb = (struct.unpack('%d%s' % (len(x) // size, kind), x[: len(x) // size * size]) for x in (a, b))
diff = [i for i in range(min(len(fa), len(fb))) if struct.pack(kind, fa[i]) != struct.pack(kind, fb[i])]
name = 'doubles' if kind == 'd' else 'floats'
print(f"{len(a)} and {len(b)} bytes; {len(diff)} of {len(fa)} {name} differ; first: "
      f"{[(i, fa[i], fb[i]) for i in diff[:5]]}")
PY
  status=1
  return 1
}

# Whether two files of floats agree to a relative `tolerance` (NaN where the other is NaN): for a
# baseline built by another compiler with fast math, whose reassociations differ in last bits.
close_output() {  # program version expected got tolerance
  if python3 - "$3" "$4" "$5" <<'PY'; then
import math, struct, sys
a, b = (open(f, 'rb').read() for f in sys.argv[1:3])
tol = float(sys.argv[3])
if len(a) != len(b):
    print(f"{len(a)} and {len(b)} bytes"); sys.exit(1)
fa, fb = (struct.unpack('%df' % (len(x) // 4), x) for x in (a, b))
bad = [i for i, (x, y) in enumerate(zip(fa, fb))
       if not (math.isnan(x) and math.isnan(y)) and abs(x - y) > tol * max(abs(x), abs(y), 1e-30)]
same = sum(struct.pack('f', x) == struct.pack('f', y) for x, y in zip(fa, fb))
print(f"{same} of {len(fa)} floats bit for bit, the rest within {tol:g}" if not bad else
      f"{len(bad)} of {len(fa)} floats differ by more than {tol:g}; first: "
      f"{[(i, fa[i], fb[i]) for i in bad[:5]]}")
sys.exit(1 if bad else 0)
PY
    echo "$1: $2's output agrees with the baseline's (relative $5)"
    return 0
  fi
  echo "$1: $2's output DIFFERS from the baseline's beyond relative $5" >&2
  status=1
  return 1
}

# One repetition's kjit rows of a program on the GPU: plain and specialised (--specialise), each
# with an empty kernel cache (cold), then with the one that run left (warm). With
# kjit_waiting_rows=yes (set by a bench.sh before the call), also specialised with its launches
# waiting for their variants (--wait-for-variant) instead of running the kernel itself meanwhile.
record_kjit_rows() {  # program rep kjit-binary args...
  local program="$1" rep="$2" kjit="$3" mode cache modes=(plain specialised)
  shift 3
  [ "${kjit_waiting_rows:-}" = yes ] && modes+=(specialised-waiting)
  for mode in "${modes[@]}"; do
    local flag=()
    [ "$mode" = specialised ] && flag=(--specialise)
    [ "$mode" = specialised-waiting ] && flag=(--specialise --wait-for-variant)
    cache="$work/cache-$program-$rep-$mode"
    record "$program" "kjit-$mode" cold "$rep" \
      "$(KJIT_CACHE_DIR="$cache" wall_ms "$kjit" "$@" "${flag[@]}")"
    record "$program" "kjit-$mode" warm "$rep" \
      "$(KJIT_CACHE_DIR="$cache" wall_ms "$kjit" "$@" "${flag[@]}")"
  done
}

# One repetition's row of a program's Jitify build, run in its folder (Jitify reads the headers
# its kernel string includes from the working directory); a failed run fails the script.
record_jitify_row() {  # program rep folder binary args...
  local program="$1" rep="$2" folder="$3" binary="$4" ms
  shift 4
  if ms="$(cd "$folder" && wall_ms "$binary" "$@")"; then
    record "$program" jitify - "$rep" "$ms"
  else
    echo "$program: Jitify's run $rep FAILED" >&2
    status=1
  fi
}

# $reps repetitions of a program's CPU rows, interleaved: its OpenMP build, then kjit plain and
# specialised from the cache that the output checks filled ($work/check-cache).
record_cpu_rows() {  # program openmp-binary kjit-binary args...
  local program="$1" openmp="$2" kjit="$3" rep mode
  shift 3
  for rep in $(seq 1 "$reps"); do
    record "$program" openmp - "$rep" "$(wall_ms "$openmp" "$@")"
    for mode in plain specialised; do
      local flag=()
      [ "$mode" = specialised ] && flag=(--specialise)
      record "$program" "kjit-$mode" warm "$rep" \
        "$(KJIT_CACHE_DIR="$work/check-cache" wall_ms "$kjit" "$@" "${flag[@]}")"
    done
  done
}

# Each program's bench.sh: baselines built, outputs checked, runs timed, with the functions above
# and $device.
for bench in "$programs"/*/bench.sh; do
  [ -z "$only" ] || [[ ",$only," == *",$(basename "$(dirname "$bench")"),"* ]] || continue
  kjit_waiting_rows=no
  # shellcheck source=/dev/null
  source "$bench" || { echo "real-programs: $bench failed" >&2; status=1; }
done

python3 - "$out/programs-runs.csv" "$reps" > "$out/programs.md" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
by = {}
for r in rows:
    by.setdefault((r['program'], r['version'], r['cache']), []).append(r)
print(f"Medians of {sys.argv[2]} runs; end to end is the process's wall time, compiles included.\n")
print("| program | version | cache | end to end (ms) | kernels (ms per launch) | end to end, baseline / this |")
print("|---|---|---|---|---|---|")
aot = {}
for (prog, version, cache), rs in by.items():
    wall = statistics.median(float(r['wall_ms']) for r in rs)
    times = [float(r['kernel_ms']) for r in rs if r['kernel_ms']]
    kern = f"{statistics.median(times):.3f}" if times else ""
    if version in ('nvcc-aot', 'openmp'):
        aot[prog] = wall
    ratio = f"{aot[prog] / wall:.2f}x" if prog in aot else ""
    print(f"| {prog} | {version} | {cache} | {wall:.0f} | {kern} | {ratio} |")
PY
cat "$out/programs.md"
exit $status

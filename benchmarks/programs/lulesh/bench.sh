# LULESH for scripts/real-programs.sh (sourced there): the nvcc build of upstream/lulesh.cu as
# shipped (with standin/allocator.h for the allocator.h it includes), kjit_lulesh plain and
# specialised; no Jitify version of LULESH exists. On the CPU: LLNL's LULESH 2.0.3 (openmp/) on
# every core against kjit_lulesh on the CPU backend.
kjit_lulesh="$build/benchmarks/programs/kjit_program_lulesh"
lulesh="$programs/lulesh"

# The lines both builds print that must agree: the iteration count and the final origin energy.
lulesh_result() {  # output-file
  grep -E '^ +(Iteration count|Final Origin Energy) +=' "$1" | sed -E 's/ +/ /g; s/ $//'
}

if [ "$device" = cpu ]; then
  # 20 elements a side (upstream's experiment: 128; LULESH 2.0.3's default: 30), 575 cycles.
  lulesh_args=(-s 20)
  # LULESH 2.0.3 as its Makefile builds it (-O3 -fopenmp), with -march=native as the other
  # programs' OpenMP baselines. It allocates its temporaries anew each cycle: glibc is told to
  # keep freed memory (no trim, no mmap), which spares it the page faults of fresh pages (on 2
  # cores, 0.6 s of system time on one thread and 1.4 s on two, and most of its scaling).
  g++ -O3 -march=native -fopenmp -DUSE_MPI=0 -w -o "$work/lulesh-openmp-bin" \
    "$lulesh"/openmp/lulesh{,-comm,-viz,-util,-init}.cc
  printf '#!/usr/bin/env bash\nMALLOC_TRIM_THRESHOLD_=4294967295 MALLOC_MMAP_THRESHOLD_=33554432 exec %q "$@"\n' \
    "$work/lulesh-openmp-bin" > "$work/lulesh-openmp"
  chmod +x "$work/lulesh-openmp"
  "$work/lulesh-openmp" "${lulesh_args[@]}" > "$work/lulesh-openmp.txt"
  lulesh_check_against="$work/lulesh-openmp.txt"
  # Its many short parallel regions a cycle scale only on cores nothing else uses.
  echo "lulesh: OpenMP on 1 thread $(OMP_NUM_THREADS=1 wall_ms "$work/lulesh-openmp" \
    "${lulesh_args[@]}") ms, on $(nproc) threads $(wall_ms "$work/lulesh-openmp" \
    "${lulesh_args[@]}") ms"
else
  # upstream experiments.json's "default" input. The program writes xyz.asc where it runs.
  lulesh_args=(-s 128)
  nvcc -O3 -DNDEBUG -arch="sm_$arch" -I"$lulesh/standin" -I"$lulesh/upstream" \
    -o "$work/lulesh-aot" "$lulesh/upstream/lulesh.cu"
  (cd "$work" && "$work/lulesh-aot" "${lulesh_args[@]}") > "$work/lulesh-nvcc.txt"
  lulesh_check_against="$work/lulesh-nvcc.txt"
fi
echo "lulesh: baseline: $(lulesh_result "$lulesh_check_against" | tr '\n' ' ')"

# kjit plain must print the baseline's iteration count and origin energy; the variants (waited
# for, so that they are what ran) must give plain's energies and positions (--expect).
for mode in plain specialised; do
  flag=(--out "$work/lulesh-plain.bin")
  [ "$mode" = specialised ] &&
    flag=(--specialise --wait-for-variant --expect "$work/lulesh-plain.bin")
  if ! KJIT_CACHE_DIR="$work/check-cache" "$kjit_lulesh" "${lulesh_args[@]}" "${flag[@]}" \
      > "$work/lulesh-$mode.txt" 2>&1; then
    tail -n 4 "$work/lulesh-$mode.txt" >&2
    echo "lulesh: kjit $mode FAILED, or its outputs differ from plain's" >&2
    status=1
  elif [ "$(lulesh_result "$work/lulesh-$mode.txt")" != "$(lulesh_result "$lulesh_check_against")" ]
  then
    lulesh_result "$work/lulesh-$mode.txt" >&2
    echo "lulesh: kjit $mode's iteration count or origin energy DIFFERS from the baseline's" >&2
    status=1
  else
    echo "lulesh: kjit $mode: $(lulesh_result "$work/lulesh-$mode.txt" | tr '\n' ' ')" \
      "$(grep '^Against' "$work/lulesh-$mode.txt" || true)"
  fi
done

if [ "$device" = cpu ]; then
  echo "lulesh: kjit plain on 1 thread $(KJIT_CPU_THREADS=1 KJIT_CACHE_DIR="$work/check-cache" \
    wall_ms "$kjit_lulesh" "${lulesh_args[@]}") ms (warm cache)"
  record_cpu_rows lulesh "$work/lulesh-openmp" "$kjit_lulesh" "${lulesh_args[@]}"
  return 0
fi
for rep in $(seq 1 "$reps"); do
  record lulesh nvcc-aot - "$rep" "$(cd "$work" && wall_ms "$work/lulesh-aot" "${lulesh_args[@]}")"
  record_kjit_rows lulesh "$rep" "$kjit_lulesh" \
    "${lulesh_args[@]}"
done

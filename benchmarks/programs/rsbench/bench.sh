# rsbench for scripts/real-programs.sh (sourced there): the nvcc build of upstream/ as shipped,
# kjit_rsbench plain and with the kernel's annotation on (--specialise), and Proteus's Jitify
# version (upstream-jitify/) on third_party/jitify/jitify.hpp. Upstream's Makefile builds
# with -O3 -std=c++14, no fast math. The program launches its kernel once: the kernel figure of the
# kjit rows is that launch, and under --specialise it includes the variant's compile (cold) or
# load (warm), as in Proteus; the nvcc program prints its kernel time in seconds, to two places, in
# a line the table does not read. The outputs compared are each lookup's result (an int32 each);
# upstream's own check of the checksum decides each program's exit status.
rsbench="$programs/rsbench"
kjit_rs="$build/benchmarks/programs/kjit_program_rsbench"
rs_host=("$rsbench/upstream/io.cu" "$rsbench/upstream/init.cu" "$rsbench/upstream/material.cu"
  "$rsbench/upstream/utils.cu")

# On the CPU: upstream's lookup loop under OpenMP's parallel for (openmp_rsbench.cpp) on every
# core, first on one thread to show that it scales. 40000 lookups of upstream's default input
# instead of 10.2 million: about 0.4 s on two cores. upstream's check knows the checksums of its
# standard inputs only, so every run here is held to the OpenMP build's checksum (--expect-hash).
if [ "$device" = cpu ]; then
  rs_cpu_args=(-s large -m event -l 40000)
  g++ -O3 -march=native -fopenmp -std=c++17 -I"$rsbench/host" -Dmain=rsbench_main -x c++ -c \
    -o "$work/rs-main.o" "$rsbench/upstream/main.cu"
  # openmp_rsbench.cpp includes upstream's device functions: simulation.cu from line 191 on.
  tail -n +191 "$rsbench/upstream/simulation.cu" > "$work/rs-device-functions.h"
  head -n 1 "$work/rs-device-functions.h" | grep -q '^template <class INT_T' ||
    { echo "rsbench: upstream/simulation.cu's device functions no longer start at line 191" >&2; }
  g++ -O3 -march=native -fopenmp -std=c++17 -I"$rsbench/host" -I"$work" -o "$work/rs-openmp" \
    "$rsbench/openmp_rsbench.cpp" -x c++ "${rs_host[@]}" -x none "$work/rs-main.o"
  "$work/rs-openmp" "${rs_cpu_args[@]}" --out "$work/rs-openmp.bin" > "$work/rs-openmp.txt" || true
  rs_hash="$(sed -n 's/^Verification checksum: \([0-9]*\).*/\1/p' "$work/rs-openmp.txt")"
  if [ -z "$rs_hash" ]; then
    cat "$work/rs-openmp.txt" >&2
    echo "rsbench: the OpenMP build FAILED to run" >&2
    status=1
    return 0
  fi
  rs_cpu_args+=(--expect-hash "$rs_hash")
  one="$(OMP_NUM_THREADS=1 wall_ms "$work/rs-openmp" "${rs_cpu_args[@]}")"
  all="$(wall_ms "$work/rs-openmp" "${rs_cpu_args[@]}")"
  echo "rsbench: OpenMP on 1 thread ${one} ms, on" \
    "$(sed -n 's/^OpenMP threads //p' "$work/rs-openmp.txt") threads ${all} ms (checksum $rs_hash)"
  for mode in plain specialised; do
    flag=()
    [ "$mode" = specialised ] && flag=(--specialise --wait-for-variant)
    if KJIT_CACHE_DIR="$work/check-cache" "$kjit_rs" "${rs_cpu_args[@]}" "${flag[@]}" \
        --out "$work/rs-$mode.bin" > "$work/rs-$mode.txt" 2>&1; then
      same_output rsbench "kjit $mode (each lookup's result)" "$work/rs-openmp.bin" \
        "$work/rs-$mode.bin" || true
    else
      tail -n 3 "$work/rs-$mode.txt" >&2
      echo "rsbench: kjit $mode FAILED (or its checksum is not $rs_hash)" >&2
      status=1
    fi
  done
  record_cpu_rows rsbench "$work/rs-openmp" "$kjit_rs" "${rs_cpu_args[@]}"
  return 0
fi

rs_args=(-s large -m event)  # upstream experiments.json's "default" input
(cd "$rsbench/upstream" && nvcc -O3 -std=c++14 -arch="sm_$arch" -o "$work/rs-aot" main.cu \
  simulation.cu io.cu init.cu material.cu utils.cu)
nvcc -O3 -std=c++14 -arch="sm_$arch" -o "$work/rs-nvcc-out" "$rsbench/nvcc_rsbench.cu" \
  "${rs_host[@]}"

# Jitify. upstream-jitify/simulation.cu includes "../../external/jitify/jitify.hpp" (Proteus's
# layout), so it is built from a copy laid out that way under $work, unchanged. Its kernel is a
# string (simulation.cuh) whose six annotated arguments are template parameters, instantiated
# with their values at run time; Jitify reads the "rsbench.h" it includes from the working
# directory, so it runs in that copy's folder, where NVRTC's --time also writes jitify.trace.
# NVRTC compiles for the GPU it runs on. It writes no per-lookup output: upstream's check of its
# checksum (its exit status) is what is compared. Jitify caches in memory only, so every run
# compiles: its cache column is "-".
rs_jitify_dir="$work/jitify/cuda-jitify/rsbench"
rs_jitify=""
mkdir -p "$rs_jitify_dir" "$work/jitify/external/jitify"
cp "$rsbench/upstream-jitify/"*.cu "$rsbench/upstream-jitify/simulation.cuh" \
  "$rsbench/upstream-jitify/rsbench.h" "$rs_jitify_dir/"
cp "$programs/third_party/jitify/jitify.hpp" "$work/jitify/external/jitify/"
cuda_lib="$(dirname "$(command -v nvcc)")/../lib64"
# libcuda from the toolkit's stubs when the driver's folder has no unversioned libcuda.so; the
# driver's libcuda.so.1 is the one loaded at run time.
if ! (cd "$rs_jitify_dir" && nvcc -O3 -std=c++14 -arch="sm_$arch" -o "$work/rs-jitify" main.cu \
    simulation.cu io.cu init.cu material.cu utils.cu -L"$cuda_lib/stubs" \
    -Xlinker -rpath="$cuda_lib" -lcuda -lnvrtc -ldl); then
  echo "rsbench: the Jitify build FAILED (nvcc)" >&2
  status=1
elif ! (cd "$rs_jitify_dir" && "$work/rs-jitify" "${rs_args[@]}") > "$work/rs-jitify.txt" 2>&1; then
  tail -n 5 "$work/rs-jitify.txt" >&2
  echo "rsbench: the Jitify build FAILED to run, or upstream's check of its checksum did" >&2
  status=1
else
  echo "rsbench: Jitify's build runs; $(grep '^Verification checksum' "$work/rs-jitify.txt")"
  rs_jitify="$work/rs-jitify"
fi

"$work/rs-nvcc-out" "${rs_args[@]}" --out "$work/rs-nvcc.bin" > /dev/null
for mode in plain specialised; do
  flag=()
  [ "$mode" = specialised ] && flag=(--specialise --wait-for-variant)
  if KJIT_CACHE_DIR="$work/check-cache" "$kjit_rs" "${rs_args[@]}" "${flag[@]}" \
      --out "$work/rs-$mode.bin" > "$work/rs-$mode.txt" 2>&1; then
    same_output rsbench "kjit $mode (each lookup's result)" "$work/rs-nvcc.bin" \
      "$work/rs-$mode.bin" || true
  else
    tail -n 3 "$work/rs-$mode.txt" >&2
    echo "rsbench: kjit $mode FAILED (or upstream's check of its checksum did)" >&2
    status=1
  fi
done
# Also specialised with launches waiting for the variant: with a cold cache the default runs
# the kernel itself in every launch that comes before the variant's compile ends.
kjit_waiting_rows=yes
for rep in $(seq 1 "$reps"); do
  record rsbench nvcc-aot - "$rep" "$(wall_ms "$work/rs-aot" "${rs_args[@]}")"
  if [ -n "$rs_jitify" ]; then
    record_jitify_row rsbench "$rep" "$rs_jitify_dir" "$rs_jitify" "${rs_args[@]}"
  fi
  record_kjit_rows rsbench "$rep" "$kjit_rs" "${rs_args[@]}"
done

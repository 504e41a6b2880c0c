# feynman-kac for scripts/real-programs.sh (sourced there): the nvcc build of upstream/main.cu as
# shipped, kjit_feynman-kac plain and with the kernel's annotation on (--specialise), and Proteus's
# Jitify version (upstream-jitify/) on third_party/jitify/jitify.hpp; on the CPU, the shipped kernel
# under OpenMP (openmp_feynman-kac.cpp) and kjit_feynman-kac plain and specialised.
# Upstream's Makefile builds with -O3 and no fast math. Its "default" input is 1 iteration, so
# the kernel figure of the kjit rows is the first launch, compile included; the nvcc program
# reports its kernel time in seconds, in a line the table does not read.
kjit_fk="$build/benchmarks/programs/kjit_program_feynman-kac"

# On the CPU: the shipped kernel under OpenMP's parallel for (openmp_feynman-kac.cpp) on every
# core, first on one thread to show that it scales; a grid of 32 points in y (upstream: 128) and
# 200 paths a point (upstream: 1000), one launch as upstream's default input.
if [ "${device:-}" = cpu ]; then
  fk_cpu_args=(1 --nj 32 --paths 200)
  g++ -O3 -march=native -fopenmp -std=c++20 -o "$work/fk-openmp" \
    "$programs/feynman-kac/openmp_feynman-kac.cpp"
  "$work/fk-openmp" "${fk_cpu_args[@]}" --out "$work/fk-openmp.bin" > "$work/fk-openmp.txt"
  one="$(OMP_NUM_THREADS=1 wall_ms "$work/fk-openmp" "${fk_cpu_args[@]}")"
  all="$(wall_ms "$work/fk-openmp" "${fk_cpu_args[@]}")"
  echo "feynman-kac: OpenMP on 1 thread ${one} ms, on" \
    "$(sed -n 's/^OpenMP threads //p' "$work/fk-openmp.txt") threads ${all} ms"
  # n_inside equal, err (a sum of atomics in no set order) within 1e-12: kjit's --expect.
  for mode in plain specialised; do
    flag=()
    [ "$mode" = specialised ] && flag=(--specialise --wait-for-variant)
    if KJIT_CACHE_DIR="$work/check-cache" "$kjit_fk" "${fk_cpu_args[@]}" "${flag[@]}" \
        --expect "$work/fk-openmp.bin" > "$work/fk-$mode.txt" 2>&1 &&
        grep -q '^PASS$' "$work/fk-$mode.txt"; then
      echo "feynman-kac: kjit $mode's output (n_inside, err) equals OpenMP's (err to 1e-12)"
    else
      tail -n 4 "$work/fk-$mode.txt" >&2
      echo "feynman-kac: kjit $mode's output DIFFERS from OpenMP's" >&2
      status=1
    fi
  done
  record_cpu_rows feynman-kac "$work/fk-openmp" "$kjit_fk" "${fk_cpu_args[@]}"
  return 0
fi
fk_args=(1)  # upstream experiments.json's "default" input: iterations (nj 128, 1000 paths)
nvcc -O3 -std=c++17 -arch="sm_$arch" -o "$work/fk-aot" "$programs/feynman-kac/upstream/main.cu"
nvcc -O3 -std=c++17 -arch="sm_$arch" -o "$work/fk-nvcc-out" \
  "$programs/feynman-kac/nvcc_feynman-kac.cu"
"$work/fk-nvcc-out" "${fk_args[@]}" "$work/fk-nvcc.bin" > "$work/fk-nvcc.txt"

# Jitify. upstream-jitify/main.cu includes "../../external/jitify/jitify.hpp" (Proteus's layout),
# so it is built from a copy laid out that way under $work, unchanged, with its Makefile's
# -std=c++20 -O3 (its -Wall, warnings only, left out as for the nvcc build). Its kernel is a
# string (kernel.cuh) whose ni, nj and N are template parameters instantiated with their values
# at run time; a, b, h and rth, the arguments upstream/kernel.h annotates, stay arguments. Jitify
# reads the "util.h" that the string includes from the working directory, so it runs in that
# copy's folder, where NVRTC's --time also writes jitify.trace. NVRTC compiles for the GPU it runs
# on (main.cu gives no -arch), without fast math, as the nvcc build. It writes no output file: the
# RMS error it prints must be a number (NaN when the kernel did not run: main.cu does not check
# its launch), equal to the nvcc build's or within 1.5e-6 relatively, about one unit in its last
# printed place (the kernel sums err with atomics, in no set order). Its kernel time, in
# seconds, starts before the instantiation, so it includes the NVRTC compile; the table does not
# read it. Jitify caches in memory only, so every run compiles: its cache column is "-".
fk_jitify_dir="$work/jitify/cuda-jitify/feynman-kac"
fk_jitify=""
mkdir -p "$fk_jitify_dir" "$work/jitify/external/jitify"
cp "$programs/feynman-kac/upstream-jitify/main.cu" "$programs/feynman-kac/upstream-jitify/util.h" \
  "$programs/feynman-kac/upstream-jitify/kernel.cuh" "$fk_jitify_dir/"
cp "$programs/third_party/jitify/jitify.hpp" "$work/jitify/external/jitify/"
cuda_lib="$(dirname "$(command -v nvcc)")/../lib64"
fk_rms='s/^ *RMS absolute error in solution = \([0-9.]*e[-+][0-9]*\)$/\1/p'
# libcuda from the toolkit's stubs when the driver's folder has no unversioned libcuda.so; the
# driver's libcuda.so.1 is the one loaded at run time.
if ! nvcc -O3 -std=c++20 -arch="sm_$arch" -o "$work/fk-jitify" "$fk_jitify_dir/main.cu" \
    -L"$cuda_lib/stubs" -Xlinker -rpath="$cuda_lib" -lcuda -lnvrtc -ldl; then
  echo "feynman-kac: the Jitify build FAILED (nvcc)" >&2
  status=1
elif ! (cd "$fk_jitify_dir" && "$work/fk-jitify" "${fk_args[@]}") > "$work/fk-jitify.txt" 2>&1 \
    || [ -z "$(sed -n "$fk_rms" "$work/fk-jitify.txt")" ]; then
  tail -n 8 "$work/fk-jitify.txt" >&2
  echo "feynman-kac: the Jitify build FAILED to run (NVRTC compile, module load or launch:" \
    "no RMS error, or NaN)" >&2
  status=1
else
  fk_jitify_err="$(sed -n "$fk_rms" "$work/fk-jitify.txt")"
  fk_nvcc_err="$(sed -n "$fk_rms" "$work/fk-nvcc.txt")"
  echo "feynman-kac: Jitify's build runs; RMS absolute error in solution = $fk_jitify_err"
  fk_jitify="$work/fk-jitify"
  if [ "$fk_jitify_err" = "$fk_nvcc_err" ]; then
    echo "feynman-kac: Jitify's RMS error equals the nvcc build's"
  elif [ -n "$fk_nvcc_err" ] && awk -v a="$fk_nvcc_err" -v b="$fk_jitify_err" \
      'BEGIN { d = a - b; exit !(d <= 1.5e-6 * a && -d <= 1.5e-6 * a) }'; then
    echo "feynman-kac: Jitify's RMS error agrees with the nvcc build's ($fk_nvcc_err) to 1.5e-6"
  else
    echo "feynman-kac: Jitify's RMS error ('$fk_jitify_err') DIFFERS from the nvcc build's" \
      "('$fk_nvcc_err')" >&2
    status=1
  fi
fi

# The kernel sums err with atomics, in the order the threads finish: the sum may differ in its
# last bits from run to run, nvcc's too. kjit's --expect wants n_inside equal and err within
# 1e-12 of the nvcc build's, relatively.
for mode in plain specialised; do
  flag=()
  [ "$mode" = specialised ] && flag=(--specialise --wait-for-variant)
  if KJIT_CACHE_DIR="$work/check-cache" "$kjit_fk" "${fk_args[@]}" "${flag[@]}" \
      --expect "$work/fk-nvcc.bin" > "$work/fk-$mode.txt" 2>&1; then
    echo "feynman-kac: kjit $mode's output (n_inside, err) equals the nvcc build's (err to 1e-12)"
  else
    echo "feynman-kac: kjit $mode's output DIFFERS from the nvcc build's" >&2
    tail -n 3 "$work/fk-$mode.txt" >&2
    status=1
  fi
done
# Also specialised with launches waiting for the variant: with a cold cache the default runs
# the kernel itself in every launch that comes before the variant's compile ends.
kjit_waiting_rows=yes
for rep in $(seq 1 "$reps"); do
  record feynman-kac nvcc-aot - "$rep" "$(wall_ms "$work/fk-aot" "${fk_args[@]}")"
  if [ -n "$fk_jitify" ]; then
    record_jitify_row feynman-kac "$rep" "$fk_jitify_dir" "$fk_jitify" "${fk_args[@]}"
  fi
  record_kjit_rows feynman-kac "$rep" "$kjit_fk" "${fk_args[@]}"
done

# adam for scripts/real-programs.sh (sourced there): the nvcc build of upstream/main.cu as
# shipped, kjit_adam plain and with the kernel's annotation on (--specialise), and Proteus's
# Jitify version (upstream-jitify/main.cu) on third_party/jitify/jitify.hpp.
kjit_adam="$build/benchmarks/programs/kjit_program_adam"

# On the CPU: the same loops under OpenMP's parallel for (openmp_adam.cpp) on every core, first
# on one thread to show that they scale. 5 launches instead of upstream's 1000: one takes about
# 0.8 s on two cores.
if [ "$device" = cpu ]; then
  adam_cpu_args=(160000 1600 5)
  g++ -O3 -ffast-math -march=native -fopenmp -std=c++17 -o "$work/adam-openmp" \
    "$programs/adam/openmp_adam.cpp"
  "$work/adam-openmp" "${adam_cpu_args[@]}" --out "$work/adam-openmp.bin" > "$work/openmp.txt"
  one="$(OMP_NUM_THREADS=1 wall_ms "$work/adam-openmp" "${adam_cpu_args[@]}")"
  all="$(wall_ms "$work/adam-openmp" "${adam_cpu_args[@]}")"
  echo "adam: OpenMP on 1 thread ${one} ms, on $(sed -n 's/^OpenMP threads //p' "$work/openmp.txt")" \
    "threads ${all} ms"
  for mode in plain specialised; do
    flag=()
    [ "$mode" = specialised ] && flag=(--specialise --wait-for-variant)
    KJIT_CACHE_DIR="$work/check-cache" "$kjit_adam" "${adam_cpu_args[@]}" "${flag[@]}" \
      --out "$work/adam-$mode.bin" > /dev/null
    # g++ and Clang reassociate differently under fast math: m and v, recurrences over 1600 steps,
    # end up to 3e-5 apart (relative; about half the values bit for bit); p is NaN in both.
    close_output adam "kjit $mode (p, m and v)" "$work/adam-openmp.bin" "$work/adam-$mode.bin" \
      1e-4 || true
  done
  record_cpu_rows adam "$work/adam-openmp" "$kjit_adam" "${adam_cpu_args[@]}"
  return 0
fi

adam_args=(160000 1600 1000)  # upstream experiments.json's "default" input
nvcc -O3 --use_fast_math -std=c++17 -arch=sm_$arch -o "$work/adam-aot" \
  "$programs/adam/upstream/main.cu"
nvcc -O3 --use_fast_math -std=c++17 -arch=sm_$arch -o "$work/adam-nvcc-out" \
  "$programs/adam/nvcc_adam.cu"

# Jitify. upstream-jitify/main.cu includes "../../external/jitify/jitify.hpp" (Proteus's layout),
# so it is built from a copy laid out that way under $work. Its kernel is a string in main.cu
# that includes "reference.h", which Jitify reads at run time from the working directory (main.cu
# passes NVRTC no -I), so it runs in that copy's folder, where NVRTC's --time also writes
# jitify.trace. The copy differs from the file as shipped in one string: main.cu hard-codes
# NVRTC's "-arch=sm_70", which CUDA 13's NVRTC refuses (NVRTC_ERROR_INVALID_OPTION: 13.0 dropped
# sm_70), so the copy asks for sm_$arch, the GPU it runs on (Proteus's Makefile has ARCH=sm_70).
# Its output cannot be compared with the nvcc build's: it writes none and prints only a time (its
# check against reference() is commented out upstream). That "kernel time" starts before the
# instantiation, so it includes an NVRTC compile and the module load spread over the launches.
# NVRTC compiles its kernel without fast math, unlike the nvcc builds (main.cu fixes its options).
# Jitify caches in memory only, so every run compiles: its cache column is "-".
jitify_dir="$work/jitify/cuda-jitify/adam"
adam_jitify=""
mkdir -p "$jitify_dir" "$work/jitify/external/jitify"
cp "$programs/adam/upstream-jitify/main.cu" "$programs/adam/upstream-jitify/reference.h" \
  "$jitify_dir/"
cp "$programs/third_party/jitify/jitify.hpp" "$work/jitify/external/jitify/"
sed -i "s/\"-arch=sm_70\"/\"-arch=sm_$arch\"/" "$jitify_dir/main.cu"
cuda_lib="$(dirname "$(command -v nvcc)")/../lib64"
if ! grep -q "\"-arch=sm_$arch\"" "$jitify_dir/main.cu"; then
  echo "adam: FAILED to set NVRTC's arch in upstream-jitify/main.cu's copy (no \"-arch=sm_70\")" >&2
  status=1
# libcuda from the toolkit's stubs when the driver's folder has no unversioned libcuda.so; the
# driver's libcuda.so.1 is the one loaded at run time.
elif ! nvcc -O3 --use_fast_math -std=c++17 -arch="sm_$arch" -o "$work/adam-jitify" \
    "$jitify_dir/main.cu" -L"$cuda_lib/stubs" -Xlinker -rpath="$cuda_lib" -lcuda -lnvrtc -ldl; then
  echo "adam: the Jitify build FAILED (nvcc)" >&2
  status=1
elif ! (cd "$jitify_dir" && "$work/adam-jitify" "${adam_args[@]}") > "$work/adam-jitify.txt" 2>&1 \
    || ! grep -q '^Average kernel execution time' "$work/adam-jitify.txt"; then
  cat "$work/adam-jitify.txt" >&2
  echo "adam: the Jitify build FAILED to run (NVRTC compile, module load or launch)" >&2
  status=1
else
  echo "adam: Jitify's build runs; its output is not compared (it writes none)"
  adam_jitify="$work/adam-jitify"
fi

"$work/adam-nvcc-out" "${adam_args[@]}" "$work/adam-nvcc.bin"
for mode in plain specialised; do
  flag=()
  [ "$mode" = specialised ] && flag=(--specialise --wait-for-variant)
  KJIT_CACHE_DIR="$work/check-cache" "$kjit_adam" "${adam_args[@]}" "${flag[@]}" \
    --out "$work/adam-$mode.bin" > /dev/null
  same_output adam "kjit $mode (p, m and v)" "$work/adam-nvcc.bin" "$work/adam-$mode.bin" || true
done
# Also specialised with launches waiting for the variant: with a cold cache the default runs
# the kernel itself in every launch that comes before the variant's compile ends.
kjit_waiting_rows=yes
for rep in $(seq 1 "$reps"); do
  record adam nvcc-aot - "$rep" "$(wall_ms "$work/adam-aot" "${adam_args[@]}")"
  if [ -n "$adam_jitify" ]; then
    record_jitify_row adam "$rep" "$jitify_dir" "$adam_jitify" "${adam_args[@]}"
  fi
  record_kjit_rows adam "$rep" "$kjit_adam" "${adam_args[@]}"
done


# wsm5 for scripts/real-programs.sh (sourced there): the nvcc build of upstream/main.cu as shipped,
# kjit_wsm5 plain and with the kernel's annotation on (--specialise), and Proteus's Jitify version
# (upstream-jitify/) on third_party/jitify/jitify.hpp. Upstream's Makefile
# builds with -DMKX=4 -std=c++14 -Xcompiler -Wall -O3 and no fast math (its --offload-arch=sm_70
# is clang's spelling; here -arch="sm_$arch"). The outputs compared are th, q, qc, qi, qr and qs
# (kjit_wsm5.cpp says why not rain and snow).
kjit_wsm5="$build/benchmarks/programs/kjit_program_wsm5"

# On the CPU: the kernel per column under OpenMP's parallel for (openmp_wsm5.cpp) on every core,
# first on one thread to show that it scales. A grid of 32 x 16 columns (8 blocks) and 2 launches
# instead of upstream's 60 x 46 and 10: every column takes the same time (about 5 ms on one core
# here: hundreds of thousands of sedimentation steps on upstream's inputs). The first launch of
# kjit's is apart (in it a variant compiles), so 2.
if [ "$device" = cpu ]; then
  wsm5_cpu_args=(2 --nx 32 --ny 16)
  g++ -O3 -march=native -fopenmp -DMKX=4 -std=c++17 -o "$work/wsm5-openmp" \
    "$programs/wsm5/openmp_wsm5.cpp"
  "$work/wsm5-openmp" "${wsm5_cpu_args[@]}" --out "$work/wsm5-openmp.bin" > "$work/openmp.txt"
  one="$(OMP_NUM_THREADS=1 wall_ms "$work/wsm5-openmp" "${wsm5_cpu_args[@]}")"
  all="$(wall_ms "$work/wsm5-openmp" "${wsm5_cpu_args[@]}")"
  echo "wsm5: OpenMP on 1 thread ${one} ms, on $(sed -n 's/^OpenMP threads //p' "$work/openmp.txt")" \
    "threads ${all} ms"
  for mode in plain specialised; do
    flag=()
    [ "$mode" = specialised ] && flag=(--specialise)
    KJIT_CACHE_DIR="$work/check-cache" "$kjit_wsm5" "${wsm5_cpu_args[@]}" "${flag[@]}" \
      --out "$work/wsm5-$mode.bin" > /dev/null
    # g++ and Clang may contract a * b + c into fused multiply-adds in other places; qs ends in
    # subnormal values, whose differences the relative tolerance's floor (1e-30) covers.
    close_output wsm5 "kjit $mode (th, q, qc, qi, qr, qs)" "$work/wsm5-openmp.bin" \
      "$work/wsm5-$mode.bin" 1e-5 || true
  done
  record_cpu_rows wsm5 "$work/wsm5-openmp" "$kjit_wsm5" "${wsm5_cpu_args[@]}"
  return 0
fi

wsm5_args=(10)  # upstream experiments.json's "default" input: repeat
nvcc -O3 -DMKX=4 -std=c++14 -Xcompiler -Wall -arch="sm_$arch" -o "$work/wsm5-aot" \
  "$programs/wsm5/upstream/main.cu"
nvcc -O3 -DMKX=4 -std=c++14 -Xcompiler -Wall -arch="sm_$arch" -o "$work/wsm5-nvcc-out" \
  "$programs/wsm5/nvcc_wsm5.cu"

# Jitify. upstream-jitify/main.cu includes "../../external/jitify/jitify.hpp" (Proteus's layout),
# so it is built from a copy laid out that way under $work, unchanged, with its Makefile's flags
# (-DMKX=4 -std=c++14 -Xcompiler -Wall -O3). Its kernel is a string (kernel.cuh) whose 18 domain
# bounds, annotated in upstream/kernel.h, are template parameters instantiated with their values
# at run time; delt, also annotated there, stays an argument. Jitify reads the "spt.h" and
# "constants.h" that the string includes from the working directory, so it runs in that copy's
# folder, where NVRTC's --time also writes jitify.trace. NVRTC compiles for the GPU it runs on
# (main.cu gives no -arch), without fast math, as the nvcc build. It writes no per-cell output:
# its checksum line (rain's and snow's sums) is compared with the nvcc build's. Its "kernel
# time" starts before the instantiation, so it includes the NVRTC compile, and its line has the
# colon that the table does not read: its kernels column stays empty. Jitify caches in memory
# only, so every run compiles: its cache column is "-".
wsm5_jitify_dir="$work/jitify/cuda-jitify/wsm5"
wsm5_jitify=""
mkdir -p "$wsm5_jitify_dir" "$work/jitify/external/jitify"
cp "$programs/wsm5/upstream-jitify/main.cu" "$programs/wsm5/upstream-jitify/"*.h \
  "$programs/wsm5/upstream-jitify/kernel.cuh" "$wsm5_jitify_dir/"
cp "$programs/third_party/jitify/jitify.hpp" "$work/jitify/external/jitify/"
cuda_lib="$(dirname "$(command -v nvcc)")/../lib64"
# libcuda from the toolkit's stubs when the driver's folder has no unversioned libcuda.so; the
# driver's libcuda.so.1 is the one loaded at run time.
if ! nvcc -O3 -DMKX=4 -std=c++14 -Xcompiler -Wall -arch="sm_$arch" -o "$work/wsm5-jitify" \
    "$wsm5_jitify_dir/main.cu" -L"$cuda_lib/stubs" -Xlinker -rpath="$cuda_lib" -lcuda -lnvrtc \
    -ldl; then
  echo "wsm5: the Jitify build FAILED (nvcc)" >&2
  status=1
elif ! (cd "$wsm5_jitify_dir" && "$work/wsm5-jitify" "${wsm5_args[@]}") > "$work/wsm5-jitify.txt" \
    2>&1 || ! grep -q '^Checksum: rain = ' "$work/wsm5-jitify.txt"; then
  tail -n 5 "$work/wsm5-jitify.txt" >&2
  echo "wsm5: the Jitify build FAILED to run (NVRTC compile, module load or launch)" >&2
  status=1
else
  wsm5_jitify_sums="$(grep '^Checksum: rain = ' "$work/wsm5-jitify.txt")"
  echo "wsm5: Jitify's build runs; $wsm5_jitify_sums"
  wsm5_jitify="$work/wsm5-jitify"
  # The nvcc build's line, from one run of it. The host adds up rain and snow in the same order
  # in both, so the sums are equal when those are; the kernel changes them little on upstream's
  # inputs (the OpenMP build's sums are 2.759990, the inputs' alone 2.759982), so they must agree
  # to the last printed place: one unit there, for NVRTC contracting a * b + c otherwise than nvcc.
  "$work/wsm5-aot" "${wsm5_args[@]}" > "$work/wsm5-aot.txt"
  wsm5_aot_sums="$(grep '^Checksum: rain = ' "$work/wsm5-aot.txt" || true)"
  if [ "$wsm5_jitify_sums" = "$wsm5_aot_sums" ]; then
    echo "wsm5: Jitify's checksum line equals the nvcc build's"
  elif awk -v a="$wsm5_aot_sums" -v b="$wsm5_jitify_sums" 'BEGIN {
      if (split(a, x, " ") != 7 || split(b, y, " ") != 7) exit 1
      for (i = 4; i <= 7; i += 3) if (x[i] - y[i] > 1.5e-6 || y[i] - x[i] > 1.5e-6) exit 1
    }'; then
    echo "wsm5: Jitify's sums agree with the nvcc build's to one unit in the last place" \
      "(${wsm5_aot_sums#Checksum: })"
  else
    echo "wsm5: Jitify's checksum line DIFFERS from the nvcc build's: '$wsm5_jitify_sums'," \
      "'$wsm5_aot_sums'" >&2
    status=1
  fi
fi

"$work/wsm5-nvcc-out" "${wsm5_args[@]}" "$work/wsm5-nvcc.bin"
for mode in plain specialised; do
  flag=()
  [ "$mode" = specialised ] && flag=(--specialise)
  KJIT_CACHE_DIR="$work/check-cache" "$kjit_wsm5" "${wsm5_args[@]}" "${flag[@]}" \
    --out "$work/wsm5-$mode.bin" > /dev/null
  # The variant folds delt and the bounds into constants, where NVVM may contract a * b + c
  # otherwise than in the nvcc build; qs ends in subnormal values, covered by the floor (1e-30).
  close_output wsm5 "kjit $mode (th, q, qc, qi, qr, qs)" "$work/wsm5-nvcc.bin" \
    "$work/wsm5-$mode.bin" 1e-5 || true
done
for rep in $(seq 1 "$reps"); do
  ms="$(wall_ms "$work/wsm5-aot" "${wsm5_args[@]}")"
  # Upstream writes its kernel time as "Average kernel execution time: X (ms)", every launch
  # averaged; the table reads the line without the colon (kjit_wsm5 prints both).
  sed -i 's/^Average kernel execution time: /Average kernel execution time /' "$work/last.txt"
  record wsm5 nvcc-aot - "$rep" "$ms"
  if [ -n "$wsm5_jitify" ]; then
    record_jitify_row wsm5 "$rep" "$wsm5_jitify_dir" "$wsm5_jitify" "${wsm5_args[@]}"
  fi
  record_kjit_rows wsm5 "$rep" "$kjit_wsm5" "${wsm5_args[@]}"
done

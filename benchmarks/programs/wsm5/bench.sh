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
    [ "$mode" = specialised ] && flag=(--specialise --wait-for-variant)
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
# (main.cu gives no -arch), without fast math, as the nvcc build. It writes no per-cell output,
# and its checksum line (rain's and snow's sums) cannot be compared with the nvcc build's: rain
# and snow depend on fallc_k, which the kernel reads before it sets it (kjit_wsm5.cpp), so the
# sums differ from one compiler to another. Its "kernel time" starts before the instantiation,
# so it includes the NVRTC compile, and its line has the colon that the table does not read.
# Jitify caches in memory only, so every run compiles: its cache column is "-".
# jitify_wsm5.cu (kjit's) runs the same kernel string through the same Jitify calls and inputs,
# writes th, q, qc, qi, qr and qs as nvcc_wsm5.cu does, compared with the nvcc build's output as
# kjit's are, and prints the time per launch of the launches after the first, NVRTC's compile
# left out. It includes upstream-jitify/main.cu from the source tree, so -I names the copy's
# folder, two levels below the external/ that main.cu's jitify.hpp include reaches.
wsm5_jitify_dir="$work/jitify/cuda-jitify/wsm5"
wsm5_jitify=""
wsm5_jitify_out=""
mkdir -p "$wsm5_jitify_dir" "$work/jitify/external/jitify"
cp "$programs/wsm5/upstream-jitify/main.cu" "$programs/wsm5/upstream-jitify/"*.h \
  "$programs/wsm5/upstream-jitify/kernel.cuh" "$wsm5_jitify_dir/"
cp "$programs/third_party/jitify/jitify.hpp" "$work/jitify/external/jitify/"
cuda_lib="$(dirname "$(command -v nvcc)")/../lib64"
# libcuda from the toolkit's stubs when the driver's folder has no unversioned libcuda.so; the
# driver's libcuda.so.1 is the one loaded at run time.
wsm5_jitify_link=(-L"$cuda_lib/stubs" -Xlinker -rpath="$cuda_lib" -lcuda -lnvrtc -ldl)
if ! nvcc -O3 -DMKX=4 -std=c++14 -Xcompiler -Wall -arch="sm_$arch" -o "$work/wsm5-jitify" \
    "$wsm5_jitify_dir/main.cu" "${wsm5_jitify_link[@]}"; then
  echo "wsm5: the Jitify build FAILED (nvcc)" >&2
  status=1
elif ! (cd "$wsm5_jitify_dir" && "$work/wsm5-jitify" "${wsm5_args[@]}") > "$work/wsm5-jitify.txt" \
    2>&1 || ! grep -q '^Checksum: rain = ' "$work/wsm5-jitify.txt"; then
  tail -n 5 "$work/wsm5-jitify.txt" >&2
  echo "wsm5: the Jitify build FAILED to run (NVRTC compile, module load or launch)" >&2
  status=1
else
  echo "wsm5: Jitify's build runs; $(grep '^Checksum: rain = ' "$work/wsm5-jitify.txt")" \
    "(not compared: rain and snow depend on fallc_k, read before it is set)"
  wsm5_jitify="$work/wsm5-jitify"
fi
if ! nvcc -O3 -DMKX=4 -std=c++14 -Xcompiler -Wall -arch="sm_$arch" -I"$wsm5_jitify_dir" \
    -o "$work/wsm5-jitify-out" "$programs/wsm5/jitify_wsm5.cu" "${wsm5_jitify_link[@]}"; then
  echo "wsm5: the build of jitify_wsm5.cu FAILED (nvcc)" >&2
  status=1
elif ! (cd "$wsm5_jitify_dir" && "$work/wsm5-jitify-out" "${wsm5_args[@]}" \
    "$work/wsm5-jitify.bin") > "$work/wsm5-jitify-out.txt" 2>&1; then
  tail -n 5 "$work/wsm5-jitify-out.txt" >&2
  echo "wsm5: jitify_wsm5 FAILED to run (NVRTC compile, module load or launch)" >&2
  status=1
else
  wsm5_jitify_out="$work/wsm5-jitify-out"
  echo "wsm5: Jitify's kernel (jitify_wsm5), NVRTC compile left out:" \
    "$(sed -n 's/^Average kernel execution time \([0-9.]*\) (ms)$/\1/p' \
      "$work/wsm5-jitify-out.txt") ms per launch after the first;" \
    "first launch, compile included, $(sed -n 's/^First launch \([0-9.]*\) (ms)$/\1/p' \
      "$work/wsm5-jitify-out.txt") ms"
fi
# The Jitify row's kernels column. Upstream's line averages every launch, the first (with the
# NVRTC compile) included, so the figure is jitify_wsm5's, from a run of its own right after the
# row's (same kernel, launches and timer, first launch left out); it goes into the row that
# record_jitify_row has just added, the CSV's last, whose kernels column is empty.
wsm5_jitify_kernels() {  # rep
  local row
  row="$(tail -n 1 "$out/programs-runs.csv")"
  [ -n "$wsm5_jitify_out" ] && [[ "$row" == "wsm5,jitify,-,$1,"*"," ]] || return 0
  if (cd "$wsm5_jitify_dir" && wall_ms "$wsm5_jitify_out" "${wsm5_args[@]}" /dev/null) \
      > /dev/null; then
    sed -i "\$s/,\$/,$(kernel_ms)/" "$out/programs-runs.csv"
  else
    echo "wsm5: jitify_wsm5's run $1 FAILED; the Jitify row's kernels column stays empty" >&2
    status=1
  fi
}

"$work/wsm5-nvcc-out" "${wsm5_args[@]}" "$work/wsm5-nvcc.bin"
if [ -n "$wsm5_jitify_out" ]; then
  # NVRTC may contract a * b + c otherwise than nvcc; qs ends in subnormal values, covered by the
  # floor (1e-30).
  close_output wsm5 "Jitify (jitify_wsm5: th, q, qc, qi, qr, qs)" "$work/wsm5-nvcc.bin" \
    "$work/wsm5-jitify.bin" 1e-5 || true
fi
for mode in plain specialised; do
  flag=()
  [ "$mode" = specialised ] && flag=(--specialise --wait-for-variant)
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
    wsm5_jitify_kernels "$rep"
  fi
  record_kjit_rows wsm5 "$rep" "$kjit_wsm5" "${wsm5_args[@]}"
done

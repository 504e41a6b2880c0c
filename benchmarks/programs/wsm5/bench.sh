# wsm5 for scripts/real-programs.sh (sourced there): the nvcc build of upstream/main.cu as shipped,
# and kjit_wsm5 plain and with the kernel's annotation on (--specialise). Upstream's Makefile
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
  record_kjit_rows wsm5 "$rep" "$kjit_wsm5" "${wsm5_args[@]}"
done

# adam for scripts/real-programs.sh (sourced there): the nvcc build of upstream/main.cu as
# shipped, and kjit_adam plain and with the kernel's annotation on (--specialise).
adam_args=(160000 1600 1000)  # upstream experiments.json's "default" input
nvcc -O3 --use_fast_math -std=c++17 -arch=sm_$arch -o "$work/adam-aot" \
  "$programs/adam/upstream/main.cu"
nvcc -O3 --use_fast_math -std=c++17 -arch=sm_$arch -o "$work/adam-nvcc-out" \
  "$programs/adam/nvcc_adam.cu"
kjit_adam="$build/benchmarks/programs/kjit_program_adam"
"$work/adam-nvcc-out" "${adam_args[@]}" "$work/adam-nvcc.bin"
for mode in plain specialised; do
  flag=()
  [ "$mode" = specialised ] && flag=(--specialise)
  KJIT_CACHE_DIR="$work/check-cache" "$kjit_adam" "${adam_args[@]}" "${flag[@]}" \
    --out "$work/adam-$mode.bin" > /dev/null
  same_output adam "kjit $mode (p, m and v)" "$work/adam-nvcc.bin" "$work/adam-$mode.bin" || true
done
for rep in $(seq 1 "$reps"); do
  record adam nvcc-aot - "$rep" "$(wall_ms "$work/adam-aot" "${adam_args[@]}")"
  for mode in plain specialised; do
    flag=()
    [ "$mode" = specialised ] && flag=(--specialise)
    cache="$work/cache-$rep-$mode"
    record adam "kjit-$mode" cold "$rep" \
      "$(KJIT_CACHE_DIR="$cache" wall_ms "$kjit_adam" "${adam_args[@]}" "${flag[@]}")"
    record adam "kjit-$mode" warm "$rep" \
      "$(KJIT_CACHE_DIR="$cache" wall_ms "$kjit_adam" "${adam_args[@]}" "${flag[@]}")"
  done
done


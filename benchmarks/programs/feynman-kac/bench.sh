# feynman-kac for scripts/real-programs.sh (sourced there): the nvcc build of upstream/main.cu as
# shipped, and kjit_feynman-kac plain and with the kernel's annotation on (--specialise).
# Upstream's Makefile builds with -O3 and no fast math. Its "default" input is 1 iteration, so
# the kernel figure of the kjit rows is the first launch, compile included; the nvcc program
# reports its kernel time in seconds, in a line the table does not read.
if [ "${device:-}" = cpu ]; then  # no CPU baseline yet (HeCBench's feynman-kac-omp)
  echo "feynman-kac: not run on the CPU (no OpenMP baseline yet)"
  return 0
fi
fk_args=(1)  # upstream experiments.json's "default" input: iterations (nj 128, 1000 paths)
nvcc -O3 -std=c++17 -arch=sm_$arch -o "$work/fk-aot" "$programs/feynman-kac/upstream/main.cu"
nvcc -O3 -std=c++17 -arch=sm_$arch -o "$work/fk-nvcc-out" \
  "$programs/feynman-kac/nvcc_feynman-kac.cu"
kjit_fk="$build/benchmarks/programs/kjit_program_feynman-kac"
"$work/fk-nvcc-out" "${fk_args[@]}" "$work/fk-nvcc.bin" > /dev/null
# The kernel sums err with atomics, in the order the threads finish: the sum may differ in its
# last bits from run to run, nvcc's too. kjit's --expect wants n_inside equal and err within
# 1e-12 of the nvcc build's, relatively.
for mode in plain specialised; do
  flag=()
  [ "$mode" = specialised ] && flag=(--specialise)
  if KJIT_CACHE_DIR="$work/check-cache" "$kjit_fk" "${fk_args[@]}" "${flag[@]}" \
      --expect "$work/fk-nvcc.bin" > "$work/fk-$mode.txt" 2>&1; then
    echo "feynman-kac: kjit $mode's output (n_inside, err) equals the nvcc build's (err to 1e-12)"
  else
    echo "feynman-kac: kjit $mode's output DIFFERS from the nvcc build's" >&2
    tail -n 3 "$work/fk-$mode.txt" >&2
    status=1
  fi
done
for rep in $(seq 1 "$reps"); do
  record feynman-kac nvcc-aot - "$rep" "$(wall_ms "$work/fk-aot" "${fk_args[@]}")"
  record_kjit_rows feynman-kac "$rep" "$kjit_fk" "${fk_args[@]}"
done

# sw4ck for scripts/real-programs.sh (sourced there): the nvcc build of upstream/ as shipped,
# kjit_sw4ck plain and with the kernels' annotations on (--specialise), and Proteus's Jitify
# version (upstream-jitify/ over upstream/) on third_party/jitify/jitify.hpp; on the CPU, the
# shipped kernels under OpenMP (openmp_sw4ck.cpp) and kjit_sw4ck plain and specialised.
kjit_sw4ck="$build/benchmarks/programs/kjit_program_sw4ck"
sw4ck="$programs/sw4ck"

# On the CPU: the shipped kernels compiled by g++, a call per GPU thread, each launch's blocks
# under OpenMP's parallel for (openmp_sw4ck.cpp) on every core, first on one thread to show that
# it scales. medium.in: upstream/sw4ck.in's format and k structure (bounds -2..17 and -2..21, nk
# 14 and 18, both sides one-sided, so all five kernels run) on arrays of 96 and 192 points a side
# (bounds -2..93 and -2..189; upstream's -2..375 and -2..746), 240 MB of arrays instead of 3.6 GB,
# a 16th of upstream's points; 5 repeats instead of 100. The first repeat of kjit's is apart (in it the
# variants compile or load), so the kernel column is a repeat after the first, both data sets.
# The outputs (a_Uacc) are held to a relative 1e-12 (kjit_sw4ck.cpp's --expect): g++ and Clang
# contract other products and sums into fused multiply-adds.
if [ "$device" = cpu ]; then
  sw4ck_cpu_args=("$sw4ck/medium.in" 5)
  g++ -O3 -march=native -fopenmp -std=c++20 -o "$work/sw4ck-openmp" "$sw4ck/openmp_sw4ck.cpp"
  if ! "$work/sw4ck-openmp" "${sw4ck_cpu_args[@]}" --out "$work/sw4ck-openmp.bin" \
      > "$work/sw4ck-openmp.txt"; then
    echo "sw4ck: the OpenMP build FAILED to run" >&2
    status=1
    return 0
  fi
  one="$(OMP_NUM_THREADS=1 wall_ms "$work/sw4ck-openmp" "${sw4ck_cpu_args[@]}")"
  one_kernels="$(kernel_ms)"
  all="$(wall_ms "$work/sw4ck-openmp" "${sw4ck_cpu_args[@]}")"
  echo "sw4ck: OpenMP on 1 thread ${one} ms (kernels ${one_kernels} ms a repeat), on" \
    "$(sed -n 's/^OpenMP threads //p' "$work/sw4ck-openmp.txt") threads ${all} ms (kernels" \
    "$(kernel_ms) ms a repeat)"
  for mode in plain specialised; do
    flag=()
    [ "$mode" = specialised ] && flag=(--specialise --wait-for-variant)
    if KJIT_CACHE_DIR="$work/check-cache" "$kjit_sw4ck" "${sw4ck_cpu_args[@]}" "${flag[@]}" \
        --expect "$work/sw4ck-openmp.bin" > "$work/sw4ck-$mode.txt" 2>&1; then
      echo "sw4ck: kjit $mode: $(grep '^Against' "$work/sw4ck-$mode.txt")"
    else
      tail -n 4 "$work/sw4ck-$mode.txt" >&2
      echo "sw4ck: kjit $mode FAILED, or its a_Uacc differs from OpenMP's" >&2
      status=1
    fi
  done
  record_cpu_rows sw4ck "$work/sw4ck-openmp" "$kjit_sw4ck" "${sw4ck_cpu_args[@]}"
  return 0
fi

# upstream experiments.json's "default" input is "sw4ck.in 1000"; SW4CK_REPEAT overrides the
# repeat count (the Makefile's run target uses 100).
sw4ck_args=("$sw4ck/upstream/sw4ck.in" "${SW4CK_REPEAT:-1000}")
(cd "$sw4ck/upstream" && nvcc -O3 -std=c++14 -arch="sm_$arch" -o "$work/sw4ck-aot" main.cu \
  curvilinear4sg.cu)
nvcc -O3 -std=c++17 -arch="sm_$arch" -o "$work/sw4ck-nvcc-out" "$sw4ck/nvcc_sw4ck.cu" \
  "$sw4ck/upstream/curvilinear4sg.cu"

# Jitify. Proteus ships only the files that differ from upstream/ (curvilinear4sg.cu, the
# kernels as strings in kernel<n>.cuh, Makefile, experiments.json; upstream-jitify/), so the
# copy is upstream/ with those laid over it, where curvilinear4sg.cu finds
# "../../external/jitify/jitify.hpp" (Proteus's layout). The kernels' 14 (kernel5: 15) annotated
# arguments are template parameters, instantiated with their values at run time; Jitify reads the
# "curvilinear4sg.h" and "utils.h" they include from the working directory, so the build runs in
# that copy's folder, where NVRTC's --time also writes jitify.trace. NVRTC compiles for the GPU it
# runs on. Its output is upstream's two "Error = " lines, compared with the nvcc build's. Jitify
# caches in memory only, so every run compiles: its cache column is "-".
sw4ck_jitify_dir="$work/jitify/cuda-jitify/sw4ck"
sw4ck_jitify=""
mkdir -p "$sw4ck_jitify_dir" "$work/jitify/external/jitify"
cp "$sw4ck/upstream/"* "$sw4ck_jitify_dir/"
cp "$sw4ck/upstream-jitify/"* "$sw4ck_jitify_dir/"
cp "$programs/third_party/jitify/jitify.hpp" "$work/jitify/external/jitify/"
cuda_lib="$(dirname "$(command -v nvcc)")/../lib64"
"$work/sw4ck-nvcc-out" "${sw4ck_args[@]}" "$work/sw4ck-nvcc.bin" > "$work/sw4ck-nvcc.txt"
echo "sw4ck: nvcc build: $(grep '^Uploads' "$work/sw4ck-nvcc.txt")"
if ! (cd "$sw4ck_jitify_dir" && nvcc -O3 -std=c++14 -arch="sm_$arch" -o "$work/sw4ck-jitify" \
    main.cu curvilinear4sg.cu -L"$cuda_lib/stubs" -Xlinker -rpath="$cuda_lib" -lcuda -lnvrtc -ldl)
then
  echo "sw4ck: the Jitify build FAILED (nvcc)" >&2
  status=1
elif ! (cd "$sw4ck_jitify_dir" && "$work/sw4ck-jitify" "${sw4ck_args[@]}") \
    > "$work/sw4ck-jitify.txt" 2>&1; then
  tail -n 5 "$work/sw4ck-jitify.txt" >&2
  echo "sw4ck: the Jitify build FAILED to run" >&2
  status=1
elif [ "$(grep '^Error = ' "$work/sw4ck-jitify.txt")" != "$(grep '^Error = ' "$work/sw4ck-nvcc.txt")" ]
then
  grep '^Error = ' "$work/sw4ck-jitify.txt" "$work/sw4ck-nvcc.txt" >&2
  echo "sw4ck: Jitify's error lines DIFFER from the nvcc build's" >&2
  status=1
else
  echo "sw4ck: Jitify's error lines equal the nvcc build's:" \
    "$(grep '^Error = ' "$work/sw4ck-jitify.txt" | tr '\n' ' ')"
  sw4ck_jitify="$work/sw4ck-jitify"
fi

# kjit plain is compared bit for bit; the variants fold a1 = 1 and sgn = -1, after which NVVM
# contracts other products and sums (kjit_sw4ck.cpp's agrees() allows a relative 1e-12), and
# they are checked with the launches waiting for them, so that the variants are what ran.
for mode in plain specialised; do
  flag=()
  [ "$mode" = specialised ] && flag=(--specialise --wait-for-variant)
  if ! KJIT_CACHE_DIR="$work/check-cache" "$kjit_sw4ck" "${sw4ck_args[@]}" "${flag[@]}" \
      --out "$work/sw4ck-$mode.bin" --expect "$work/sw4ck-nvcc.bin" > "$work/sw4ck-$mode.txt" 2>&1
  then
    tail -n 4 "$work/sw4ck-$mode.txt" >&2
    echo "sw4ck: kjit $mode FAILED, or its a_Uacc differs from the nvcc build's" >&2
    status=1
  elif [ "$mode" = plain ]; then
    same_output sw4ck "kjit plain (a_Uacc, doubles)" "$work/sw4ck-nvcc.bin" "$work/sw4ck-plain.bin" \
      d || true
  else
    echo "sw4ck: kjit $mode: $(grep '^Against' "$work/sw4ck-$mode.txt")"
  fi
  echo "sw4ck: kjit $mode: $(grep '^Uploads' "$work/sw4ck-$mode.txt")"
done
for rep in $(seq 1 "$reps"); do
  record sw4ck nvcc-aot - "$rep" "$(wall_ms "$work/sw4ck-aot" "${sw4ck_args[@]}")"
  if [ -n "$sw4ck_jitify" ]; then
    record_jitify_row sw4ck "$rep" "$sw4ck_jitify_dir" "$sw4ck_jitify" "${sw4ck_args[@]}"
  fi
  record_kjit_rows sw4ck "$rep" "$kjit_sw4ck" "${sw4ck_args[@]}"
done

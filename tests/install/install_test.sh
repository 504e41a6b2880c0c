#!/usr/bin/env bash
# cmake --install of a kjit build into a fresh prefix, then a consumer project built against it
# twice, as users build one: with find_package(kjit) and kjit_add_kernels() (run with its kernel
# file deleted), and with pkg-config. Each must run saxpy correctly, and compile it through the
# installed kjit-compile helper when asked to.
# With PRECOMPILE=cpu, a third build precompiles the kernel and must load it without compiling.
#   tests/install/install_test.sh BUILD_DIR [PRECOMPILE]
set -euo pipefail
build="$1"
precompile="${2:-}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
prefix="$work/prefix"

cmake --install "$build" --prefix "$prefix" > "$work/install.log"
libdir=$(dirname "$(find "$prefix" -name 'libkjit.so' | head -1)")
for f in "$prefix/include/kjit/kjit.hpp" "$libdir/libkjit.so.0" "$prefix/bin/kjit-warm" \
  "$prefix/libexec/kjit/kjit-compile" "$libdir/cmake/kjit/kjitConfig.cmake" \
  "$libdir/cmake/kjit/kjitConfigVersion.cmake" "$libdir/pkgconfig/kjit.pc" \
  "$prefix/share/kjit/bitcode/cpu_prelude.h" "$prefix/share/kjit/bitcode/cpu_abi.h" \
  "$prefix/share/kjit/bitcode/gpu_dialect.h"; do
  [ -e "$f" ] || { echo "FAIL: cmake --install did not install $f"; exit 1; }
done
soname=$(readelf -d "$libdir/libkjit.so" | sed -n 's/.*SONAME.*\[\(.*\)\]/\1/p')
[ "$soname" = "libkjit.so.0" ] || { echo "FAIL: SONAME is '$soname'"; exit 1; }
"$prefix/bin/kjit-warm" --help > /dev/null

# Each run uses its own empty cache, so that it compiles.
run() {
  local name="$1"; shift
  rm -rf "$work/cache"
  local out
  out=$(KJIT_CACHE_DIR="$work/cache" "$@" 2>&1) || { echo "FAIL: $name: $out"; exit 1; }
  echo "$name: $out"
}

# find_package(kjit), on a copy of the project whose kernel file is gone once it is built: the
# kernel embedded by kjit_add_kernels() is all the program has.
cp -r "$here/consumer" "$work/consumer"
cmake -S "$work/consumer" -B "$work/cmake-build" -DCMAKE_PREFIX_PATH="$prefix" \
  > "$work/configure.log" 2>&1 || { cat "$work/configure.log"; exit 1; }
cmake --build "$work/cmake-build" > "$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
rm -r "$work/consumer/kernels"
run "find_package, embedded kernel" "$work/cmake-build/consumer"
# 0.x: another minor version may have another API, so find_package(kjit 0.2) refuses 0.1.
if cmake -S "$work/consumer" -B "$work/other-minor" -DCMAKE_PREFIX_PATH="$prefix" \
  -DKJIT_WANTED=0.2 > "$work/other-minor.log" 2>&1; then
  echo "FAIL: find_package(kjit 0.2) accepted this kjit"
  exit 1
fi

# PRECOMPILE through the installed kjit-warm: the program loads its kernel with no compile.
if [ -n "$precompile" ]; then
  cmake -S "$here/consumer" -B "$work/precompiled-build" -DCMAKE_PREFIX_PATH="$prefix" \
    -DKJIT_PRECOMPILE="$precompile" > "$work/precompiled.log" 2>&1 &&
    cmake --build "$work/precompiled-build" >> "$work/precompiled.log" 2>&1 ||
    { cat "$work/precompiled.log"; exit 1; }
  out=$(run "precompiled for $precompile" env KJIT_DEVICE="$precompile" \
    "$work/precompiled-build/consumer")
  echo "$out"
  grep -q "0 of 100000 values wrong (compiled 0, loaded 1)" <<< "$out" ||
    { echo "FAIL: the precompiled kernel was not loaded from the program"; exit 1; }
  # A kernel that does not compile fails the build, with the compiler's message.
  cp -r "$here/consumer" "$work/broken"
  echo "__global__ void broken() { undeclared_name = 1; }" >> "$work/broken/kernels/consumer_saxpy.cu"
  if cmake -S "$work/broken" -B "$work/broken-build" -DCMAKE_PREFIX_PATH="$prefix" \
    -DKJIT_PRECOMPILE="$precompile" > "$work/broken.log" 2>&1 &&
    cmake --build "$work/broken-build" >> "$work/broken.log" 2>&1; then
    echo "FAIL: a kernel that does not compile was precompiled"; exit 1
  fi
  grep -q "consumer_saxpy.cu:.*undeclared_name" "$work/broken.log" ||
    { cat "$work/broken.log"; echo "FAIL: the build log does not name the error"; exit 1; }
  echo "precompiling a broken kernel fails the build: $(grep -m1 undeclared_name "$work/broken.log")"
else
  echo "PRECOMPILE: not tried (this kjit has no CPU backend, the target this test precompiles for)"
fi

# pkg-config
if command -v pkg-config > /dev/null; then
  export PKG_CONFIG_PATH="$libdir/pkgconfig"
  # shellcheck disable=SC2046
  c++ -std=c++20 "$here/consumer/consumer.cpp" -o "$work/pc-consumer" \
    $(pkg-config --cflags --libs kjit)
  run "pkg-config, kernel file" env LD_LIBRARY_PATH="$libdir" "$work/pc-consumer" \
    "$here/consumer/kernels/consumer_saxpy.cu"
else
  echo "pkg-config: not installed here, so kjit.pc was not tried (scripts/install-deps.sh installs it)"
fi

# The installed libkjit.so finds the installed helper: the compile runs in a child process.
rm -rf "$work/cache"
out=$(KJIT_CACHE_DIR="$work/cache" KJIT_COMPILE_ISOLATION=process KJIT_LOG_LEVEL=debug \
  "$work/cmake-build/consumer" 2>&1) || { echo "FAIL: isolated: $out"; exit 1; }
grep -q "in a child process" <<< "$out" || { echo "FAIL: no compile in a child process: $out"; exit 1; }
grep -q "0 of 100000 values wrong" <<< "$out" || { echo "FAIL: isolated: $out"; exit 1; }
echo "isolated: the installed kjit-compile compiled it"
echo "PASS"

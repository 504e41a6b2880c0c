#!/usr/bin/env bash
# The Conan recipe end to end, offline, in a private Conan home with the system's dependencies
# (conan/profiles/debian12-system):
#   tests/install/conan_package_test.sh REPO_ROOT CONAN BUILD_DIR
#     conan export-pkg: the recipe packages BUILD_DIR (a finished build of this tree, through its
#     package() and package_info()), and the test_package builds against the package
#     (find_package(kjit), kjit_add_kernels()) and runs saxpy, checked on the host. CTest's way:
#     seconds instead of the ten minutes a second build of kjit takes on two cores.
#   tests/install/conan_package_test.sh REPO_ROOT CONAN --create
#     conan create: the recipe also builds kjit from this tree (its build()), then the same.
set -euo pipefail
root="$1"
conan="$2"
build="$3"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export CONAN_HOME="$work/home"
# The recipe and test_package from a copy: conan writes its build folders beside them.
mkdir "$work/src"
tar -C "$root" --exclude='./build*' --exclude=./.git -cf - . | tar -C "$work/src" -xf -
"$conan" profile detect > "$work/detect.log" 2>&1
profile="$work/src/conan/profiles/debian12-system"
if [ "$build" = --create ]; then
  what="conan create"
  command=(create "$work/src/conan" --no-remote --build=missing -c tools.build:jobs="$(nproc)")
else
  what="conan export-pkg"
  [ -f "$build/cmake_install.cmake" ] || { echo "FAIL: $build is no CMake build of kjit"; exit 1; }
  # The recipe's layout puts the build in conan/build/Release: there, BUILD_DIR's entries, linked,
  # beside the generators folder the recipe's generate() writes (not into BUILD_DIR).
  mkdir -p "$work/src/conan/build/Release"
  for entry in "$build"/*; do
    [ "$(basename "$entry")" = generators ] || ln -s "$entry" "$work/src/conan/build/Release/"
  done
  command=(export-pkg "$work/src/conan" -nr)
fi
if ! "$conan" "${command[@]}" -pr:h "$profile" -pr:b "$profile" > "$work/conan.log" 2>&1; then
  tail -40 "$work/conan.log"
  echo "FAIL: $what"
  exit 1
fi
grep "kjit test_package:" "$work/conan.log"
grep -q "kjit test_package: saxpy on .*: 0 of 4096 values wrong" "$work/conan.log" ||
  { tail -20 "$work/conan.log"; echo "FAIL: the test_package did not run right"; exit 1; }
echo "$what: packaged, and the test_package ran"
echo "PASS"

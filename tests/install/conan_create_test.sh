#!/usr/bin/env bash
# conan create of the recipe, offline, in a private Conan home: builds kjit from this tree with
# the system's dependencies (conan/profiles/debian12-system), packages it, and runs the
# test_package (find_package(kjit), kjit_add_kernels(), saxpy checked on the host).
#   tests/install/conan_create_test.sh REPO_ROOT CONAN
set -euo pipefail
root="$1"
conan="$2"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export CONAN_HOME="$work/home"
# The recipe and test_package from a copy: conan writes its build folders beside them.
mkdir "$work/src"
tar -C "$root" --exclude='./build*' --exclude=./.git -cf - . | tar -C "$work/src" -xf -
"$conan" profile detect > "$work/detect.log" 2>&1
profile="$work/src/conan/profiles/debian12-system"
# The CPU backend alone, without the tools: what the test_package runs on a machine without a GPU,
# and a third less to compile than the defaults (the recipe's options are checked against CMake's
# by core.conan.recipe; the plain build compiles the rest).
if ! "$conan" create "$work/src/conan" --no-remote -pr:h "$profile" -pr:b "$profile" \
  -o "kjit/*:with_cuda=False" -o "kjit/*:with_hip=False" -o "kjit/*:tools=False" \
  --build=missing -c tools.build:jobs="$(nproc)" > "$work/create.log" 2>&1; then
  tail -40 "$work/create.log"
  echo "FAIL: conan create"
  exit 1
fi
grep "kjit test_package:" "$work/create.log"
grep -q "kjit test_package: saxpy on .*: 0 of 4096 values wrong" "$work/create.log" ||
  { tail -20 "$work/create.log"; echo "FAIL: the test_package did not run right"; exit 1; }
echo "PASS"

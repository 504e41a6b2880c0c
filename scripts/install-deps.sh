#!/usr/bin/env bash
# Installs what building and testing kjit needs on Debian 12, skipping what is already there.
# Safe to run again. Uses sudo when not run as root.
set -euo pipefail

packages=(
  cmake ninja-build g++ ccache pkg-config python3
  python3-venv                                         # Conan's own environment (below)
  llvm-19-dev libclang-19-dev libclang-common-19-dev   # CPU backend: Clang + LLVM ORC in process
  libboost-context-dev                                 # CPU backend: fibers for barrier kernels
  liblld-19-dev zlib1g-dev libzstd-dev                 # bitcode for AMD GPUs: lld links code objects
  clang-19                                             # tests of the bitcode recipes (make-bitcode.sh),
  libclang-rt-19-dev                                   #   sanitizer and fuzzer builds (their runtimes)
  clang-tidy-19                                        # scripts/tidy.sh (a CI stage)
  universal-ctags                                      # scripts/layout_check.py: function sizes
  doxygen                                              # the API reference (a test: no warnings)
  gdb                                                  # cpu.tools.gdb: gdb on CPU kernels
  libspdlog-dev libfmt-dev                             # logging
  libgtest-dev libgmock-dev libbenchmark-dev           # tests and benchmarks
  libpng-dev libcli11-dev                              # the demo: PNG output; command lines
  libxxhash-dev nlohmann-json3-dev                     # disk cache: hashes, key manifests
  libhiredis-dev                                       # remote cache tier: its Redis plug-in
  redis-server                                         #   and the Redis its tests start
  libsodium23                                          #   signed remote entries (opened at run time)
  openmpi-bin libopenmpi-dev                           # the fleet example (mpirun) and its test
  libamdhip64-5 libamd-comgr2 libhiprtc-builtins5      # HIP backend's tests: hipRTC compiles
  rocm-device-libs libamdhip64-dev                     #   for AMD GPUs without one
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  sudo="sudo"
fi
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: every Debian package is installed"
else
  echo "install-deps: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# Conan 2 from PyPI, for the recipe's tests (core.conan.*), in a virtual environment of its own:
# Debian's Python refuses pip installs into the system.
conan_venv=/opt/conan-venv
if [ ! -x "$conan_venv/bin/conan" ]; then
  echo "install-deps: installing Conan 2 in $conan_venv"
  $sudo python3 -m venv "$conan_venv"
  $sudo "$conan_venv/bin/pip" install -q "conan>=2,<3"
fi

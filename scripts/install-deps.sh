#!/usr/bin/env bash
# Installs what building and testing kjit needs on Debian 12, skipping what is already there.
# Safe to run again. Uses sudo when not run as root.
set -euo pipefail

packages=(
  cmake ninja-build g++ ccache pkg-config python3
  llvm-19-dev libclang-19-dev libclang-common-19-dev   # CPU backend: Clang + LLVM ORC in process
  libboost-context-dev                                 # CPU backend: fibers for barrier kernels
  liblld-19-dev zlib1g-dev libzstd-dev                 # bitcode for AMD GPUs: lld links code objects
  clang-19                                             # tests of the bitcode recipes (make-bitcode.sh),
  libclang-rt-19-dev                                   #   sanitizer and fuzzer builds (their runtimes)
  clang-tidy-19                                        # scripts/tidy.sh (a CI stage)
  libspdlog-dev libfmt-dev                             # logging
  libgtest-dev libgmock-dev libbenchmark-dev           # tests and benchmarks
  libpng-dev libcli11-dev                              # the demo: PNG output; command lines
  libxxhash-dev nlohmann-json3-dev                     # disk cache: hashes, key manifests
  libamdhip64-5 libamd-comgr2 libhiprtc-builtins5      # HIP backend's tests: hipRTC compiles
  rocm-device-libs libamdhip64-dev                     #   for AMD GPUs without one
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: everything is installed"
  exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  sudo="sudo"
fi
echo "install-deps: installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"

#!/usr/bin/env bash
# Runs a command as if ROCm were not installed: in a mount namespace of its own (root only), the
# files of Debian's ROCm packages that scripts/install-deps.sh installs (HIP's runtime, headers
# and CMake files, hipRTC's builtins, the code object manager, the device libraries, and the HSA
# libraries they pull in) are hidden behind overlays, so that CMake finds no HIP headers and kjit
# finds no HIP runtime, exactly as on a machine without them. Nothing changes outside the command.
# What machines of kind `cpu` skip is checked this way (tests/expected_skips/README.md):
#   sudo scripts/without-rocm.sh env KJIT_MACHINE_KIND=cpu scripts/test.sh
# (in a worktree of its own: the build there is configured without ROCm).
set -euo pipefail
if [ $# -eq 0 ]; then
  echo "usage: $0 COMMAND [ARGS...]" >&2
  exit 2
fi
if [ -z "${KJIT_WITHOUT_ROCM_INSIDE:-}" ]; then
  exec unshare --mount --propagation private env KJIT_WITHOUT_ROCM_INSIDE=1 "$0" "$@"
fi
packages=(libamdhip64-5 libamdhip64-dev libamd-comgr2 libamd-comgr-dev libhiprtc-builtins5
  rocm-device-libs libhsa-runtime64-1 libhsakmt1)
scratch="$(mktemp -d /tmp/kjit-without-rocm-XXXXXX)"
rocm_only() {  # a folder that only these packages own
  local owners
  owners="$(dpkg -S "$1" 2>/dev/null | sed 's/: .*//' | tr ',' '\n' | sed 's/^ *//; s/:.*//')"
  [ -n "$owners" ] || return 1
  local owner
  for owner in $owners; do
    printf '%s\n' "${packages[@]}" | grep -qxF "$owner" || return 1
  done
}
# Each package file, and each folder that only ROCm owns, is hidden by a whiteout (a 0:0
# character device) in the upper layer of an overlay on its top folder; what lies inside a hidden
# folder needs nothing more.
declare -A tops=()
hidden=()
while read -r path; do
  [ -e "$path" ] || [ -L "$path" ] || continue
  if [ -d "$path" ] && [ ! -L "$path" ] && ! rocm_only "$path"; then
    continue  # a shared folder (/usr/include): only ROCm's entries in it go
  fi
  for h in "${hidden[@]}"; do
    [[ "$path" == "$h"/* ]] && continue 2
  done
  case "$path" in
    /usr/include/*) top=/usr/include ;;
    /usr/lib/x86_64-linux-gnu/*) top=/usr/lib/x86_64-linux-gnu ;;
    /usr/lib/cmake/*) top=/usr/lib/cmake ;;
    /usr/share/*) top=/usr/share ;;
    *) continue ;;
  esac
  tops[$top]=1
  hidden+=("$path")
  relative="${path#"$top"/}"
  mkdir -p "$scratch/upper$top/$(dirname "$relative")"
  mknod "$scratch/upper$top/$relative" c 0 0
done < <(dpkg -L "${packages[@]}" 2>/dev/null | sort -u | awk '{ print length($0) " " $0 }' |
  sort -n | cut -d' ' -f2-)
for top in "${!tops[@]}"; do
  mkdir -p "$scratch/work$top"
  mount -t overlay overlay \
    -o "lowerdir=$top,upperdir=$scratch/upper$top,workdir=$scratch/work$top" "$top"
done
echo "without-rocm: ${#hidden[@]} paths of ${packages[*]} hidden" >&2
exec "$@"

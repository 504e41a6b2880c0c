#!/usr/bin/env bash
# The fleet example as a job would run it: four MPI ranks, each with a disk cache of its own (as
# on four nodes), all sharing one Redis (a server of this test's own, on a unix socket), all
# starting cold at once. Passes when every rank's results equal the host's and the job compiled
# each of its two kernels exactly once.
# usage: fleet_mpi_test.sh KJIT_FLEET_MPI MPIEXEC
set -euo pipefail
example="$1"
mpiexec="$2"
if ! command -v redis-server >/dev/null || ! command -v redis-cli >/dev/null; then
  echo "SKIPPED: redis-server is not installed (scripts/install-deps.sh installs it)"
  exit 77
fi
dir="$(mktemp -d)"
redis-server --port 0 --unixsocket "$dir/redis.sock" --save '' --appendonly no --dir "$dir" \
  >"$dir/redis.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null; rm -rf "$dir"' EXIT
for _ in $(seq 500); do
  redis-cli -s "$dir/redis.sock" PING 2>/dev/null | grep -q PONG && break
  sleep 0.01
done
# Open MPI refuses root unless told; CI runs as root. Ranks may outnumber cores.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# Lease waits, not timeouts, are what this tests: four processes starting LLVM on a small machine
# can be late to answer by more than the default 50 ms.
output="$(KJIT_CACHE_REMOTE="unix://$dir/redis.sock" KJIT_CACHE_REMOTE_TIMEOUT_MS=5000 \
  "$mpiexec" -np 4 --oversubscribe -x KJIT_CACHE_REMOTE -x KJIT_CACHE_REMOTE_TIMEOUT_MS \
  -x KJIT_DEVICE "$example" --node-caches "$dir/nodes" 2>&1)" || {
  echo "$output"
  echo "FAIL: the job failed"
  exit 1
}
echo "$output"
echo "$output" | grep -q "every rank's results equal the host's" || { echo "FAIL: results"; exit 1; }
echo "$output" | grep -q "2 programs: 2 compiles" || {
  echo "FAIL: the job did not compile each kernel exactly once"
  exit 1
}
[ "$(ls "$dir/nodes" | wc -l)" -eq 4 ] || { echo "FAIL: not one disk cache per rank"; exit 1; }
echo PASS

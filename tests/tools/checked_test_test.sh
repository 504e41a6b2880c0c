#!/usr/bin/env bash
# cmake/KjitCheckedTestScript.cmake, which runs the tests that check a program's output: it must
# fail a program that prints the right text but exits with the wrong status, and one that exits
# right but prints something else; and pass one that does both, arguments with ';' kept whole.
set -uo pipefail
script="$1"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
printf 'result 7\n' > "$dir/expect.txt"
check() {  # check <wanted cmake exit: pass|fail> <expected status> <command...>
  local want="$1" status="$2"
  shift 2
  cmake -DEXPECT_STATUS="$status" -DEXPECT_FILE="$dir/expect.txt" -P "$script" -- "$@" \
    > "$dir/out.txt" 2>&1
  local rc=$?
  if { [ "$want" = pass ] && [ $rc -ne 0 ]; } || { [ "$want" = fail ] && [ $rc -eq 0 ]; }; then
    echo "FAIL: wanted $want for status $status and: $*"
    cat "$dir/out.txt"
    exit 1
  fi
}
check pass 0 sh -c 'echo result 7'
check fail 0 sh -c 'echo result 7; exit 3'      # right text, wrong status
check fail 0 sh -c 'echo result 8'              # right status, wrong text
check pass nonzero sh -c 'echo result 7; exit 1'
check fail nonzero sh -c 'echo result 7'
check fail 0 sh -c 'echo result 7; exit 3' x    # the ';' stays inside its argument
echo "PASS"

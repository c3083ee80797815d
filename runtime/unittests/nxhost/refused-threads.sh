#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# refused-threads.sh REGEX COMMAND...: runs COMMAND as user nobody with 64
# threads at most (test/Utils/as-nobody.sh) and passes when it exits with
# status 1 and an output line matching REGEX (grep -E): the system refused
# a thread, and the tool said so instead of aborting.
# Exit 77 (skipped) when not root, or when nobody cannot run COMMAND.
regex="$1"
shift
[ "$(id -u)" = 0 ] || exit 77
command -v setpriv >/dev/null && command -v prlimit >/dev/null &&
  command -v ps >/dev/null || exit 77
as_nobody() {
  sh "$(dirname "$0")/../../../test/Utils/as-nobody.sh" 64 "$@"
}
as_nobody test -x "$1" || exit 77
output=$(as_nobody "$@" 2>&1)
status=$?
if [ "$status" -ne 1 ]; then
  echo "exit status $status, expected 1; output:" >&2
  printf '%s\n' "$output" | tail -n 5 >&2
  exit 1
fi
printf '%s\n' "$output" | grep -Eq "$regex" && exit 0
echo "no line matches: $regex; output:" >&2
printf '%s\n' "$output" | tail -n 5 >&2
exit 1

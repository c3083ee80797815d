#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# as-nobody.sh N COMMAND...: runs COMMAND as user nobody, allowed N threads
# more than nobody's processes already have (RLIMIT_NPROC counts them all,
# and root is exempt from it). Only root can do this; a caller checks
# first (refused-threads.sh, lit's refusable-threads feature).
# LeakSanitizer's check at exit forks a tracer, which the limit may refuse:
# sanitizer builds skip it here.
threads="$1"
shift
existing=$(ps -L -u 65534 --no-headers 2>/dev/null | wc -l)
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
  exec prlimit --nproc=$((existing + threads)):$((existing + threads)) \
  setpriv --reuid=65534 --regid=65534 --clear-groups "$@"

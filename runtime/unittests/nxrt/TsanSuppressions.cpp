//===- TsanSuppressions.cpp - ThreadSanitizer suppressions for libomp -----===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// libnxrt runs oneDNN and compiled loop nests on LLVM's libomp, which Debian
// ships without ThreadSanitizer instrumentation. libomp orders its threads
// with futexes and atomics that TSan cannot see, so the pthread mutexes it
// creates on one worker and locks on another look like races. Ignoring the
// interceptors called *from* libomp drops those reports only: a race between
// two accesses in our own code still has our frames on both stacks and is
// still reported.
//
// Linked into the runtime tests of TSan builds only.
//
//===----------------------------------------------------------------------===//

extern "C" const char *__tsan_default_suppressions() {
  return "called_from_lib:libomp.so\n";
}

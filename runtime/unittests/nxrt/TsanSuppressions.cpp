//===- TsanSuppressions.cpp - TSan suppressions for libomp and oneDNN -----===//
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
// Debian's oneDNN is not instrumented either: it publishes the objects of
// its primitive cache (a pthread rwlock among them) through code TSan does
// not see, so two host threads making convolutions at once look like a
// race on that lock. Its interceptors are ignored the same way.
//
// Linked into the runtime tests of TSan builds only.
//
//===----------------------------------------------------------------------===//

extern "C" const char *__tsan_default_suppressions() {
  return "called_from_lib:libomp.so\n"
         "called_from_lib:libdnnl.so\n";
}

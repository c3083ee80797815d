//===- SanitizerOptions.cpp - Failed allocations under sanitizers ---------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The runtime's allocation paths must survive malloc returning NULL, and the
// tests ask for sizes no allocator grants. ASan and TSan abort on such a
// request by default instead of returning NULL as the C library does; these
// defaults let the tests see what a program without a sanitizer sees.
//
// Linked into the runtime tests and NxRunnerTests of sanitizer builds only.
//
//===----------------------------------------------------------------------===//

extern "C" const char *__asan_default_options() {
  return "allocator_may_return_null=1";
}

extern "C" const char *__tsan_default_options() {
  return "allocator_may_return_null=1";
}

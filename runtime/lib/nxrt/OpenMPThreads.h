//===- OpenMPThreads.h - one call's OpenMP team size ------------*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// oneDNN sizes its work by the calling thread's OpenMP team size
// (omp_get_max_threads, 1 inside an active parallel region). libnxrt's
// calls into it set that size for one call and give the host its own back.
//
//===----------------------------------------------------------------------===//

#ifndef NXRT_LIB_OPENMPTHREADS_H
#define NXRT_LIB_OPENMPTHREADS_H

#include <omp.h>

namespace nxrt {

/// Sets the calling thread's OpenMP team size for the scope's lifetime and
/// restores the previous value after it. Touches only the calling thread's
/// settings: thread-safe.
class OpenMPThreads {
public:
  explicit OpenMPThreads(int threads) : previous(omp_get_max_threads()) {
    if (threads != previous)
      omp_set_num_threads(threads);
  }
  ~OpenMPThreads() {
    if (omp_get_max_threads() != previous)
      omp_set_num_threads(previous);
  }
  OpenMPThreads(const OpenMPThreads &) = delete;
  OpenMPThreads &operator=(const OpenMPThreads &) = delete;

private:
  int previous;
};

} // namespace nxrt

#endif // NXRT_LIB_OPENMPTHREADS_H

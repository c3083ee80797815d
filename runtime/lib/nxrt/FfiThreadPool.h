//===- FfiThreadPool.h - The workers of XLA_FFI_ThreadPool_* ----*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// XLA:CPU runs the tasks FFI handlers schedule on its compute pool. nx's
// compute threads are OpenMP's, which take no tasks from outside a parallel
// region, so libnxrt keeps workers of its own for them: as many as
// nxrt_compute_threads() (or as the system gives; with none, the caller
// runs each task), started on the first task and kept for the process's
// lifetime (a task may be running when static destructors would run).
//
//===----------------------------------------------------------------------===//

#ifndef NXRT_LIB_FFITHREADPOOL_H
#define NXRT_LIB_FFITHREADPOOL_H

#include <cstdint>

#include "nxrt/xla_ffi.h"

namespace nxrt::ffi {

/// Runs `task(data)` on a worker. Thread-safe.
void scheduleTask(XLA_FFI_Task *task, void *data);

/// The number of workers tasks may run on.
int64_t poolThreads();

} // namespace nxrt::ffi

#endif // NXRT_LIB_FFITHREADPOOL_H

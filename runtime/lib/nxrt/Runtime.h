//===- Runtime.h - The runtime object ---------------------------*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef NXRT_LIB_RUNTIME_H
#define NXRT_LIB_RUNTIME_H

#include <atomic>
#include <cstdint>

#include "Bridge.h"
#include "Ffi.h"
#include "Registry.h"
#include "Streams.h"
#include "Trace.h"
#include "nxrt/nxrt.h"

struct nxrt_runtime {
  nxrt::Registry registry;
  nxrt::Bridge bridge;
  nxrt::StreamTable streams;
  // nxrt_runtime_set_callback_dispatch. Copied into each run at
  // nxrt_run_begin, so that nxrt_invoke reads them from the run, which it
  // touches anyway.
  std::atomic<bool> routeCallbacks{false};
  std::atomic<int64_t> routedTimeoutMs{0};
  // nxrt_runtime_set_tracer / _trace_log, likewise copied at run begin.
  nxrt::TraceSettings tracing;
  // XLA_FFI_ExecutionContext_Get's data (nxrt_ffi_set_context_data).
  nxrt::ffi::ContextData ffiContext;
};

namespace nxrt {
// Registers the LAPACK-backed qr/eigh targets (LinAlg.cpp).
absl::Status registerLinAlgTargets(Registry &registry);
} // namespace nxrt

#endif // NXRT_LIB_RUNTIME_H

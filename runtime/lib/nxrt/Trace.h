//===- Trace.h - Tracing host calls -----------------------------*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What a run traces is fixed when it begins, so nxrt_invoke tests one flag
// of the run it already reads, and an untraced run measures nothing.
//
//===----------------------------------------------------------------------===//

#ifndef NXRT_LIB_TRACE_H
#define NXRT_LIB_TRACE_H

#include <cstdint>

#include "Sync.h"
#include "nxrt/nxrt.h"

namespace nxrt {

// A run's tracing, copied from the runtime at nxrt_run_begin.
struct TraceConfig {
  nxrt_trace_fn fn = nullptr;
  void *userData = nullptr;
  bool log = false;

  bool enabled() const { return fn != nullptr || log; }
};

// The runtime's tracing settings (nxrt_runtime_set_tracer / _trace_log).
class TraceSettings {
public:
  // NXRT_TRACE in the environment turns the log on.
  TraceSettings();

  void setTracer(nxrt_trace_fn fn, void *userData);
  void setLog(bool enabled);
  TraceConfig snapshot() const;

private:
  mutable Mutex mu;
  TraceConfig config ABSL_GUARDED_BY(mu);
};

// Hands `event` to the run's tracer and log.
void emitTrace(const TraceConfig &config, const nxrt_trace_event_t &event);

} // namespace nxrt

#endif // NXRT_LIB_TRACE_H

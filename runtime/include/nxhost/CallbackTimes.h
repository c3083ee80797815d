//===- CallbackTimes.h - Per-callback counts and times ----------*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef NXHOST_CALLBACKTIMES_H
#define NXHOST_CALLBACKTIMES_H

#include "nxrt/nxrt.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <map>
#include <mutex>
#include <string>

namespace nxhost {

/// What the runners' --timing adds for host calls: how often each callback,
/// custom-call target and stream operation ran, its total and its longest
/// time. Fed by the runtime's tracer, from any compute thread.
class CallbackTimes {
public:
  /// Becomes `runtime`'s tracer (nxrt_runtime_set_tracer) for the runs begun
  /// afterwards; this object must outlive them.
  void attach(nxrt_runtime_t *runtime);

  /// One row per callback, by name; nothing when no host call was made.
  void print(llvm::raw_ostream &os) const;

private:
  struct Totals {
    uint64_t calls = 0;
    uint64_t failures = 0;
    int64_t totalNs = 0;
    int64_t maxNs = 0;
  };
  static void record(void *self, const nxrt_trace_event_t *event);

  mutable std::mutex mutex;
  /// Keyed by "io_callback @log" ("outfeed at f.mlir:3:1" for streams,
  /// whose sites have no name).
  std::map<std::string, Totals> totals;
};

} // namespace nxhost

#endif // NXHOST_CALLBACKTIMES_H

//===- CallbackTimes.cpp - Per-callback counts and times ------------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "nxhost/CallbackTimes.h"

#include "llvm/Support/Format.h"

#include <algorithm>

using namespace nxhost;

void CallbackTimes::attach(nxrt_runtime_t *runtime) {
  nxrt_runtime_set_tracer(runtime, &CallbackTimes::record, this);
}

void CallbackTimes::record(void *self, const nxrt_trace_event_t *event) {
  auto *times = static_cast<CallbackTimes *>(self);
  std::string key = nxrt_site_kind_name(event->kind);
  if (event->kind == NXRT_SITE_OUTFEED || event->kind == NXRT_SITE_INFEED)
    key += std::string(" at ") + event->location;
  else
    key += std::string(" @") + event->name;
  std::lock_guard<std::mutex> lock(times->mutex);
  Totals &t = times->totals[key];
  ++t.calls;
  if (event->code != NXRT_OK)
    ++t.failures;
  t.totalNs += event->duration_ns;
  t.maxNs = std::max(t.maxNs, event->duration_ns);
}

void CallbackTimes::print(llvm::raw_ostream &os) const {
  std::lock_guard<std::mutex> lock(mutex);
  if (totals.empty())
    return;
  os << "host calls:\n"
     << llvm::format("  %8s %12s %12s  %s\n", "calls", "total (ms)", "max (ms)",
                     "callback");
  for (const auto &[key, t] : totals) {
    os << llvm::format("  %8llu %12.4f %12.4f  ",
                       static_cast<unsigned long long>(t.calls),
                       t.totalNs * 1e-6, t.maxNs * 1e-6)
       << key;
    if (t.failures)
      os << " (" << t.failures << " failed)";
    os << "\n";
  }
}

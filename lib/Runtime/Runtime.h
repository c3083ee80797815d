//===- Runtime.h - The runtime object ---------------------------*- C++ -*-===//

#ifndef NXRT_LIB_RUNTIME_RUNTIME_H
#define NXRT_LIB_RUNTIME_RUNTIME_H

#include <atomic>
#include <cstdint>

#include "Bridge.h"
#include "Registry.h"
#include "Streams.h"
#include "nxrt/nxrt.h"

struct nxrt_runtime {
  nxrt::Registry registry;
  nxrt::Bridge bridge;
  nxrt::StreamTable streams;
  // nxrt_runtime_set_callback_dispatch. Copied into each run at
  // nxrt_run_begin, so that nxrt_invoke reads them from the run, which it
  // touches anyway.
  std::atomic<bool> route_callbacks{false};
  std::atomic<int64_t> routed_timeout_ms{0};
};

namespace nxrt {
// Registers the LAPACK-backed qr/eigh targets (LinAlg.cpp).
absl::Status RegisterLinAlgTargets(Registry &registry);
} // namespace nxrt

#endif // NXRT_LIB_RUNTIME_RUNTIME_H

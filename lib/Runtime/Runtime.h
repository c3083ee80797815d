//===- Runtime.h - The runtime object ---------------------------*- C++ -*-===//

#ifndef NXRT_LIB_RUNTIME_RUNTIME_H
#define NXRT_LIB_RUNTIME_RUNTIME_H

#include "Bridge.h"
#include "Registry.h"
#include "Streams.h"
#include "nxrt/nxrt.h"

struct nxrt_runtime {
  nxrt::Registry registry;
  nxrt::Bridge bridge;
  nxrt::StreamTable streams;
};

namespace nxrt {
// Registers the LAPACK-backed qr/eigh targets (LinAlg.cpp).
absl::Status RegisterLinAlgTargets(Registry &registry);
} // namespace nxrt

#endif // NXRT_LIB_RUNTIME_RUNTIME_H

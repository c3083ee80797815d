//===- Registry.h - Callbacks and custom-call targets by name ---*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Names are resolved once per call site; afterwards compiled code reaches a
// Handler through the site's pointer. Handlers are never removed, so those
// pointers stay valid for the runtime's lifetime without reference counts.
//
//===----------------------------------------------------------------------===//

#ifndef NXRT_LIB_REGISTRY_H
#define NXRT_LIB_REGISTRY_H

#include <memory>
#include <string>

#include "Sync.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "nxrt/nxrt.h"

struct nxrt_site;

namespace nxrt {

struct Handler {
  std::string name;
  nxrt_dispatch_mode_t mode = NXRT_DISPATCH_INLINE;
  nxrt_handler_fn fn = nullptr;
  void *userData = nullptr;
  // Targets whose handler keeps data per call site (XLA FFI handlers: their
  // attributes and instantiated state) have this instead of `fn`.
  nxrt_status_t *(*siteFn)(const Handler &handler, nxrt_site &site,
                           const nxrt_call_t &call) = nullptr;
  // Bridge only: longest wait for one reply.
  absl::Duration timeout = absl::InfiniteDuration();
};

class Registry {
public:
  absl::Status addCallback(const char *name, const nxrt_callback_desc_t *desc);
  absl::Status addTarget(const char *target, nxrt_handler_fn fn,
                         void *userData);

  // NULL when unbound. A target no one registered with this registry
  // resolves to an XLA FFI handler registered on "Host" under its name, if
  // there is one, which is then bound here.
  const Handler *findCallback(absl::string_view name) const;
  const Handler *findTarget(absl::string_view name);

private:
  using Map = absl::flat_hash_map<std::string, std::unique_ptr<Handler>>;
  absl::Status add(Map &map, const char *what, std::unique_ptr<Handler> h);
  const Handler *find(const Map &map, absl::string_view name) const;

  mutable Mutex mu;
  Map callbacks ABSL_GUARDED_BY(mu);
  Map targets ABSL_GUARDED_BY(mu);
};

} // namespace nxrt

#endif // NXRT_LIB_REGISTRY_H

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

#ifndef NXRT_LIB_RUNTIME_REGISTRY_H
#define NXRT_LIB_RUNTIME_REGISTRY_H

#include <memory>
#include <string>

#include "Sync.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "nxrt/nxrt.h"

namespace nxrt {

struct Handler {
  std::string name;
  nxrt_dispatch_mode_t mode = NXRT_DISPATCH_INLINE;
  nxrt_handler_fn fn = nullptr;
  void *user_data = nullptr;
  // Bridge only: longest wait for one reply.
  absl::Duration timeout = absl::InfiniteDuration();
};

class Registry {
public:
  absl::Status AddCallback(const char *name, const nxrt_callback_desc_t *desc);
  absl::Status AddTarget(const char *target, nxrt_handler_fn fn,
                         void *user_data);

  // NULL when unbound.
  const Handler *FindCallback(absl::string_view name) const;
  const Handler *FindTarget(absl::string_view name) const;

private:
  using Map = absl::flat_hash_map<std::string, std::unique_ptr<Handler>>;
  absl::Status Add(Map &map, const char *what, std::unique_ptr<Handler> h);
  const Handler *Find(const Map &map, absl::string_view name) const;

  mutable Mutex mu_;
  Map callbacks_ ABSL_GUARDED_BY(mu_);
  Map targets_ ABSL_GUARDED_BY(mu_);
};

} // namespace nxrt

#endif // NXRT_LIB_RUNTIME_REGISTRY_H

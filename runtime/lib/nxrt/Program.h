//===- Program.h - Programs and their call sites ----------------*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef NXRT_LIB_PROGRAM_H
#define NXRT_LIB_PROGRAM_H

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "Attributes.h"
#include "Registry.h"
#include "absl/base/call_once.h"
#include "absl/status/status.h"
#include "absl/time/time.h"
#include "nxrt/nxrt.h"

namespace nxrt {
/// Per-site data of a handler; see nxrt_site::handlerData.
struct SiteData {
  virtual ~SiteData() = default;
};
} // namespace nxrt

struct nxrt_site {
  nxrt_runtime_t *runtime = nullptr;
  nxrt_site_kind_t kind = NXRT_SITE_ELIXIR_CALL;
  uint32_t id = 0;
  std::string name;
  std::string location;
  // Message prefix naming the op, e.g. "callback @f at m.mlir:3:7".
  std::string what;
  std::unique_ptr<nxrt_attrs> attrs;
  // Infeed only: the "timeout_ms" attribute.
  absl::Duration infeedTimeout = absl::InfiniteDuration();
  // Resolved at load; a site whose name was unbound then retries on each
  // invocation until the name is registered, then caches the result.
  std::atomic<const nxrt::Handler *> handler{nullptr};
  // What a handler with a siteFn keeps for this site (an XLA FFI handler's
  // attributes and state), made by its first call and destroyed with the
  // program.
  std::unique_ptr<nxrt::SiteData> handlerData;
  absl::once_flag handlerDataOnce;
  // NXRT_SITE_OPTIONAL_IO_CALLBACK, stored as an io_callback site: with no
  // handler bound, invoking it is a no-op.
  bool optional = false;

  // "callback @f at loc failed: <message>", keeping the code.
  absl::Status failed(const absl::Status &status) const;
};

struct nxrt_program {
  nxrt_runtime_t *runtime = nullptr;
  std::string name;
  std::vector<std::unique_ptr<nxrt_site>> sites;
};

#endif // NXRT_LIB_PROGRAM_H

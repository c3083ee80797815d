//===- Ffi.h - XLA FFI handlers on libnxrt ----------------------*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The pieces of the XLA FFI implementation: the process-wide handler
// registry (FfiRegistry.cpp), the API table and its functions (FfiApi.cpp),
// and calling a handler from a call site (FfiCall.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef NXRT_LIB_FFI_H
#define NXRT_LIB_FFI_H

#include <string>

#include "Program.h"
#include "Registry.h"
#include "Sync.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "nxrt/nxrt_ffi.h"

namespace nxrt::ffi {

/// One registered handler. Never removed, so pointers stay valid.
struct HandlerEntry {
  std::string name;
  XLA_FFI_Handler_Bundle bundle{};
  XLA_FFI_Handler_Traits traits = 0;
  // The API version the handler was built against (its metadata; 0.1 when
  // it gives none). Decides the layout of the State_* arguments.
  int apiMinor = 1;
};

/// The Host handler registered as `name`, or null.
const HandlerEntry *findHostHandler(absl::string_view name);

/// Registers a bundle (XLA_FFI_Handler_Register and nxrt_ffi_register).
absl::Status registerHandler(absl::string_view name, absl::string_view platform,
                             const XLA_FFI_Handler_Bundle &bundle,
                             XLA_FFI_Handler_Traits traits);

/// The nxrt::Handler that binds `entry` as a custom-call target: its
/// siteFn builds XLA FFI call frames.
std::unique_ptr<Handler> makeTargetHandler(const HandlerEntry &entry);

/// The API table (FfiApi.cpp), constant-initialized: handlers reach it
/// through every call frame.
extern const XLA_FFI_Api kApiTable;
inline const XLA_FFI_Api *api() { return &kApiTable; }

/// absl::Status <-> XLA_FFI_Error.
XLA_FFI_Error *toError(const absl::Status &status);
absl::Status takeError(XLA_FFI_Error *error);

/// Waits for a future a handler returned, until `deadline`; releases the
/// runtime's reference to it.
absl::Status awaitFuture(XLA_FFI_Future *future, absl::Time deadline);

/// XLA_FFI_ExecutionContext_Get's table: user data by type id, per runtime.
class ContextData {
public:
  void set(int64_t typeId, void *data);
  // Null when nothing is set for `typeId`.
  void *get(int64_t typeId) const;

private:
  mutable Mutex mu;
  absl::flat_hash_map<int64_t, void *> data ABSL_GUARDED_BY(mu);
};

} // namespace nxrt::ffi

/// The opaque context of the C API: one per handler call (and one per
/// instantiation). Lives on the caller's stack for the duration of the call.
struct XLA_FFI_ExecutionContext {
  const nxrt::ffi::HandlerEntry *handler = nullptr;
  nxrt_runtime_t *runtime = nullptr;
  // Null while instantiating: no run yet.
  nxrt_run_t *run = nullptr;
  XLA_FFI_ExecutionStage stage = XLA_FFI_ExecutionStage_EXECUTE;
  // The state of the call site (SiteState in FfiCall.cpp).
  struct SiteStateSlot *state = nullptr;
};

/// The one state a call site's instantiate stage may set.
struct SiteStateSlot {
  int64_t typeId = 0;
  void *state = nullptr;
  void (*deleter)(void *) = nullptr;
};

#endif // NXRT_LIB_FFI_H

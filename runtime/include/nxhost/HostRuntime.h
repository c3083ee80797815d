//===- HostRuntime.h - An nxrt runtime, its callback libraries  -*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Callback libraries
// ------------------
// A callback library is a shared object that exports
//
//   extern "C" nxrt_status_t *nx_register_callbacks(nxrt_runtime_t *runtime);
//
// It binds its host callbacks (nxrt_register_callback, usually in
// NXRT_DISPATCH_INLINE mode) and custom-call targets
// (nxrt_register_custom_call) on `runtime` and returns NULL, or an owned
// status on failure. It is called once per library, before any program is
// loaded. The library must link (or otherwise resolve) libnxrt's symbols
// from the same libnxrt the host uses. See examples/callbacks/.
//
//===----------------------------------------------------------------------===//

#ifndef NXHOST_HOSTRUNTIME_H
#define NXHOST_HOSTRUNTIME_H

#include "nxrt/nxrt.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <vector>

namespace nxhost {

/// Name of the entry point a callback library exports.
inline constexpr llvm::StringLiteral kRegisterCallbacksSymbol =
    "nx_register_callbacks";
using RegisterCallbacksFn = nxrt_status_t *(*)(nxrt_runtime_t *);
/// Optional second export: called once before the runtime is destroyed,
/// after its bridge is closed and every run has ended, so that a library
/// can close the streams and stop the threads it started for it.
inline constexpr llvm::StringLiteral kReleaseCallbacksSymbol =
    "nx_release_callbacks";
using ReleaseCallbacksFn = void (*)(nxrt_runtime_t *);

/// Owns an nxrt_runtime_t and the callback libraries loaded into it.
/// Destroy every program created against it first.
class HostRuntime {
public:
  static std::unique_ptr<HostRuntime> create();
  ~HostRuntime();
  HostRuntime(const HostRuntime &) = delete;
  HostRuntime &operator=(const HostRuntime &) = delete;

  nxrt_runtime_t *get() const { return runtime; }

  /// dlopens `path` and calls its nx_register_callbacks with this runtime;
  /// its nx_release_callbacks, if it exports one, runs in the destructor.
  /// Errors name the library and what went wrong.
  llvm::Error loadCallbackLibrary(llvm::StringRef path);

  /// Closes the bridge and releases the callback libraries (their
  /// nx_release_callbacks, last loaded first), once; the destructor does it
  /// too. Call it when every run has ended and before destroying the
  /// programs, whose call sites requests still being served refer to.
  void shutdown();

private:
  HostRuntime() = default;
  nxrt_runtime_t *runtime = nullptr;
  std::vector<void *> libraries;
  std::vector<ReleaseCallbacksFn> releases;
};

/// Converts an nxrt status to an llvm::Error (NULL -> success) and frees it.
llvm::Error statusToError(nxrt_status_t *status);

} // namespace nxhost

#endif // NXHOST_HOSTRUNTIME_H

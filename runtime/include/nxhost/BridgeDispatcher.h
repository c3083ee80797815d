//===- BridgeDispatcher.h - serve host callbacks in bridge mode -*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef NXHOST_BRIDGEDISPATCHER_H
#define NXHOST_BRIDGEDISPATCHER_H

#include "nxrt/nxrt.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <memory>
#include <string>

namespace nxhost {

/// Serves host callbacks in bridge mode: routes every callback of
/// `runtime` bound inline through its bridge, each call waiting at most
/// `timeoutMs` for its reply (<= 0: only the run deadline), and starts
/// `numThreads` dispatcher threads that pull the requests and run the bound
/// handlers (nxrt_request_serve: arguments are copies, so a call that timed
/// out on the compute side never leaves a handler reading freed memory).
/// Callback libraries and the built-in debug callbacks bind their handlers
/// on the same runtime: their streams serve the program, and a bridge hook
/// a library installs takes the requests instead of these threads.
/// Custom-call targets stay inline. The destructor closes the runtime's
/// bridge and joins the threads.
///
/// A request for a callback bound BRIDGE without a handler, which a
/// library's bridge hook would have taken had it installed one, has nobody
/// else to answer it: it fails at once, "bound for bridge dispatch, but no
/// bridge hook is installed and <tool> has no handler for it". The
/// dispatcher is therefore the only puller of the runtime's bridge.
class BridgeDispatcher {
public:
  /// Bridge mode (--dispatch=bridge), as above.
  static llvm::Expected<std::unique_ptr<BridgeDispatcher>>
  create(nxrt_runtime_t *runtime, unsigned numThreads, int64_t timeoutMs,
         llvm::StringRef tool);
  /// Inline mode: callbacks bound inline stay on the compute threads, so
  /// only calls of callbacks bound BRIDGE that no hook took reach the pull
  /// queue. Without a puller they would wait for their deadline, forever
  /// when there is none; one thread answers them instead (served by the
  /// bound handler where there is one, failed as above where there is
  /// none).
  static llvm::Expected<std::unique_ptr<BridgeDispatcher>>
  createForBridgeCallbacks(nxrt_runtime_t *runtime, llvm::StringRef tool);
  ~BridgeDispatcher();

  /// Requests served so far.
  uint64_t numServed() const;

  struct Impl;

private:
  explicit BridgeDispatcher(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl;
};

} // namespace nxhost

#endif // NXHOST_BRIDGEDISPATCHER_H

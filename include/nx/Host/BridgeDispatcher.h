//===- BridgeDispatcher.h - serve host callbacks in bridge mode -*- C++ -*-===//

#ifndef NX_HOST_BRIDGEDISPATCHER_H
#define NX_HOST_BRIDGEDISPATCHER_H

#include "nxrt/nxrt.h"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <memory>

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
class BridgeDispatcher {
public:
  static llvm::Expected<std::unique_ptr<BridgeDispatcher>>
  create(nxrt_runtime_t *runtime, unsigned numThreads, int64_t timeoutMs);
  ~BridgeDispatcher();

  /// Requests served so far.
  uint64_t numServed() const;

  struct Impl;

private:
  explicit BridgeDispatcher(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

} // namespace nxhost

#endif // NX_HOST_BRIDGEDISPATCHER_H

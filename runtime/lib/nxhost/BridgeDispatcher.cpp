//===- BridgeDispatcher.cpp - serve host callbacks in bridge mode ---------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The runtime routes every callback through its bridge
// (nxrt_runtime_set_callback_dispatch); the dispatcher threads pull the
// requests and serve each with the handler bound to its callback
// (nxrt_request_serve). One runtime serves the program and its callback
// libraries, so a library's streams and bridge hook work as they do inline:
// routed requests always come here, and a library's hook receives only the
// callbacks bound for bridge dispatch. Inline, one such thread answers the
// calls of callbacks a library bound BRIDGE without installing a hook, which
// would otherwise wait forever.
//
//===----------------------------------------------------------------------===//

#include "nxhost/BridgeDispatcher.h"
#include "nxhost/HostRuntime.h"

#include <atomic>
#include <string>
#include <system_error>
#include <thread>

using namespace nxhost;

//===----------------------------------------------------------------------===//
// Dispatcher
//===----------------------------------------------------------------------===//

struct BridgeDispatcher::Impl {
  nxrt_runtime_t *runtime = nullptr;
  /// Names the runner in the answer to a request nothing can serve.
  std::string tool;
  std::vector<std::thread> threads;
  std::atomic<uint64_t> served{0};

  ~Impl() {
    nxrt_bridge_close(runtime);
    for (std::thread &t : threads)
      t.join();
  }

  void serve(nxrt_request_t *request) {
    // Counted before answering, so that a run that saw its reply also sees
    // the count.
    served.fetch_add(1, std::memory_order_relaxed);
    nxrt_status_t *status = nxrt_request_serve(request);
    if (!status)
      return;
    nxrt_status_code_t code = nxrt_status_code(status);
    nxrt_status_free(status);
    // Only a callback bound BRIDGE has no handler. Its library expected a
    // dispatcher of its own (a bridge hook would have taken the request
    // before it reached the pull queue); nothing here can answer it, and
    // nothing else pulls, so fail the call rather than let it wait.
    if (code == NXRT_FAILED_PRECONDITION) {
      std::string message = "bound for bridge dispatch, but no bridge hook "
                            "is installed and " +
                            tool + " has no handler for it";
      nxrt_status_free(nxrt_bridge_reply(
          runtime, nxrt_request_tag(request),
          nxrt_status_create(NXRT_NOT_FOUND, message.c_str()), nullptr, 0));
    }
  }

  void loop() {
    for (;;) {
      nxrt_request_t *request = nullptr;
      nxrt_status_t *status = nxrt_bridge_pull(runtime, 0, &request);
      if (status) {
        nxrt_status_code_t code = nxrt_status_code(status);
        nxrt_status_free(status);
        if (code == NXRT_CANCELLED)
          return;
        continue;
      }
      serve(request);
      nxrt_request_release(request);
    }
  }
};

BridgeDispatcher::BridgeDispatcher(std::unique_ptr<Impl> impl)
    : impl(std::move(impl)) {}
BridgeDispatcher::~BridgeDispatcher() = default;

/// Starts the dispatcher threads; an error when the system refuses one (the
/// ones started are stopped as the dispatcher is destroyed).
static llvm::Expected<std::unique_ptr<BridgeDispatcher::Impl>>
startPullers(nxrt_runtime_t *runtime, unsigned numThreads,
             llvm::StringRef tool) {
  auto impl = std::make_unique<BridgeDispatcher::Impl>();
  impl->runtime = runtime;
  impl->tool = tool.str();
  unsigned wanted = std::max(numThreads, 1u);
  try {
    for (unsigned i = 0; i < wanted; ++i)
      impl->threads.emplace_back([p = impl.get()] { p->loop(); });
  } catch (const std::system_error &e) {
    return llvm::createStringError("cannot start dispatcher thread " +
                                   llvm::Twine(impl->threads.size() + 1) +
                                   " of " + llvm::Twine(wanted) + ": " +
                                   e.what());
  }
  return impl;
}

llvm::Expected<std::unique_ptr<BridgeDispatcher>>
BridgeDispatcher::create(nxrt_runtime_t *runtime, unsigned numThreads,
                         int64_t timeoutMs, llvm::StringRef tool) {
  if (!runtime)
    return llvm::createStringError("no runtime to serve");
  if (auto err = statusToError(nxrt_runtime_set_callback_dispatch(
          runtime, NXRT_DISPATCH_BRIDGE, timeoutMs)))
    return err;
  auto impl = startPullers(runtime, numThreads, tool);
  if (!impl)
    return impl.takeError();
  return std::unique_ptr<BridgeDispatcher>(
      new BridgeDispatcher(std::move(*impl)));
}

llvm::Expected<std::unique_ptr<BridgeDispatcher>>
BridgeDispatcher::createForBridgeCallbacks(nxrt_runtime_t *runtime,
                                           llvm::StringRef tool) {
  // One thread: a request reaches it only through a library's mistake (or
  // a library that routes its inline callbacks through the bridge itself),
  // never on a path worth serving in parallel.
  auto impl = startPullers(runtime, 1, tool);
  if (!impl)
    return impl.takeError();
  return std::unique_ptr<BridgeDispatcher>(
      new BridgeDispatcher(std::move(*impl)));
}

uint64_t BridgeDispatcher::numServed() const {
  return impl->served.load(std::memory_order_relaxed);
}

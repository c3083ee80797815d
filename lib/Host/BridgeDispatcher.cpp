//===- BridgeDispatcher.cpp - serve host callbacks in bridge mode ---------===//
//
// The runtime routes every callback through its bridge
// (nxrt_runtime_set_callback_dispatch); the dispatcher threads pull the
// requests and serve each with the handler bound to its callback
// (nxrt_request_serve). One runtime serves the program and its callback
// libraries, so a library's streams and bridge hook work as they do inline:
// routed requests always come here, and a library's hook receives only the
// callbacks bound for bridge dispatch.
//
//===----------------------------------------------------------------------===//

#include "nx/Host/BridgeDispatcher.h"
#include "nx/Host/Runtime.h"

#include <atomic>
#include <thread>

using namespace nxhost;

//===----------------------------------------------------------------------===//
// Dispatcher
//===----------------------------------------------------------------------===//

struct BridgeDispatcher::Impl {
  nxrt_runtime_t *runtime = nullptr;
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
    // before it reached the pull queue); nothing here can answer it.
    if (code == NXRT_FAILED_PRECONDITION)
      nxrt_status_free(nxrt_bridge_reply(
          runtime, nxrt_request_tag(request),
          nxrt_status_create(NXRT_NOT_FOUND,
                             "bound for bridge dispatch, but no bridge hook "
                             "is installed and nx-runner has no handler for it"),
          nullptr, 0));
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
    : impl_(std::move(impl)) {}
BridgeDispatcher::~BridgeDispatcher() = default;

llvm::Expected<std::unique_ptr<BridgeDispatcher>>
BridgeDispatcher::create(nxrt_runtime_t *runtime, unsigned numThreads,
                         int64_t timeoutMs) {
  if (!runtime)
    return llvm::createStringError("no runtime to serve");
  if (auto err = statusToError(nxrt_runtime_set_callback_dispatch(
          runtime, NXRT_DISPATCH_BRIDGE, timeoutMs)))
    return std::move(err);
  auto impl = std::make_unique<Impl>();
  impl->runtime = runtime;
  for (unsigned i = 0; i < std::max(numThreads, 1u); ++i)
    impl->threads.emplace_back([p = impl.get()] { p->loop(); });
  return std::unique_ptr<BridgeDispatcher>(
      new BridgeDispatcher(std::move(impl)));
}

uint64_t BridgeDispatcher::numServed() const {
  return impl_->served.load(std::memory_order_relaxed);
}

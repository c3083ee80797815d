//===- TestBridgeHost.cpp - a callback library that hosts the bridge ------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A callback library that is its own bridge host, the way an embedding
// (a BEAM NIF, a Python extension) is: it installs a bridge hook on the
// runtime it is loaded into, and the hook hands every request it receives
// to the library's own dispatcher thread instead of serving it on the
// compute thread. The hook receives the calls of callbacks bound BRIDGE
// only; inline handlers that the runtime routes through the bridge go to
// the host's pullers (nx-runner's dispatcher threads). The thread answers
// its own callback and refuses any other library's.
//
//   test.bridge_wrong_shape  elixir_call bound for bridge dispatch, answered
//                     with one more element in dimension 0 than its template
//                     declares, to exercise the runtime's reply check.
//   test.host.requests  elixir_call () -> i64: the number of bridge requests
//                     the hook has received so far on this runtime.
//
//===----------------------------------------------------------------------===//

#include "nxrt/nxrt.h"

#include <condition_variable>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace {

/// The library's dispatcher for one runtime.
struct Host {
  nxrt_runtime_t *runtime = nullptr;
  std::thread thread;
  std::mutex mutex;
  std::condition_variable wake;
  std::deque<nxrt_request_t *> queue; // guarded by mutex
  bool stopping = false;              // guarded by mutex
  int64_t received = 0;               // guarded by mutex
};

std::mutex hostsMutex;
std::map<nxrt_runtime_t *, Host *> hosts; // guarded by hostsMutex

nxrt_status_t *error(nxrt_status_code_t code, const std::string &message) {
  return nxrt_status_create(code, message.c_str());
}

void answerWrongShape(Host &host, nxrt_request_t *request) {
  uint64_t tag = nxrt_request_tag(request);
  if (nxrt_request_num_results(request) != 1) {
    nxrt_status_free(
        nxrt_bridge_reply(host.runtime, tag,
                          error(NXRT_INVALID_ARGUMENT,
                                "test.bridge_wrong_shape returns one tensor"),
                          nullptr, 0));
    return;
  }
  const nxrt_tensor_t *tmpl = nxrt_request_result_template(request, 0);
  std::vector<int64_t> dims(tmpl->dims, tmpl->dims + tmpl->rank);
  if (!dims.empty())
    dims[0] += 1;
  size_t n = 1;
  for (int64_t d : dims)
    n *= static_cast<size_t>(d);
  std::vector<uint8_t> data(n * nxrt_dtype_size(tmpl->dtype));
  nxrt_tensor_t result{tmpl->dtype, static_cast<int32_t>(dims.size()),
                       dims.data(), data.data()};
  nxrt_status_free(nxrt_bridge_reply(host.runtime, tag, nullptr, &result, 1));
}

void answer(Host &host, nxrt_request_t *request) {
  if (std::strcmp(nxrt_request_name(request), "test.bridge_wrong_shape") == 0) {
    answerWrongShape(host, request);
    return;
  }
  // Bound for bridge dispatch by another library, which has no handler for
  // it here: this host does not know how to answer it.
  nxrt_status_free(nxrt_bridge_reply(
      host.runtime, nxrt_request_tag(request),
      error(NXRT_UNIMPLEMENTED,
            "the test bridge host has no answer for this callback"),
      nullptr, 0));
}

void dispatch(Host *host) {
  std::unique_lock<std::mutex> lock(host->mutex);
  for (;;) {
    host->wake.wait(lock,
                    [&] { return host->stopping || !host->queue.empty(); });
    if (host->queue.empty())
      return;
    nxrt_request_t *request = host->queue.front();
    host->queue.pop_front();
    lock.unlock();
    answer(*host, request);
    nxrt_request_release(request);
    lock.lock();
  }
}

/// Runs on the compute thread: only queues the request.
void hook(void *userData, nxrt_request_t *request) {
  auto *host = static_cast<Host *>(userData);
  {
    std::lock_guard<std::mutex> lock(host->mutex);
    host->queue.push_back(request);
    ++host->received;
  }
  host->wake.notify_one();
}

nxrt_status_t *requests(void *userData, const nxrt_call_t *call) {
  auto *host = static_cast<Host *>(userData);
  if (call->nresults != 1 || call->results[0].dtype != NXRT_I64 ||
      call->results[0].rank != 0)
    return error(NXRT_INVALID_ARGUMENT,
                 "test.host.requests returns one tensor<i64>");
  std::lock_guard<std::mutex> lock(host->mutex);
  *static_cast<int64_t *>(call->results[0].data) = host->received;
  return nullptr;
}

} // namespace

extern "C" __attribute__((visibility("default"))) nxrt_status_t *
nx_register_callbacks(nxrt_runtime_t *runtime) {
  auto *host = new Host;
  host->runtime = runtime;
  {
    std::lock_guard<std::mutex> lock(hostsMutex);
    if (!hosts.emplace(runtime, host).second) {
      delete host;
      return error(NXRT_ALREADY_EXISTS,
                   "the test bridge host is already loaded on this runtime");
    }
  }
  host->thread = std::thread(dispatch, host);

  nxrt_callback_desc_t bridge{};
  bridge.mode = NXRT_DISPATCH_BRIDGE;
  bridge.timeout_ms = 5000;
  if (nxrt_status_t *st =
          nxrt_register_callback(runtime, "test.bridge_wrong_shape", &bridge))
    return st;
  nxrt_callback_desc_t inlined{};
  inlined.mode = NXRT_DISPATCH_INLINE;
  inlined.fn = requests;
  inlined.user_data = host;
  if (nxrt_status_t *st =
          nxrt_register_callback(runtime, "test.host.requests", &inlined))
    return st;
  nxrt_bridge_set_hook(runtime, hook, host);
  return nullptr;
}

extern "C" __attribute__((visibility("default"))) void
nx_release_callbacks(nxrt_runtime_t *runtime) {
  Host *host = nullptr;
  {
    std::lock_guard<std::mutex> lock(hostsMutex);
    auto it = hosts.find(runtime);
    if (it == hosts.end())
      return;
    host = it->second;
    hosts.erase(it);
  }
  nxrt_bridge_set_hook(runtime, nullptr, nullptr);
  {
    std::lock_guard<std::mutex> lock(host->mutex);
    host->stopping = true;
  }
  host->wake.notify_one();
  // Every run has ended, so the queue is drained before the thread stops.
  host->thread.join();
  delete host;
}

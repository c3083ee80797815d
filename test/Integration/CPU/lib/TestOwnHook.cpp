//===- TestOwnHook.cpp - a library whose bridge hook knows only its own ---===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A callback library that binds most of its callbacks inline and one for
// bridge dispatch, which it serves itself: it installs a bridge hook that
// answers that one callback (right away, on the compute thread) and refuses
// every other request, as a library fronting a service of its own for a
// few names would. Under nx-runner --dispatch=bridge its inline handlers
// are routed through the bridge too; they must reach nx-runner's
// dispatcher threads, never this hook, or the program fails.
//
//   test.own.negate   elixir_call (x: f32[...]) -> -x.
//   test.own.square   elixir_call (x: f32[...]) -> x * x.
//   test.own.remote   elixir_call (x: f32[...]) -> x + 100, bound for bridge
//                     dispatch and answered by the hook.
//   test.own.hook_requests  elixir_call (anything) -> i64: the number of
//                     bridge requests the hook has received on this runtime
//                     so far (the operands only order the call).
//
//===----------------------------------------------------------------------===//

#include "TestSupport.h"

#include "nxrt/nxrt.h"

#include <atomic>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace {

const char *const kRemote = "test.own.remote";

/// What the library keeps per runtime.
struct Library {
  nxrt_runtime_t *runtime = nullptr;
  std::atomic<int64_t> hookRequests{0};
};

std::mutex librariesMutex;
std::map<nxrt_runtime_t *, Library *> libraries; // guarded by librariesMutex

using nx_test::error;
using nx_test::numElements;

/// y = f(x) elementwise on one f32 tensor.
template <typename F>
nxrt_status_t *unary(const char *name, const nxrt_call_t *call, F f) {
  if (call->nargs != 1 || call->nresults != 1 ||
      call->args[0].dtype != NXRT_F32)
    return error(NXRT_INVALID_ARGUMENT,
                 std::string(name) + " takes and returns one f32 tensor");
  auto *in = static_cast<const float *>(call->args[0].data);
  auto *out = static_cast<float *>(call->results[0].data);
  for (size_t i = 0, n = numElements(call->args[0]); i < n; ++i)
    out[i] = f(in[i]);
  return nullptr;
}

nxrt_status_t *negate(void *, const nxrt_call_t *call) {
  return unary("test.own.negate", call, [](float x) { return -x; });
}

nxrt_status_t *square(void *, const nxrt_call_t *call) {
  return unary("test.own.square", call, [](float x) { return x * x; });
}

nxrt_status_t *hookRequests(void *userData, const nxrt_call_t *call) {
  auto *library = static_cast<Library *>(userData);
  if (call->nresults != 1 || call->results[0].dtype != NXRT_I64 ||
      call->results[0].rank != 0)
    return error(NXRT_INVALID_ARGUMENT,
                 "test.own.hook_requests returns one tensor<i64>");
  *static_cast<int64_t *>(call->results[0].data) =
      library->hookRequests.load(std::memory_order_relaxed);
  return nullptr;
}

/// Answers test.own.remote: x + 100. The arguments are read in place, which
/// is safe while the request is pending (the compute thread waits in this
/// very call).
nxrt_status_t *remote(const nxrt_request_t *request, std::vector<float> &out,
                      nxrt_tensor_t &result) {
  const nxrt_tensor_t *x = nxrt_request_arg(request, 0);
  if (nxrt_request_num_args(request) != 1 ||
      nxrt_request_num_results(request) != 1 || x->dtype != NXRT_F32)
    return error(NXRT_INVALID_ARGUMENT,
                 "test.own.remote takes and returns one f32 tensor");
  out.resize(numElements(*x));
  auto *in = static_cast<const float *>(x->data);
  for (size_t i = 0; i < out.size(); ++i)
    out[i] = in[i] + 100;
  result = *nxrt_request_result_template(request, 0);
  result.data = out.data();
  return nullptr;
}

/// Runs on the compute thread. Only the library's own callback is known
/// here; anything else is refused, so a request routed here by mistake
/// fails the program, naming the callback.
void hook(void *userData, nxrt_request_t *request) {
  auto *library = static_cast<Library *>(userData);
  library->hookRequests.fetch_add(1, std::memory_order_relaxed);
  const char *name = nxrt_request_name(request);
  std::vector<float> out;
  nxrt_tensor_t result{};
  nxrt_status_t *status =
      std::strcmp(name, kRemote) == 0
          ? remote(request, out, result)
          : error(NXRT_UNIMPLEMENTED,
                  std::string("this library's bridge hook serves only @") +
                      kRemote + ", not @" + name);
  nxrt_status_free(
      nxrt_bridge_reply(library->runtime, nxrt_request_tag(request), status,
                        status ? nullptr : &result, status ? 0 : 1));
  nxrt_request_release(request);
}

} // namespace

extern "C" __attribute__((visibility("default"))) nxrt_status_t *
nx_register_callbacks(nxrt_runtime_t *runtime) {
  auto *library = new Library;
  library->runtime = runtime;
  {
    std::lock_guard<std::mutex> lock(librariesMutex);
    if (!libraries.emplace(runtime, library).second) {
      delete library;
      return error(NXRT_ALREADY_EXISTS,
                   "the own-hook test library is already loaded on this "
                   "runtime");
    }
  }
  struct Entry {
    const char *name;
    nxrt_handler_fn fn;
  };
  const Entry entries[] = {{"test.own.negate", negate},
                           {"test.own.square", square},
                           {"test.own.hook_requests", hookRequests}};
  for (const Entry &e : entries) {
    nxrt_callback_desc_t desc{};
    desc.mode = NXRT_DISPATCH_INLINE;
    desc.fn = e.fn;
    desc.user_data = library;
    if (nxrt_status_t *st = nxrt_register_callback(runtime, e.name, &desc))
      return st;
  }
  nxrt_callback_desc_t bridge{};
  bridge.mode = NXRT_DISPATCH_BRIDGE;
  bridge.timeout_ms = 5000;
  if (nxrt_status_t *st = nxrt_register_callback(runtime, kRemote, &bridge))
    return st;
  nxrt_bridge_set_hook(runtime, hook, library);
  return nullptr;
}

extern "C" __attribute__((visibility("default"))) void
nx_release_callbacks(nxrt_runtime_t *runtime) {
  Library *library = nullptr;
  {
    std::lock_guard<std::mutex> lock(librariesMutex);
    auto it = libraries.find(runtime);
    if (it == libraries.end())
      return;
    library = it->second;
    libraries.erase(it);
  }
  // Every run has ended, so no hook call is under way.
  nxrt_bridge_set_hook(runtime, nullptr, nullptr);
  delete library;
}

//===- Dispatcher.h - A host-side bridge dispatcher for tests ---*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef NXRT_UNITTESTS_DISPATCHER_H
#define NXRT_UNITTESTS_DISPATCHER_H

#include <atomic>
#include <functional>
#include <thread>
#include <vector>

#include "nxrt/nxrt.h"

namespace nxrt_test {

// Threads that pull bridge requests and hand each to `serve`, which must
// reply; the request reference is released afterwards.
class Dispatcher {
public:
  Dispatcher(nxrt_runtime_t *rt, std::function<void(nxrt_request_t *)> serve,
             int threads = 1)
      : rt(rt), serve(std::move(serve)) {
    for (int i = 0; i < threads; ++i)
      pullers.emplace_back([this] { loop(); });
  }
  ~Dispatcher() {
    stop.store(true);
    for (auto &t : pullers)
      t.join();
  }

private:
  void loop() {
    while (!stop.load()) {
      nxrt_request_t *req = nullptr;
      nxrt_status_t *s = nxrt_bridge_pull(rt, 20, &req);
      if (s) {
        bool cancelled = nxrt_status_code(s) == NXRT_CANCELLED;
        nxrt_status_free(s);
        if (cancelled)
          return;
        continue;
      }
      serve(req);
      nxrt_request_release(req);
    }
  }

  nxrt_runtime_t *rt;
  std::function<void(nxrt_request_t *)> serve;
  std::atomic<bool> stop{false};
  std::vector<std::thread> pullers;
};

// Serves "add one" on f32 tensors: result[i] = arg[i] + 1, same shape.
inline void addOne(nxrt_runtime_t *rt, nxrt_request_t *req) {
  const nxrt_tensor_t *x = nxrt_request_arg(req, 0);
  size_t n = nxrt_tensor_byte_size(x) / sizeof(float);
  std::vector<float> out(n);
  for (size_t i = 0; i < n; ++i)
    out[i] = static_cast<const float *>(x->data)[i] + 1;
  nxrt_tensor_t result = *nxrt_request_result_template(req, 0);
  result.data = out.data();
  nxrt_status_free(
      nxrt_bridge_reply(rt, nxrt_request_tag(req), nullptr, &result, 1));
}

} // namespace nxrt_test

#endif // NXRT_UNITTESTS_DISPATCHER_H

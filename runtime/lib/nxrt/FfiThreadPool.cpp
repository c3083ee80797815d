//===- FfiThreadPool.cpp - The workers of XLA_FFI_ThreadPool_* ------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "FfiThreadPool.h"

#include "Sync.h"
#include "nxrt/nxrt.h"

#include <algorithm>
#include <deque>
#include <system_error>
#include <thread>
#include <utility>

namespace {

class Pool {
public:
  /// Starts `threads` workers, or as many as the system gives: it may
  /// refuse a thread (std::system_error), which would otherwise end the
  /// process from inside libnxrt's C ABI.
  explicit Pool(int threads) {
    try {
      for (; size < threads; ++size)
        std::thread([this] { work(); }).detach();
    } catch (const std::system_error &) {
    }
  }

  void schedule(XLA_FFI_Task *task, void *data) {
    // Without a single worker, the caller runs the task: it would wait in
    // the queue forever.
    if (size == 0) {
      task(data);
      return;
    }
    nxrt::MutexLock lock(&mu);
    tasks.emplace_back(task, data);
    ready.signal();
  }

  int64_t threads() const { return size; }

private:
  void work() {
    for (;;) {
      std::pair<XLA_FFI_Task *, void *> next;
      {
        nxrt::MutexLock lock(&mu);
        while (tasks.empty())
          ready.waitWithDeadline(&mu, absl::InfiniteFuture());
        next = tasks.front();
        tasks.pop_front();
      }
      next.first(next.second);
    }
  }

  int64_t size = 0;
  nxrt::Mutex mu;
  nxrt::CondVar ready;
  std::deque<std::pair<XLA_FFI_Task *, void *>> tasks ABSL_GUARDED_BY(mu);
};

Pool &pool() {
  // Never destroyed: workers may be running tasks at exit.
  static Pool *instance = new Pool(std::max(1, nxrt_compute_threads()));
  return *instance;
}

} // namespace

void nxrt::ffi::scheduleTask(XLA_FFI_Task *task, void *data) {
  pool().schedule(task, data);
}

int64_t nxrt::ffi::poolThreads() { return pool().threads(); }

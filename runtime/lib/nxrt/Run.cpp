//===- Run.cpp - Runs and the per-thread run stack ------------------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Run.h"

#include <cstdlib>

#include "Runtime.h"
#include "Status.h"

// Innermost run of the thread; each run links to the one it nests in, so a
// handler can begin a nested run and compiled code still finds the right
// one afterwards.
NXRT_INITIAL_EXEC_TLS thread_local nxrt_run_t *nxrt::tlsCurrentRun = nullptr;

nxrt_status_t *nxrt_run::fail(const absl::Status &status) {
  {
    nxrt::MutexLock lock(&mu);
    if (!failed.load(std::memory_order_relaxed)) {
      code = status.code();
      message = std::string(status.message());
      failed.store(true, std::memory_order_release);
    }
  }
  return nxrt::toC(status);
}

absl::Status nxrt_run::firstFailure() const {
  nxrt::MutexLock lock(&mu);
  return absl::Status(code, message);
}

void nxrt_run::freeTrackedAllocations() {
  allocations.forEach([](void *ptr) { std::free(ptr); });
  allocations.clear();
}

bool nxrt::isServingRequest() {
  for (const nxrt_run *run = tlsCurrentRun; run; run = run->outer)
    if (run->servesRequest)
      return true;
  return false;
}

extern "C" {

nxrt_run_t *nxrt_run_begin(nxrt_runtime_t *runtime,
                           const nxrt_run_options_t *options) {
  if (!runtime)
    return nullptr;
  auto *run = new nxrt_run;
  run->runtime = runtime;
  if (options && options->timeout_ms > 0) {
    run->timeout = absl::Milliseconds(options->timeout_ms);
    run->deadline = absl::Now() + run->timeout;
    run->hasDeadline = true;
  }
  if (runtime->routeCallbacks.load(std::memory_order_acquire) &&
      !nxrt::isServingRequest()) {
    run->routesCallbacks = true;
    int64_t ms = runtime->routedTimeoutMs.load(std::memory_order_acquire);
    if (ms > 0)
      run->routedTimeout = absl::Milliseconds(ms);
  }
  run->trace = runtime->tracing.snapshot();
  run->traced = run->trace.enabled();
  run->outer = nxrt::tlsCurrentRun;
  nxrt::tlsCurrentRun = run;
  return run;
}

nxrt_run_t *nxrt_run_current(void) { return nxrt::tlsCurrentRun; }

int32_t nxrt_run_failed(const nxrt_run_t *run) {
  return run && run->failed.load(std::memory_order_acquire) ? 1 : 0;
}

nxrt_status_t *nxrt_run_status(const nxrt_run_t *run) {
  if (!run)
    return nxrt::toC(absl::InvalidArgumentError("run is null"));
  return nxrt::toC(run->firstFailure());
}

nxrt_status_t *nxrt_run_end(nxrt_run_t *run) {
  if (!run)
    return nxrt::toC(absl::InvalidArgumentError("run is null"));
  // Normally the innermost run; tolerate out-of-order ends rather than
  // leaving a dangling pointer in the chain.
  for (nxrt_run_t **link = &nxrt::tlsCurrentRun; *link;
       link = &(*link)->outer) {
    if (*link == run) {
      *link = run->outer;
      break;
    }
  }
  nxrt_status_t *status = nxrt::toC(run->firstFailure());
  // After a failure compiled code returned early: what it still held is
  // garbage now. After a success, what is left are the buffers it returned,
  // which belong to the caller.
  if (status)
    run->freeTrackedAllocations();
  else
    run->forgetTrackedAllocations();
  delete run;
  return status;
}

} // extern "C"

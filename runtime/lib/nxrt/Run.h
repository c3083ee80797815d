//===- Run.h - One execution of a compiled program --------------*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef NXRT_LIB_RUN_H
#define NXRT_LIB_RUN_H

#include <atomic>
#include <string>

#include "PointerSet.h"
#include "Sync.h"
#include "Trace.h"
#include "absl/status/status.h"
#include "absl/time/time.h"
#include "nxrt/nxrt.h"

struct nxrt_run {
  nxrt_runtime_t *runtime = nullptr;
  absl::Time deadline = absl::InfiniteFuture();
  absl::Duration timeout = absl::InfiniteDuration();
  bool hasDeadline = false;
  // Callbacks bound INLINE go through the bridge, each call waiting at most
  // routedTimeout (nxrt_runtime_set_callback_dispatch, as of run begin).
  bool routesCallbacks = false;
  absl::Duration routedTimeout = absl::InfiniteDuration();
  // Begun by nxrt_request_serve for the handler it runs: runs nested in it
  // on its thread never route, since that thread may be the only
  // dispatcher, waiting for their calls.
  bool servesRequest = false;
  // The runtime's tracer and log as of run begin; `traced` is the one flag
  // nxrt_invoke tests.
  nxrt::TraceConfig trace;
  bool traced = false;
  // Checked without the lock on every invocation; set once, under mu.
  std::atomic<bool> failed{false};

  // Records `status` as the run's failure unless one is already recorded,
  // and returns a caller-owned copy of `status` for nxrt_invoke to return.
  nxrt_status_t *fail(const absl::Status &status);
  absl::Status firstFailure() const;

  // The run this one is nested in on its thread (nxrt_run_current after
  // it ends).
  nxrt_run *outer = nullptr;

  // Heap buffers compiled code allocated during the run and has not freed
  // yet. Compiled code stops at the first failure without reaching its
  // deallocations, so a failed run frees what is left here when it ends; a
  // run that succeeds leaves them to their owner (the buffers it returned).
  // Only the run's own thread touches them: they are recorded for the
  // calling thread's current run, and a run is current only on the thread
  // that began it (and ends there).
  void trackAllocation(void *ptr) { allocations.insert(ptr); }
  void untrackAllocation(void *ptr) { allocations.erase(ptr); }
  void freeTrackedAllocations();
  void forgetTrackedAllocations() { allocations.clear(); }

private:
  nxrt::PointerSet allocations;

  mutable nxrt::Mutex mu;
  // Kept as plain values: absl::Status reference counts live partly inside
  // the (uninstrumented) abseil library, which would confuse TSan when a
  // failure crosses threads.
  absl::StatusCode code ABSL_GUARDED_BY(mu) = absl::StatusCode::kOk;
  std::string message ABSL_GUARDED_BY(mu);
};

// The initial-exec model makes the current run one thread-pointer-relative
// load (compiled code asks for it on every host call and allocation) rather
// than a __tls_get_addr call; it needs a pointer's worth of static TLS.
#if defined(__ELF__)
#define NXRT_INITIAL_EXEC_TLS __attribute__((tls_model("initial-exec")))
#else
#define NXRT_INITIAL_EXEC_TLS
#endif

namespace nxrt {
// The innermost run begun and not yet ended on this thread (see Run.cpp).
extern NXRT_INITIAL_EXEC_TLS thread_local nxrt_run_t *tlsCurrentRun;

// Whether this thread is inside nxrt_request_serve: a run it begins serves
// its callbacks inline on it rather than routing them through the bridge.
bool isServingRequest();
} // namespace nxrt

#endif // NXRT_LIB_RUN_H

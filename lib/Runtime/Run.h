//===- Run.h - One execution of a compiled program --------------*- C++ -*-===//

#ifndef NXRT_LIB_RUNTIME_RUN_H
#define NXRT_LIB_RUNTIME_RUN_H

#include <atomic>
#include <string>

#include "Sync.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/time/time.h"
#include "nxrt/nxrt.h"

struct nxrt_run {
  nxrt_runtime_t *runtime = nullptr;
  absl::Time deadline = absl::InfiniteFuture();
  absl::Duration timeout = absl::InfiniteDuration();
  bool has_deadline = false;
  // Checked without the lock on every invocation; set once, under mu.
  std::atomic<bool> failed{false};

  // Records `status` as the run's failure unless one is already recorded,
  // and returns a caller-owned copy of `status` for nxrt_invoke to return.
  nxrt_status_t *Fail(const absl::Status &status);
  absl::Status FirstFailure() const;

  // Heap buffers compiled code allocated during the run and has not freed
  // yet. Compiled code stops at the first failure without reaching its
  // deallocations, so a failed run frees what is left here when it ends; a
  // run that succeeds leaves them to their owner (the buffers it returned).
  void TrackAllocation(void *ptr);
  // Whether `ptr` was tracked (it is no longer).
  bool UntrackAllocation(void *ptr);
  void FreeTrackedAllocations();
  void ForgetTrackedAllocations();

private:
  nxrt::SpinLock allocations_mu_;
  absl::flat_hash_set<void *> allocations_ ABSL_GUARDED_BY(allocations_mu_);

  mutable nxrt::Mutex mu_;
  // Kept as plain values: absl::Status reference counts live partly inside
  // the (uninstrumented) abseil library, which would confuse TSan when a
  // failure crosses threads.
  absl::StatusCode code_ ABSL_GUARDED_BY(mu_) = absl::StatusCode::kOk;
  std::string message_ ABSL_GUARDED_BY(mu_);
};

#endif // NXRT_LIB_RUNTIME_RUN_H

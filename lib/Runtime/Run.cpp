//===- Run.cpp - Runs and the per-thread run stack ------------------------===//

#include "Run.h"

#include <algorithm>
#include <cstdlib>
#include <vector>

#include "Status.h"

namespace {
// Innermost run last. A stack (not a single slot) so a handler can begin a
// nested run and compiled code still finds the right one afterwards.
thread_local std::vector<nxrt_run_t *> tls_runs;
} // namespace

nxrt_status_t *nxrt_run::Fail(const absl::Status &status) {
  {
    nxrt::MutexLock lock(&mu_);
    if (!failed.load(std::memory_order_relaxed)) {
      code_ = status.code();
      message_ = std::string(status.message());
      failed.store(true, std::memory_order_release);
    }
  }
  return nxrt::ToC(status);
}

absl::Status nxrt_run::FirstFailure() const {
  nxrt::MutexLock lock(&mu_);
  return absl::Status(code_, message_);
}

void nxrt_run::TrackAllocation(void *ptr) {
  nxrt::SpinLockHolder lock(&allocations_mu_);
  allocations_.insert(ptr);
}

bool nxrt_run::UntrackAllocation(void *ptr) {
  nxrt::SpinLockHolder lock(&allocations_mu_);
  return allocations_.erase(ptr) != 0;
}

void nxrt_run::FreeTrackedAllocations() {
  nxrt::SpinLockHolder lock(&allocations_mu_);
  for (void *ptr : allocations_)
    std::free(ptr);
  allocations_.clear();
}

void nxrt_run::ForgetTrackedAllocations() {
  nxrt::SpinLockHolder lock(&allocations_mu_);
  allocations_.clear();
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
    run->has_deadline = true;
  }
  tls_runs.push_back(run);
  return run;
}

nxrt_run_t *nxrt_run_current(void) {
  return tls_runs.empty() ? nullptr : tls_runs.back();
}

int32_t nxrt_run_failed(const nxrt_run_t *run) {
  return run && run->failed.load(std::memory_order_acquire) ? 1 : 0;
}

nxrt_status_t *nxrt_run_status(const nxrt_run_t *run) {
  if (!run)
    return nxrt::ToC(absl::InvalidArgumentError("run is null"));
  return nxrt::ToC(run->FirstFailure());
}

nxrt_status_t *nxrt_run_end(nxrt_run_t *run) {
  if (!run)
    return nxrt::ToC(absl::InvalidArgumentError("run is null"));
  // Normally the innermost run; tolerate out-of-order ends rather than
  // leaving a dangling pointer on the stack.
  auto it = std::find(tls_runs.rbegin(), tls_runs.rend(), run);
  if (it != tls_runs.rend())
    tls_runs.erase(std::next(it).base());
  nxrt_status_t *status = nxrt::ToC(run->FirstFailure());
  // After a failure compiled code returned early: what it still held is
  // garbage now. After a success, what is left are the buffers it returned,
  // which belong to the caller.
  if (status)
    run->FreeTrackedAllocations();
  else
    run->ForgetTrackedAllocations();
  delete run;
  return status;
}

} // extern "C"

//===- Bridge.h - Host-dispatched callbacks with reply tags -----*- C++ -*-===//
//
// The seed-000 bridge: a bridge call becomes a request with a unique reply
// tag, handed to a host-owned dispatcher (pulled, or pushed through a hook);
// the compute thread waits natively until the host replies by tag or the
// deadline passes. Requests are reference counted because the compute
// thread, the pending-tag map, the pull queue and the host each hold one and
// any of them may finish first (late replies, expired queued requests).
//
//===----------------------------------------------------------------------===//

#ifndef NXRT_LIB_RUNTIME_BRIDGE_H
#define NXRT_LIB_RUNTIME_BRIDGE_H

#include <atomic>
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "Registry.h"
#include "Sync.h"
#include "absl/container/flat_hash_map.h"
#include "absl/container/inlined_vector.h"
#include "absl/status/status.h"
#include "absl/time/time.h"
#include "nxrt/nxrt.h"

struct nxrt_request {
  enum State : int { kPending, kReplied, kExpired };

  std::atomic<int> refs{1};
  uint64_t tag = 0;
  const nxrt_site *site = nullptr;
  const nxrt::Handler *handler = nullptr;
  // Copies of the views' metadata, so it outlives the compute thread's
  // stack; arg data still points into the program's buffers. Inline storage
  // keeps typical calls free of extra allocations on the round trip.
  absl::InlinedVector<int64_t, 16> dims;
  absl::InlinedVector<nxrt_tensor_t, 4> args;
  absl::InlinedVector<nxrt_tensor_t, 4> templates;
  // The program's output buffers; written only while kPending, under mu.
  nxrt_tensor_t *outputs = nullptr;

  // Spun on by the compute thread; changes only under mu so that copying
  // into (or out of) program buffers never overlaps with expiry.
  std::atomic<int> state{kPending};
  mutable nxrt::Mutex mu;
  nxrt::CondVar done_cv; // signalled when state leaves kPending
  // Written once, under mu, before `state` leaves kPending (release); read
  // by the compute thread after it observes that (acquire), without mu.
  absl::StatusCode reply_code = absl::StatusCode::kOk;
  std::string reply_message;

  bool Done() const {
    return state.load(std::memory_order_acquire) != kPending;
  }
  void Ref() { refs.fetch_add(1, std::memory_order_relaxed); }
  void Unref() {
    if (refs.fetch_sub(1, std::memory_order_acq_rel) == 1)
      delete this;
  }
};

namespace nxrt {

class Bridge {
public:
  ~Bridge();

  // Runs one bridge call for `site` and blocks until it is answered or
  // the earlier of the run deadline and the callback's own timeout passes. The
  // returned error carries the full message.
  absl::Status Call(const nxrt_site &site, const Handler &handler,
                    absl::Time run_deadline, absl::Duration run_timeout,
                    const nxrt_tensor_t *args, size_t nargs,
                    nxrt_tensor_t *results, size_t nresults);

  absl::Status Pull(absl::Duration timeout, nxrt_request_t **out);
  absl::Status Reply(uint64_t tag, absl::Status status,
                     const nxrt_tensor_t *results, size_t nresults);
  void SetHook(nxrt_bridge_hook_fn fn, void *user_data);
  void Close();

private:
  bool HasWorkLocked() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    return !queue_.empty() || closed_.load(std::memory_order_relaxed);
  }
  void Forget(uint64_t tag);

  Mutex mu_;
  CondVar work_cv_; // signalled when queue_ grows or the bridge closes
  uint64_t next_tag_ ABSL_GUARDED_BY(mu_) = 1;
  absl::flat_hash_map<uint64_t, nxrt_request *> pending_ ABSL_GUARDED_BY(mu_);
  std::deque<nxrt_request *> queue_ ABSL_GUARDED_BY(mu_);
  nxrt_bridge_hook_fn hook_ ABSL_GUARDED_BY(mu_) = nullptr;
  void *hook_data_ ABSL_GUARDED_BY(mu_) = nullptr;
  // Mirrors of queue_.size() and the closed flag that pullers spin on
  // without taking mu_.
  std::atomic<size_t> queued_{0};
  std::atomic<bool> closed_{false};
  // Separate estimates: a dispatcher idling between bursts must not shrink
  // the budget of compute threads waiting for replies.
  AdaptiveSpin reply_spin_;
  AdaptiveSpin pull_spin_;
};

} // namespace nxrt

#endif // NXRT_LIB_RUNTIME_BRIDGE_H

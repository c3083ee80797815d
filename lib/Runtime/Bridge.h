//===- Bridge.h - Host-dispatched callbacks with reply tags -----*- C++ -*-===//
//
// The bridge (docs/Design.md, "Dispatch"): a bridge call becomes a request
// with a unique reply tag, handed to a host-owned dispatcher (pulled, or
// pushed through a hook); the compute thread waits natively until the host
// replies by tag or the deadline passes. Requests are reference counted because the compute
// thread, the pending-tag map, the pull queue and the host each hold one and
// any of them may finish first (late replies, expired queued requests).
//
//===----------------------------------------------------------------------===//

#ifndef NXRT_LIB_RUNTIME_BRIDGE_H
#define NXRT_LIB_RUNTIME_BRIDGE_H

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "Registry.h"
#include "Sync.h"
#include "absl/container/flat_hash_map.h"
#include "absl/container/inlined_vector.h"
#include "absl/status/status.h"
#include "absl/time/time.h"
#include "nxrt/nxrt.h"

// Aligned so that the fields both threads touch on every round trip share
// one cache line and nothing else does: each line moved between cores costs
// a sizeable part of a microsecond.
struct alignas(64) nxrt_request {
  // kPending -> kReplying -> kReplied when the host answers (or the bridge
  // closes), kPending -> kExpired when the compute thread's deadline passes
  // first. The transitions out of kPending are compare-exchanges, so exactly
  // one side wins; only the winner of kReplying touches the output buffers.
  enum State : int { kPending, kReplying, kReplied, kExpired };

  // --- The header line, touched by both threads on every round trip.
  std::atomic<int> state{kPending};
  std::atomic<int> refs{1};
  // Host threads copying arguments out of the program's buffers right now
  // (nxrt_request_copy_arg). The compute thread returns to compiled code
  // only once this drops to zero after the request left kPending.
  mutable std::atomic<int> readers{0};
  // Written by the replier in kReplying; read by the compute thread after it
  // observes kReplied (acquire). The message only on errors.
  absl::StatusCode reply_code = absl::StatusCode::kOk;
  // Set before the compute thread parks on `state` (a futex); the replier
  // then wakes it, and only then: a spinning waiter costs it no syscall.
  std::atomic<bool> parked{false};
  uint64_t tag = 0;
  // The bridge's pull queue links requests through here (under its lock).
  nxrt_request *next = nullptr;
  // The program's output buffers; written only by the replier in kReplying.
  nxrt_tensor_t *outputs = nullptr;
  const nxrt_site *site = nullptr;
  const nxrt::Handler *handler = nullptr;

  // --- Written once by the compute thread, then read by the host. The
  // bridge that issued it (Bridge::id_) and when (absl clock, ns), next to
  // the views, which a dispatcher reads anyway. Copies of the views'
  // metadata, so it outlives the compute thread's stack; arg data still
  // points into the program's buffers.
  uint64_t bridge_id = 0;
  int64_t issued_ns = 0;
  absl::InlinedVector<nxrt_tensor_t, 2> args;
  absl::InlinedVector<nxrt_tensor_t, 2> templates;
  absl::InlinedVector<int64_t, 8> dims;
  std::string reply_message;

  bool Pending() const {
    return state.load(std::memory_order_acquire) == kPending;
  }
  bool Replied() const {
    return state.load(std::memory_order_acquire) == kReplied;
  }
  void Ref() { refs.fetch_add(1, std::memory_order_relaxed); }
  void Unref() {
    if (refs.fetch_sub(1, std::memory_order_acq_rel) == 1)
      Recycle(this);
  }

  // A fresh request: the one last recycled, or a new one. The compute
  // thread allocates a request per call and a dispatcher thread often
  // drops the last reference; through malloc, that cross-thread free
  // contends for the arena lock with the next call's allocation, and a
  // contended glibc lock sleeps in the kernel (tens of microseconds on a
  // VM whose idle vCPUs halt, for 2-3% of round trips).
  static nxrt_request *Make();

private:
  // Resets `req` into the recycling slot (or frees it, when the slot is
  // taken or the request grew past its inline capacity).
  static void Recycle(nxrt_request *req);
};

namespace nxrt {

// The round trip is a handful of cache-line transfers between the compute
// thread and a spinning dispatcher: the queue and tag map sit behind a
// spin lock held for a few instructions, and requests carry atomic state
// instead of a mutex. absl mutexes and condition variables appear only on
// the parking paths, where threads wait anyway (abseil built without NDEBUG,
// as distributions ship it, runs deadlock detection through a process-wide
// graph on every lock and on every mutex destruction).
class Bridge {
public:
  Bridge();
  ~Bridge();

  // Runs one bridge call for `site` and blocks until it is answered or
  // the earlier of the run deadline and `timeout` (the callback's own)
  // passes. The returned error carries the full message.
  absl::Status Call(const nxrt_site &site, const Handler &handler,
                    absl::Duration timeout, absl::Time run_deadline,
                    absl::Duration run_timeout,
                    const nxrt_tensor_t *args, size_t nargs,
                    nxrt_tensor_t *results, size_t nresults);

  absl::Status Pull(absl::Duration timeout, nxrt_request_t **out);
  absl::Status Reply(uint64_t tag, absl::Status status,
                     const nxrt_tensor_t *results, size_t nresults);
  void SetHook(nxrt_bridge_hook_fn fn, void *user_data);
  void Close();

private:
  // Takes `req` out of kPending with a reply (under kReplying, which only
  // one caller can win); false if the request already expired or was
  // answered.
  bool Complete(nxrt_request *req, absl::Status status,
                const nxrt_tensor_t *results, size_t nresults);
  // Blocks until `req` is answered or `deadline` passes; returns whether
  // the request expired.
  bool AwaitReply(nxrt_request *req, absl::Time deadline);
  void Forget(uint64_t tag);

  const uint64_t id_;

  // What a round trip touches besides the request, in one cache line.
  alignas(64) SpinLock lock_;
  // The number of queued requests and the closed flag, which pullers spin
  // on without the lock.
  std::atomic<size_t> queued_{0};
  std::atomic<bool> closed_{false};
  // The pull queue, linked through nxrt_request::next.
  nxrt_request *head_ ABSL_GUARDED_BY(lock_) = nullptr;
  nxrt_request *tail_ ABSL_GUARDED_BY(lock_) = nullptr;
  uint64_t next_tag_ ABSL_GUARDED_BY(lock_) = 1;
  nxrt_bridge_hook_fn hook_ ABSL_GUARDED_BY(lock_) = nullptr;
  void *hook_data_ ABSL_GUARDED_BY(lock_) = nullptr;

  alignas(64) absl::flat_hash_map<uint64_t, nxrt_request *> pending_
      ABSL_GUARDED_BY(lock_);
  // The tag of the last answered call whose entry is still in pending_
  // (0: none); see the end of Call.
  std::atomic<uint64_t> answered_tag_{0};

  // Parking: pullers sleep on work_seq_ (a futex word bumped for each
  // wake-up), counted in parked_pullers_ so that pushers wake only when
  // someone sleeps; compute threads sleep on their request's state.
  alignas(64) std::atomic<int> work_seq_{0};
  std::atomic<int> parked_pullers_{0};

  // Where the two sides last ran (-1: unknown), so that a waiter sharing a
  // core with the thread it waits for yields to it instead of spinning.
  std::atomic<int> caller_cpu_{-1};
  std::atomic<int> puller_cpu_{-1};

  // Separate estimates: a dispatcher idling between bursts must not shrink
  // the budget of compute threads waiting for replies. A compute thread
  // spins up to 200 us, long enough to outlast a parked dispatcher's
  // wake-up on a VM whose idle vCPUs halt (30-60 us): the call is blocked
  // anyway, and catching that reply awake is what puts both sides back
  // into spinning. A dispatcher with nothing to do spins 20 us at most.
  alignas(64) AdaptiveSpin reply_spin_{2000, 200000};
  alignas(64) AdaptiveSpin pull_spin_{2000, 20000};
};

} // namespace nxrt

#endif // NXRT_LIB_RUNTIME_BRIDGE_H

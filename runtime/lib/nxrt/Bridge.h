//===- Bridge.h - Host-dispatched callbacks with reply tags -----*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The bridge (docs/Design.md, "Dispatch"): a bridge call becomes a request
// with a unique reply tag, handed to a host-owned dispatcher (pulled, or
// pushed through a hook: only callbacks bound BRIDGE, never routed inline
// ones); the compute thread waits natively until the host replies by tag
// or the deadline passes. Requests are reference counted because the
// compute thread, the pending-tag map, the pull queue and the host each
// hold one and any of them may finish first (late replies, expired queued
// requests).
//
//===----------------------------------------------------------------------===//

#ifndef NXRT_LIB_BRIDGE_H
#define NXRT_LIB_BRIDGE_H

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "Registry.h"
#include "Sync.h"
#include "absl/container/flat_hash_map.h"
#include "absl/container/inlined_vector.h"
#include "absl/status/status.h"
#include "absl/time/time.h"
#include "absl/types/span.h"
#include "nxrt/nxrt.h"

// Laid out for the round trip, which moves whole cache lines between the
// compute thread and the dispatcher (each a sizeable part of a
// microsecond): the header line holds what both threads touch on every
// call, the next line the views of one argument and one result (more go to
// the heap), and the pair is 128-byte aligned, a unit that x86 cores fetch
// together. What only errors and parked threads need comes after.
struct alignas(128) nxrt_request {
  // kPending -> kReplying -> kReplied when the host answers (or the bridge
  // closes), kPending -> kExpired when the compute thread's deadline passes
  // first. The transitions out of kPending are compare-exchanges, so exactly
  // one side wins; only the winner of kReplying touches the output buffers.
  enum State : int { kPending, kReplying, kReplied, kExpired };

  nxrt_request() = default;
  ~nxrt_request() {
    if (views != inlineViews)
      delete[] views;
  }
  nxrt_request(const nxrt_request &) = delete;
  nxrt_request &operator=(const nxrt_request &) = delete;

  // --- The header line, touched by both threads on every round trip.
  std::atomic<int> state{kPending};
  std::atomic<int> refs{1};
  // Host threads copying arguments out of the program's buffers right now
  // (nxrt_request_copy_arg). The compute thread returns to compiled code
  // only once this drops to zero after the request left kPending.
  mutable std::atomic<int> readers{0};
  // Set before the compute thread parks on `state` (a futex); the replier
  // then wakes it, and only then: a spinning waiter costs it no syscall.
  std::atomic<bool> parked{false};
  // An absl::StatusCode (all fit in a byte). Written by the replier in
  // kReplying; read by the compute thread after it observes kReplied
  // (acquire). The message, on errors only, is in replyMessage.
  uint8_t replyCode = 0;
  uint64_t tag = 0;
  // The program's output buffers; written only by the replier in kReplying.
  nxrt_tensor_t *outputs = nullptr;
  const nxrt_site *site = nullptr;
  const nxrt::Handler *handler = nullptr;
  // The bridge that issued it (Bridge::id).
  uint64_t bridgeId = 0;
  uint32_t numArgs = 0;
  uint32_t numResults = 0;

  // --- The views line, written once by the compute thread, then read by
  // the host: the arguments' views, then the results' (templates, data
  // null). Copies of the program's metadata, so they outlive the compute
  // thread's stack; argument data still points into the program's buffers.
  nxrt_tensor_t *views = inlineViews;
  uint32_t viewsCapacity = 2;
  nxrt_tensor_t inlineViews[2];

  // --- Cold: dimensions (read with the views of tensors of rank > 0), the
  // issue time (absl clock, ns; read by a dispatcher that parked), the pull
  // queue's link (under the bridge's lock) and an error reply's message.
  std::atomic<int64_t> issuedNs{0};
  nxrt_request *next = nullptr;
  absl::InlinedVector<int64_t, 8> dims;
  std::string replyMessage;

  absl::Span<const nxrt_tensor_t> args() const { return {views, numArgs}; }
  absl::Span<const nxrt_tensor_t> templates() const {
    return {views + numArgs, numResults};
  }
  // Makes room for the views of `nargs` arguments and `nresults` results;
  // heap storage, once needed, is kept when the request is recycled.
  void resizeViews(size_t nargs, size_t nresults) {
    size_t n = nargs + nresults;
    if (n > viewsCapacity) {
      if (views != inlineViews)
        delete[] views;
      views = new nxrt_tensor_t[n];
      viewsCapacity = static_cast<uint32_t>(n);
    }
    numArgs = static_cast<uint32_t>(nargs);
    numResults = static_cast<uint32_t>(nresults);
  }

  bool pending() const {
    return state.load(std::memory_order_acquire) == kPending;
  }
  bool replied() const {
    return state.load(std::memory_order_acquire) == kReplied;
  }
  void ref() { refs.fetch_add(1, std::memory_order_relaxed); }
  void unref() {
    if (refs.fetch_sub(1, std::memory_order_acq_rel) == 1)
      recycle(this);
  }

  // A fresh request: the one this thread recycled last, or a new one. The
  // compute thread needs a request per call; through malloc, a free on a
  // dispatcher thread contends for the arena lock with the next call's
  // allocation, and a contended glibc lock sleeps in the kernel (tens of
  // microseconds on a VM whose idle vCPUs halt, for 2-3% of round trips).
  static nxrt_request *make();

private:
  // Resets `req` into this thread's recycling slot (or frees it, when the
  // slot is taken).
  static void recycle(nxrt_request *req);
};

static_assert(offsetof(nxrt_request, views) == 64,
              "the header of a request fills exactly one cache line");
static_assert(offsetof(nxrt_request, issuedNs) == 128,
              "a request's views fill exactly the line after its header");

namespace nxrt {

// The round trip is a handful of cache-line transfers between the compute
// thread and a spinning dispatcher: the request is handed over through a
// one-slot mailbox that the dispatcher takes without a lock; the queue
// behind it and the tag map sit behind a spin lock held for a few
// instructions, which only callers take while the mailbox keeps up; and
// requests carry atomic state instead of a mutex. Nothing on the round trip
// parks or takes a mutex; parking happens only after a spin (abseil's
// mutexes, as distributions build them, would also run deadlock detection
// through a process-wide graph on every lock).
class Bridge {
public:
  Bridge();
  ~Bridge();

  // Runs one bridge call for `site` and blocks until it is answered or
  // the earlier of the run deadline and `timeout` (the callback's own)
  // passes. The request goes to the hook, if one is installed, only when
  // `handler` is bound BRIDGE; a routed inline handler's always goes to the
  // pull queue. The returned error carries the full message.
  absl::Status call(const nxrt_site &site, const Handler &handler,
                    absl::Duration timeout, absl::Time runDeadline,
                    absl::Duration runTimeout, const nxrt_tensor_t *args,
                    size_t nargs, nxrt_tensor_t *results, size_t nresults);

  absl::Status pull(absl::Duration timeout, nxrt_request_t **out);
  absl::Status reply(uint64_t tag, absl::Status status,
                     const nxrt_tensor_t *results, size_t nresults);
  void setHook(nxrt_bridge_hook_fn fn, void *userData);
  void close();

private:
  // Where post() put a request: nowhere once the bridge is closed, else
  // with `hook` (and its data) to call, or in the mailbox or pull queue
  // when `hook` is null.
  struct Posting {
    bool closed = false;
    nxrt_bridge_hook_fn hook = nullptr;
    void *hookData = nullptr;
  };

  // Tags `req` and enters it in the tag map under the lock, with the
  // hook's reference, when `toHook` and a hook is installed, or the
  // mailbox's or pull queue's; also erases the entry an answered call left
  // for this critical section (see dropEntry).
  Posting post(nxrt_request *req, bool toHook);
  // Wakes one parked puller, if any, for a request just posted to the
  // mailbox or pull queue.
  void wakeParkedPuller();
  // Erases the tag map's entry of the call of `tag` now that it returned
  // (`expired` or answered), or leaves it for the next call to erase.
  void dropEntry(uint64_t tag, bool expired);
  // Takes `req` out of kPending with a reply (under kReplying, which only
  // one caller can win); false if the request already expired or was
  // answered.
  bool complete(nxrt_request *req, absl::Status status,
                const nxrt_tensor_t *results, size_t nresults);
  // Blocks until `req` is answered or `deadline` passes; returns whether
  // the request expired. `startNs`: now, on the absl clock.
  bool awaitReply(nxrt_request *req, absl::Time deadline, int64_t startNs);
  void forget(uint64_t tag);

  const uint64_t id;

  // What an idle puller watches, in a line of its own: the mailbox, one
  // request handed over without the lock, and the number of requests in
  // the queue behind it. A round trip moves this line to the puller and
  // back once; the lock, the queue and the tag map below stay on the
  // calling thread's core while one thread calls.
  alignas(64) std::atomic<nxrt_request *> mailbox{nullptr};
  std::atomic<size_t> queued{0};

  alignas(64) SpinLock queueLock;
  bool isClosed ABSL_GUARDED_BY(queueLock) = false;
  // The pull queue, linked through nxrt_request::next: requests that came
  // while the mailbox was full. Callers fill the mailbox only under the
  // lock and only while this queue is empty, so pulls stay in call order.
  nxrt_request *head ABSL_GUARDED_BY(queueLock) = nullptr;
  nxrt_request *tail ABSL_GUARDED_BY(queueLock) = nullptr;
  uint64_t nextTag ABSL_GUARDED_BY(queueLock) = 1;
  nxrt_bridge_hook_fn hookFn ABSL_GUARDED_BY(queueLock) = nullptr;
  void *hookUserData ABSL_GUARDED_BY(queueLock) = nullptr;
  // The tag of the last answered call whose entry is still in pendingByTag
  // (0: none); see dropEntry.
  std::atomic<uint64_t> answeredTag{0};
  absl::flat_hash_map<uint64_t, nxrt_request *>
      pendingByTag ABSL_GUARDED_BY(queueLock);

  // Parking: pullers sleep on workSeq (a futex word bumped for each
  // wake-up), counted in parkedPullers so that pushers wake only when
  // someone sleeps; compute threads sleep on their request's state.
  alignas(64) std::atomic<int> workSeq{0};
  std::atomic<int> parkedPullers{0};

  // Where the two sides last ran (-1: unknown), so that a waiter sharing a
  // core with the thread it waits for yields to it instead of spinning.
  std::atomic<int> callerCpu{-1};
  std::atomic<int> pullerCpu{-1};

  // Separate estimates: a dispatcher idling between bursts must not shrink
  // the budget of compute threads waiting for replies. A compute thread
  // spins up to 200 us, long enough to outlast a parked dispatcher's
  // wake-up on a VM whose idle vCPUs halt (30-60 us): the call is blocked
  // anyway, and catching that reply awake is what puts both sides back
  // into spinning. A dispatcher with nothing to do spins 20 us at most.
  alignas(64) AdaptiveSpin replySpin{2000, 200000};
  alignas(64) AdaptiveSpin pullSpin{2000, 20000};
};

} // namespace nxrt

#endif // NXRT_LIB_BRIDGE_H

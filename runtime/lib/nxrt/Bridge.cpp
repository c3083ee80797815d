//===- Bridge.cpp - Host-dispatched callbacks with reply tags -------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Bridge.h"

#include <algorithm>
#include <climits>
#include <cstring>

#include "DType.h"
#include "Program.h"
#include "Status.h"
#include "absl/strings/str_format.h"

namespace nxrt {
namespace {

int64_t ms(absl::Duration d) { return absl::ToInt64Milliseconds(d); }

// Records the calling thread's CPU in `slot`, writing only on a change: the
// other side reads the slot on every round trip, and an unchanged line
// stays shared instead of moving between cores.
void noteCpu(std::atomic<int> &slot) {
  int cpu = currentCpu();
  if (slot.load(std::memory_order_relaxed) != cpu)
    slot.store(cpu, std::memory_order_relaxed);
}

absl::Time deadlineAfter(absl::Duration timeout) {
  return timeout == absl::InfiniteDuration() ? absl::InfiniteFuture()
                                             : absl::Now() + timeout;
}

// Fills the request's metadata copies. Views are validated first: their dims
// come from compiled code, which is trusted, but the host will read them.
absl::Status describe(nxrt_request &req, const nxrt_tensor_t *args,
                      size_t nargs, nxrt_tensor_t *results, size_t nresults) {
  if ((nargs && !args) || (nresults && !results))
    return absl::InvalidArgumentError("null argument or result array");
  size_t ndims = 0;
  for (size_t i = 0; i < nargs; ++i) {
    if (absl::Status s = validateView(args[i], "argument", i); !s.ok())
      return s;
    ndims += args[i].rank;
  }
  for (size_t i = 0; i < nresults; ++i) {
    if (absl::Status s = validateView(results[i], "result", i); !s.ok())
      return s;
    ndims += results[i].rank;
  }
  // Reserve up front: the views below point into this vector.
  req.dims.reserve(ndims);
  auto copy = [&](const nxrt_tensor_t &t, void *data) {
    nxrt_tensor_t c = t;
    c.data = data;
    c.dims = req.dims.data() + req.dims.size();
    req.dims.insert(req.dims.end(), t.dims, t.dims + t.rank);
    return c;
  };
  req.resizeViews(nargs, nresults);
  for (size_t i = 0; i < nargs; ++i)
    req.views[i] = copy(args[i], args[i].data);
  for (size_t i = 0; i < nresults; ++i)
    req.views[nargs + i] = copy(results[i], nullptr);
  req.outputs = results;
  return absl::OkStatus();
}

// What the bridge keeps per thread: the request the thread pulled last,
// with a reference of its own (see Bridge::Reply), and one recycled request
// (see nxrt_request::Make). Both are plain thread-local pointers: no atomic
// read-modify-write, whose full barrier would hold the calling thread until
// its earlier stores (into lines the other thread holds) completed.
struct ThreadCache {
  nxrt_request *pulled = nullptr;
  nxrt_request *spare = nullptr;
  // False once destroyed at thread exit: a request released later on this
  // thread (from another thread-local destructor) is freed instead.
  bool alive = true;

  ~ThreadCache() {
    clearPulled();
    alive = false;
    delete spare;
    spare = nullptr;
  }
  void setPulled(nxrt_request *next) {
    next->ref();
    clearPulled();
    pulled = next;
  }
  // Once answered: dropped then, not at the next pull, where the release
  // would delay handing out the next request.
  void clearPulled() {
    if (nxrt_request *req = pulled) {
      pulled = nullptr;
      req->unref();
    }
  }
};
thread_local ThreadCache threadCache;

// What the mailbox holds once the bridge is closed: a puller that finds it
// there returns CANCELLED without taking the lock; callers never post to a
// closed bridge.
nxrt_request *const kClosedMailbox = reinterpret_cast<nxrt_request *>(1);

// Hints name their bridge by a number never reused, unlike its address.
std::atomic<uint64_t> nextBridgeId{1};

} // namespace

Bridge::Bridge() : id(nextBridgeId.fetch_add(1, std::memory_order_relaxed)) {}

Bridge::~Bridge() { close(); }

absl::Status Bridge::call(const nxrt_site &site, const Handler &handler,
                          absl::Duration timeout, absl::Time runDeadline,
                          absl::Duration runTimeout, const nxrt_tensor_t *args,
                          size_t nargs, nxrt_tensor_t *results,
                          size_t nresults) {
  nxrt_request *req = nxrt_request::make();
  req->site = &site;
  req->handler = &handler;
  req->bridgeId = id;
  if (absl::Status s = describe(*req, args, nargs, results, nresults);
      !s.ok()) {
    req->unref();
    return site.failed(s);
  }

  // Also the request's issue time, which tells a dispatcher that parked
  // how much longer it would have had to spin (see Pull). (Read after the
  // request is out, the clock made round trips slower, not faster.)
  int64_t nowNs = absl::GetCurrentTimeNanos();
  req->issuedNs.store(nowNs, std::memory_order_relaxed);
  absl::Time callbackDeadline = timeout == absl::InfiniteDuration()
                                    ? absl::InfiniteFuture()
                                    : absl::FromUnixNanos(nowNs) + timeout;
  bool runBinds = runDeadline < callbackDeadline;
  absl::Time deadline = runBinds ? runDeadline : callbackDeadline;
  // Only callbacks bound BRIDGE go to the hook. One bound INLINE is here
  // because the run routes callbacks (nxrt_runtime_set_callback_dispatch):
  // its handler is the host's to run, from the pull queue, while a hook may
  // belong to a callback library that answers only its own names.
  Posting posting = post(req, handler.mode == NXRT_DISPATCH_BRIDGE);
  if (posting.closed) {
    req->unref();
    return absl::UnavailableError(
        absl::StrFormat("%s failed: bridge dispatcher closed", site.what));
  }
  // No lock is held here: the hook may reply (or start runs) right away.
  if (posting.hook)
    posting.hook(posting.hookData, req);
  else
    wakeParkedPuller();

  bool expired = awaitReply(req, deadline, nowNs);
  // The host may still be copying arguments out of the program's buffers.
  for (unsigned spins = 0; req->readers.load(std::memory_order_seq_cst);)
    backoff(spins);

  absl::Status result;
  if (expired)
    result = absl::DeadlineExceededError(
        runBinds ? absl::StrFormat("%s timed out after %d ms (run deadline)",
                                   site.what, ms(runTimeout))
                 : absl::StrFormat("%s timed out after %d ms", site.what,
                                   ms(timeout)));
  else if (req->replyCode != 0)
    result = site.failed(absl::Status(
        static_cast<absl::StatusCode>(req->replyCode), req->replyMessage));
  dropEntry(req->tag, expired);
  req->unref();
  return result;
}

Bridge::Posting Bridge::post(nxrt_request *req, bool toHook) {
  Posting posting;
  nxrt_request *finished = nullptr;
  {
    SpinLockHolder lock(&queueLock);
    posting.closed = isClosed;
    if (!posting.closed) {
      req->tag = nextTag++;
      // This call's reference, the tag map's, and the mailbox's, queue's
      // or hook's; no other thread has seen the request yet.
      req->refs.store(3, std::memory_order_relaxed);
      pendingByTag.emplace(req->tag, req);
      if (toHook) {
        posting.hook = hookFn;
        posting.hookData = hookUserData;
      }
      if (!posting.hook) {
        nxrt_request *empty = nullptr;
        if (head || !mailbox.compare_exchange_strong(
                        empty, req, std::memory_order_seq_cst)) {
          (tail ? tail->next : head) = req;
          tail = req;
          queued.fetch_add(1, std::memory_order_seq_cst);
        }
      }
    }
    // The entry of an answered call, left for this critical section (see
    // dropEntry); erased once this call is posted, while the dispatcher
    // works on it.
    if (uint64_t done = answeredTag.exchange(0, std::memory_order_relaxed))
      if (auto it = pendingByTag.find(done); it != pendingByTag.end()) {
        finished = it->second;
        pendingByTag.erase(it);
      }
  }
  if (finished)
    finished->unref();
  return posting;
}

void Bridge::wakeParkedPuller() {
  // Pairs with the puller's increment-then-check in Pull: either it sees
  // the posted request or we see it parked.
  if (parkedPullers.load(std::memory_order_seq_cst) > 0) {
    workSeq.fetch_add(1, std::memory_order_seq_cst);
    futexWake(workSeq, 1);
  }
}

void Bridge::dropEntry(uint64_t tag, bool expired) {
  // Replies leave the entry to us (see Reply), so the map's lines stay on
  // this thread's core. An expired call's entry goes now: a late reply must
  // find nothing. An answered call's entry goes with the next call's
  // enqueue, in the critical section that call takes anyway; until then a
  // second reply to it finds it answered. The line of answeredTag stays
  // with the calling thread; a tag displaced by a concurrent caller's is
  // erased here.
  if (expired)
    forget(tag);
  else if (uint64_t displaced =
               answeredTag.exchange(tag, std::memory_order_relaxed))
    forget(displaced);
}

bool Bridge::awaitReply(nxrt_request *req, absl::Time deadline,
                        int64_t startNs) {
  noteCpu(callerCpu);
  if (replySpin.spin([req] { return req->replied(); }, startNs, deadline,
                     pullerCpu.load(std::memory_order_relaxed)))
    return false;
  // Pairs with Complete's store-then-check: either we see kReplied below or
  // the replier sees `parked` and wakes us (a futex wait on a state that
  // already moved returns at once).
  req->parked.store(true, std::memory_order_seq_cst);
  bool expired = false;
  for (;;) {
    int state = req->state.load(std::memory_order_seq_cst);
    if (state == nxrt_request::kReplied)
      break;
    if (state == nxrt_request::kPending && absl::Now() >= deadline) {
      if (req->state.compare_exchange_strong(state, nxrt_request::kExpired,
                                             std::memory_order_seq_cst)) {
        expired = true;
        break;
      }
      // Lost to a reply being written into the program's buffers right
      // now: wait for it to finish.
      continue;
    }
    // kReplying ends in a moment, but its writer may be descheduled: sleep
    // without a deadline (it wakes us when it stores kReplied).
    futexWait(req->state, state,
              state == nxrt_request::kPending ? deadline
                                              : absl::InfiniteFuture());
  }
  replySpin.parked(absl::GetCurrentTimeNanos() - startNs);
  return expired;
}

void Bridge::forget(uint64_t tag) {
  nxrt_request *req = nullptr;
  {
    SpinLockHolder lock(&queueLock);
    auto it = pendingByTag.find(tag);
    if (it == pendingByTag.end())
      return;
    req = it->second;
    pendingByTag.erase(it);
  }
  req->unref();
}

absl::Status Bridge::pull(absl::Duration timeout, nxrt_request_t **out) {
  absl::Time deadline = deadlineAfter(timeout);
  auto hasWork = [this] {
    return mailbox.load(std::memory_order_seq_cst) != nullptr ||
           queued.load(std::memory_order_seq_cst) > 0;
  };
  for (;;) {
    // A dispatcher that just served a request spins briefly for the next
    // one: with both sides spinning a round trip stays around a
    // microsecond, whereas parking costs a futex wake-up each way.
    // Noted before the wait, not once a request came: the compute thread
    // is waiting then.
    noteCpu(pullerCpu);
    int64_t startNs = absl::GetCurrentTimeNanos();
    bool parked = !pullSpin.spin(hasWork, startNs, deadline,
                                 callerCpu.load(std::memory_order_relaxed));
    if (parked) {
      // Pairs with wakeParkedPuller's check: either hasWork() below sees
      // the request or the pusher sees us counted and bumps workSeq
      // (after which a wait on the old value returns at once).
      parkedPullers.fetch_add(1, std::memory_order_seq_cst);
      for (;;) {
        int seq = workSeq.load(std::memory_order_seq_cst);
        if (hasWork() || absl::Now() >= deadline)
          break;
        futexWait(workSeq, seq, deadline);
      }
      parkedPullers.fetch_sub(1, std::memory_order_seq_cst);
    }
    // The mailbox first: it holds the oldest request (callers queue only
    // behind a full mailbox).
    nxrt_request *req = mailbox.load(std::memory_order_acquire);
    if (req == kClosedMailbox)
      return absl::CancelledError("bridge dispatcher closed");
    // Both lines of the request cross from the calling thread's core next;
    // ask for them now, while the mailbox's line moves, not one after the
    // other (the header for writing: its reference count and state change
    // here).
    if (req) {
      __builtin_prefetch(req, 1);
      __builtin_prefetch(reinterpret_cast<const char *>(req) + 64, 0);
    }
    if (req && !mailbox.compare_exchange_strong(req, nullptr,
                                                std::memory_order_acquire))
      req = nullptr; // Another puller took it.
    if (!req && queued.load(std::memory_order_acquire) > 0) {
      SpinLockHolder lock(&queueLock);
      if (isClosed)
        return absl::CancelledError("bridge dispatcher closed");
      if (head) {
        req = head;
        head = req->next;
        if (!head)
          tail = nullptr;
        req->next = nullptr;
        queued.fetch_sub(1, std::memory_order_relaxed);
      }
    }
    // The budget must grow by how late the request came, not by how long
    // this thread took to wake up for it: on a VM whose idle vCPUs halt
    // the wake-up alone takes longer than any spin budget.
    if (parked)
      pullSpin.parked(
          req ? std::max<int64_t>(
                    0, req->issuedNs.load(std::memory_order_relaxed) - startNs)
              : absl::GetCurrentTimeNanos() - startNs);
    if (!req) {
      if (absl::Now() >= deadline)
        return absl::DeadlineExceededError(
            absl::StrFormat("no bridge request within %d ms", ms(timeout)));
      continue; // Another puller took it; keep waiting.
    }
    if (req->pending()) {
      threadCache.setPulled(req);
      *out = req;
      return absl::OkStatus();
    }
    req->unref(); // Expired while queued: nobody wants an answer.
  }
}

bool Bridge::complete(nxrt_request *req, absl::Status status,
                      const nxrt_tensor_t *results, size_t nresults) {
  int pending = nxrt_request::kPending;
  if (!req->state.compare_exchange_strong(pending, nxrt_request::kReplying,
                                          std::memory_order_acq_rel))
    return false;
  if (status.ok())
    for (size_t i = 0; i < nresults; ++i)
      std::memcpy(req->outputs[i].data, results[i].data,
                  nxrt_tensor_byte_size(&results[i]));
  req->replyCode = static_cast<uint8_t>(status.code());
  if (!status.ok())
    req->replyMessage = std::string(status.message());
  req->state.store(nxrt_request::kReplied, std::memory_order_seq_cst);
  if (req->parked.load(std::memory_order_seq_cst))
    futexWake(req->state, 1);
  return true;
}

absl::Status Bridge::reply(uint64_t tag, absl::Status status,
                           const nxrt_tensor_t *results, size_t nresults) {
  // Answers `req` with the reply, checked against its templates; false if
  // it was no longer pending.
  absl::Status mismatch;
  auto answer = [&](nxrt_request *req) {
    absl::Status outcome = status;
    mismatch = absl::OkStatus();
    if (status.ok()) {
      bool ok = (nresults == 0 || results) && nresults == req->numResults;
      for (size_t i = 0; ok && i < nresults; ++i)
        ok = validateView(results[i], "reply").ok() &&
             sameType(results[i], req->templates()[i]);
      if (!ok) {
        std::string got =
            (nresults && !results)
                ? "null results"
                : typeListString(absl::MakeConstSpan(results, nresults));
        const char *kind = req->site->kind == NXRT_SITE_IO_CALLBACK
                               ? "io_callback"
                               : "elixir_call";
        mismatch = absl::InvalidArgumentError(absl::StrFormat(
            "expected the %s function to match the given output template %s, "
            "got %s",
            kind, typeListString(req->templates()), got));
        outcome = mismatch;
      }
    }
    return complete(req, std::move(outcome), results, nresults);
  };

  // A dispatcher answers the request it pulled last: found through this
  // thread's hint, the reply leaves the tag map alone (the compute thread
  // writes it on every call, so a lookup here would pull its lines over).
  nxrt_request *hint = threadCache.pulled;
  if (hint && hint->bridgeId == id && hint->tag == tag && hint->pending() &&
      answer(hint)) {
    threadCache.clearPulled();
    return mismatch;
  }

  nxrt_request *req = nullptr;
  {
    SpinLockHolder lock(&queueLock);
    auto it = pendingByTag.find(tag);
    if (it != pendingByTag.end()) {
      req = it->second;
      req->ref();
    }
  }
  std::string unknown = absl::StrFormat(
      "no pending bridge request with reply tag %d (never issued, "
      "already answered or timed out)",
      tag);
  if (!req)
    return absl::NotFoundError(unknown);
  bool answered = answer(req);
  bool expired =
      req->state.load(std::memory_order_acquire) == nxrt_request::kExpired;
  req->unref();
  if (answered)
    return mismatch;
  // Listed, but the compute thread has not taken it off the map yet.
  if (expired)
    return absl::DeadlineExceededError(absl::StrFormat(
        "bridge request with reply tag %d already timed out", tag));
  return absl::NotFoundError(unknown);
}

void Bridge::setHook(nxrt_bridge_hook_fn fn, void *userData) {
  SpinLockHolder lock(&queueLock);
  hookFn = fn;
  hookUserData = userData;
}

void Bridge::close() {
  absl::flat_hash_map<uint64_t, nxrt_request *> pending;
  nxrt_request *queue;
  {
    SpinLockHolder lock(&queueLock);
    isClosed = true;
    pending.swap(pendingByTag);
    // Its request, if any, goes with the queue: both hold a reference.
    if (nxrt_request *posted =
            mailbox.exchange(kClosedMailbox, std::memory_order_seq_cst);
        posted && posted != kClosedMailbox) {
      posted->next = head;
      head = posted;
    }
    queue = head;
    head = tail = nullptr;
    queued.store(0, std::memory_order_relaxed);
  }
  workSeq.fetch_add(1, std::memory_order_seq_cst);
  futexWake(workSeq, INT_MAX);
  for (auto &[tag, req] : pending) {
    complete(req, absl::UnavailableError("bridge dispatcher closed"), nullptr,
             0);
    req->unref();
  }
  while (nxrt_request *req = queue) {
    queue = req->next;
    req->unref();
  }
}

} // namespace nxrt

nxrt_request *nxrt_request::make() {
  nxrt::ThreadCache &cache = nxrt::threadCache;
  if (nxrt_request *req = cache.spare) {
    cache.spare = nullptr;
    return req;
  }
  return new nxrt_request;
}

#if defined(__SANITIZE_ADDRESS__)
#define NXRT_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NXRT_ASAN 1
#endif
#endif

void nxrt_request::recycle(nxrt_request *req) {
#ifdef NXRT_ASAN
  // AddressSanitizer finds uses after the last release only if requests
  // are really freed.
  delete req;
#else
  if (req->dims.capacity() > 8) {
    delete req;
    return;
  }
  req->state.store(kPending, std::memory_order_relaxed);
  req->refs.store(1, std::memory_order_relaxed);
  req->readers.store(0, std::memory_order_relaxed);
  req->replyCode = 0;
  req->parked.store(false, std::memory_order_relaxed);
  req->tag = 0;
  req->next = nullptr;
  req->outputs = nullptr;
  req->site = nullptr;
  req->handler = nullptr;
  req->bridgeId = 0;
  req->issuedNs.store(0, std::memory_order_relaxed);
  req->numArgs = 0;
  req->numResults = 0;
  req->dims.clear();
  req->replyMessage.clear();
  // Kept by the thread that dropped the last reference: on a round trip
  // that is the calling thread (which erases the answered call's tag entry
  // after the dispatcher let go), and it takes the request for its next
  // call. Once it has one, others are freed.
  nxrt::ThreadCache &cache = nxrt::threadCache;
  if (cache.alive && !cache.spare)
    cache.spare = req;
  else
    delete req;
#endif
}

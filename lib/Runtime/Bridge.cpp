//===- Bridge.cpp - Host-dispatched callbacks with reply tags -------------===//

#include "Bridge.h"

#include <cstring>

#include "DType.h"
#include "Program.h"
#include "Status.h"
#include "absl/strings/str_format.h"

namespace nxrt {
namespace {

int64_t Ms(absl::Duration d) { return absl::ToInt64Milliseconds(d); }

absl::Time DeadlineAfter(absl::Duration timeout) {
  return timeout == absl::InfiniteDuration() ? absl::InfiniteFuture()
                                             : absl::Now() + timeout;
}

// Fills the request's metadata copies. Views are validated first: their dims
// come from compiled code, which is trusted, but the host will read them.
absl::Status Describe(nxrt_request &req, const nxrt_tensor_t *args,
                      size_t nargs, nxrt_tensor_t *results, size_t nresults) {
  if ((nargs && !args) || (nresults && !results))
    return absl::InvalidArgumentError("null argument or result array");
  size_t ndims = 0;
  for (size_t i = 0; i < nargs; ++i) {
    std::string what = absl::StrFormat("argument %d", i);
    if (absl::Status s = ValidateView(args[i], what.c_str()); !s.ok())
      return s;
    ndims += args[i].rank;
  }
  for (size_t i = 0; i < nresults; ++i) {
    std::string what = absl::StrFormat("result %d", i);
    if (absl::Status s = ValidateView(results[i], what.c_str()); !s.ok())
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
  req.args.reserve(nargs);
  for (size_t i = 0; i < nargs; ++i)
    req.args.push_back(copy(args[i], args[i].data));
  req.templates.reserve(nresults);
  for (size_t i = 0; i < nresults; ++i)
    req.templates.push_back(copy(results[i], nullptr));
  req.outputs = results;
  return absl::OkStatus();
}

} // namespace

Bridge::~Bridge() { Close(); }

absl::Status Bridge::Call(const nxrt_site &site, const Handler &handler,
                          absl::Time run_deadline, absl::Duration run_timeout,
                          const nxrt_tensor_t *args, size_t nargs,
                          nxrt_tensor_t *results, size_t nresults) {
  if (closed_.load(std::memory_order_acquire))
    return absl::UnavailableError(
        absl::StrFormat("%s failed: bridge dispatcher closed", site.what));
  auto *req = new nxrt_request;
  req->site = &site;
  req->handler = &handler;
  if (absl::Status s = Describe(*req, args, nargs, results, nresults);
      !s.ok()) {
    req->Unref();
    return site.Failed(s);
  }

  absl::Time callback_deadline = DeadlineAfter(handler.timeout);
  bool run_binds = run_deadline < callback_deadline;
  absl::Time deadline = run_binds ? run_deadline : callback_deadline;

  nxrt_bridge_hook_fn hook;
  void *hook_data;
  {
    MutexLock lock(&mu_);
    if (closed_.load(std::memory_order_relaxed)) {
      req->Unref();
      return absl::UnavailableError(
          absl::StrFormat("%s failed: bridge dispatcher closed", site.what));
    }
    req->tag = next_tag_++;
    req->Ref();
    pending_.emplace(req->tag, req);
    hook = hook_;
    hook_data = hook_data_;
    if (!hook) {
      req->Ref();
      queue_.push_back(req);
      queued_.fetch_add(1, std::memory_order_release);
      work_cv_.Signal();
    }
  }
  // No lock is held here: the hook may reply (or start runs) right away.
  if (hook) {
    req->Ref();
    hook(hook_data, req);
  }

  bool expired = false;
  if (!reply_spin_.Spin([req] { return req->Done(); }, deadline)) {
    MutexLock lock(&req->mu);
    while (!req->Done() && !req->done_cv.WaitWithDeadline(&req->mu, deadline))
      ;
    if (!req->Done()) {
      // Nothing may touch the program's buffers after this point: the reply
      // path and nxrt_request_copy_arg check the state under the same lock.
      req->state.store(nxrt_request::kExpired, std::memory_order_release);
      expired = true;
    }
  }
  absl::Status result;
  if (expired)
    result = absl::DeadlineExceededError(
        run_binds ? absl::StrFormat("%s timed out after %d ms (run deadline)",
                                    site.what, Ms(run_timeout))
                  : absl::StrFormat("%s timed out after %d ms", site.what,
                                    Ms(handler.timeout)));
  else if (req->reply_code != absl::StatusCode::kOk)
    result = site.Failed(absl::Status(req->reply_code, req->reply_message));
  if (expired)
    Forget(req->tag);
  req->Unref();
  return result;
}

void Bridge::Forget(uint64_t tag) {
  nxrt_request *req = nullptr;
  {
    MutexLock lock(&mu_);
    auto it = pending_.find(tag);
    if (it == pending_.end())
      return;
    req = it->second;
    pending_.erase(it);
  }
  req->Unref();
}

absl::Status Bridge::Pull(absl::Duration timeout, nxrt_request_t **out) {
  absl::Time deadline = DeadlineAfter(timeout);
  for (;;) {
    // A dispatcher that just served a request spins briefly for the next
    // one: with both sides spinning a round trip stays well under a
    // microsecond, whereas parking costs a futex wake-up each way.
    bool ready = pull_spin_.Spin(
        [this] {
          return queued_.load(std::memory_order_acquire) > 0 ||
                 closed_.load(std::memory_order_acquire);
        },
        deadline);
    nxrt_request *req = nullptr;
    {
      MutexLock lock(&mu_);
      if (!ready)
        while (!HasWorkLocked() && !work_cv_.WaitWithDeadline(&mu_, deadline))
          ;
      if (closed_.load(std::memory_order_relaxed))
        return absl::CancelledError("bridge dispatcher closed");
      if (queue_.empty()) {
        if (absl::Now() >= deadline)
          return absl::DeadlineExceededError(
              absl::StrFormat("no bridge request within %d ms", Ms(timeout)));
        continue; // Another puller took it; keep waiting.
      }
      req = queue_.front();
      queue_.pop_front();
      queued_.fetch_sub(1, std::memory_order_relaxed);
    }
    if (!req->Done()) {
      *out = req;
      return absl::OkStatus();
    }
    req->Unref(); // Expired while queued: nobody wants an answer.
  }
}

absl::Status Bridge::Reply(uint64_t tag, absl::Status status,
                           const nxrt_tensor_t *results, size_t nresults) {
  nxrt_request *req = nullptr;
  {
    MutexLock lock(&mu_);
    auto it = pending_.find(tag);
    if (it == pending_.end())
      return absl::NotFoundError(absl::StrFormat(
          "no pending bridge request with reply tag %d (never issued, "
          "already answered or timed out)",
          tag));
    req = it->second; // The map's reference is now ours.
    pending_.erase(it);
  }

  absl::Status mismatch;
  if (status.ok()) {
    bool ok = (nresults == 0 || results) && nresults == req->templates.size();
    for (size_t i = 0; ok && i < nresults; ++i)
      ok = ValidateView(results[i], "reply").ok() &&
           SameType(results[i], req->templates[i]);
    if (!ok) {
      std::string got =
          (nresults && !results)
              ? "null results"
              : TypeListString(absl::MakeConstSpan(results, nresults));
      const char *kind = req->site->kind == NXRT_SITE_IO_CALLBACK
                             ? "io_callback"
                             : "elixir_call";
      mismatch = absl::InvalidArgumentError(absl::StrFormat(
          "expected the %s function to match the given output template %s, "
          "got %s",
          kind, TypeListString(req->templates), got));
      status = mismatch;
    }
  }

  bool expired;
  {
    MutexLock lock(&req->mu);
    expired =
        req->state.load(std::memory_order_relaxed) != nxrt_request::kPending;
    if (!expired) {
      if (status.ok())
        for (size_t i = 0; i < nresults; ++i)
          std::memcpy(req->outputs[i].data, results[i].data,
                      nxrt_tensor_byte_size(&results[i]));
      req->reply_code = status.code();
      req->reply_message = std::string(status.message());
      req->state.store(nxrt_request::kReplied, std::memory_order_release);
      req->done_cv.Signal();
    }
  }
  req->Unref();
  if (expired)
    return absl::DeadlineExceededError(absl::StrFormat(
        "bridge request with reply tag %d already timed out", tag));
  if (!mismatch.ok())
    return mismatch;
  return absl::OkStatus();
}

void Bridge::SetHook(nxrt_bridge_hook_fn fn, void *user_data) {
  MutexLock lock(&mu_);
  hook_ = fn;
  hook_data_ = user_data;
}

void Bridge::Close() {
  absl::flat_hash_map<uint64_t, nxrt_request *> pending;
  std::deque<nxrt_request *> queue;
  {
    MutexLock lock(&mu_);
    closed_.store(true, std::memory_order_release);
    pending.swap(pending_);
    queue.swap(queue_);
    queued_.store(0, std::memory_order_relaxed);
    work_cv_.SignalAll();
  }
  for (auto &[tag, req] : pending) {
    {
      MutexLock lock(&req->mu);
      if (!req->Done()) {
        req->reply_code = absl::StatusCode::kUnavailable;
        req->reply_message = "bridge dispatcher closed";
        req->state.store(nxrt_request::kReplied, std::memory_order_release);
        req->done_cv.Signal();
      }
    }
    req->Unref();
  }
  for (nxrt_request *req : queue)
    req->Unref();
}

} // namespace nxrt

//===- BridgeTest.cpp - Bridge dispatch, replies, timeouts ----------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include <chrono>
#include <ctime>
#include <memory>
#include <mutex>
#include <pthread.h>
#include <string>
#include <thread>

#include "Dispatcher.h"
#include "TestUtil.h"

using namespace nxrt_test;
using Clock = std::chrono::steady_clock;

namespace {

class NxrtBridge : public RuntimeTest {
protected:
  // Invokes `site` once in a fresh run with x -> y and returns run_end's
  // status.
  Status runOnce(nxrt_site_t *site, nxrt_tensor_t *x, nxrt_tensor_t *y,
                 int64_t runTimeoutMs = 0) {
    nxrt_run_options_t opts{runTimeoutMs};
    nxrt_run_t *run = nxrt_run_begin(rt, &opts);
    nxrt_status_free(nxrt_invoke(run, site, x, x ? 1 : 0, y, y ? 1 : 0));
    return Status(nxrt_run_end(run));
  }
};

TEST_F(NxrtBridge, PullRoundTripWithRequestMetadata) {
  registerBridge("add1");
  nxrt_site_t *site = addSite(NXRT_SITE_ELIXIR_CALL, "add1", "b.mlir:7:3",
                              Attrs().str("static", "yes").encode());
  std::string name, location, staticArg, tmpl;
  size_t nargs = 0, nresults = 0;
  uint64_t tag = 0;
  nxrt_site_kind_t kind = NXRT_SITE_INFEED;
  std::vector<float> copied(3);
  {
    Dispatcher d(rt, [&](nxrt_request_t *req) {
      name = nxrt_request_name(req);
      location = nxrt_request_location(req);
      kind = nxrt_request_kind(req);
      tag = nxrt_request_tag(req);
      nargs = nxrt_request_num_args(req);
      nresults = nxrt_request_num_results(req);
      const char *s = "";
      nxrt_status_free(nxrt_attrs_get_string(nxrt_request_attrs(req), "static",
                                             &s, nullptr));
      staticArg = s;
      const nxrt_tensor_t *t = nxrt_request_result_template(req, 0);
      tmpl = std::to_string(t->rank) + ":" + std::to_string(t->dims[0]) +
             (t->data == nullptr ? ":null" : ":data");
      EXPECT_EQ(nxrt_request_arg(req, 1), nullptr);
      EXPECT_EQ(nxrt_request_result_template(req, 1), nullptr);
      nxrt_status_free(nxrt_request_copy_arg(req, 0, copied.data(), 12));
      addOne(rt, req);
    });
    Tensor<float> x(NXRT_F32, {3}, {1, 2, 3});
    Tensor<float> y(NXRT_F32, {3});
    Status s = runOnce(site, &x.view, &y.view);
    EXPECT_EQ(s, nullptr) << message(s);
    EXPECT_EQ(y.data, (std::vector<float>{2, 3, 4}));
  }
  EXPECT_EQ(name, "add1");
  EXPECT_EQ(location, "b.mlir:7:3");
  EXPECT_EQ(kind, NXRT_SITE_ELIXIR_CALL);
  EXPECT_NE(tag, 0u);
  EXPECT_EQ(nargs, 1u);
  EXPECT_EQ(nresults, 1u);
  EXPECT_EQ(staticArg, "yes");
  EXPECT_EQ(tmpl, "1:3:null");
  EXPECT_EQ(copied, (std::vector<float>{1, 2, 3}));
}

void replyInsideHook(void *user, nxrt_request_t *req) {
  addOne(static_cast<nxrt_runtime_t *>(user), req);
  nxrt_request_release(req);
}

TEST_F(NxrtBridge, HookMayReplySynchronously) {
  registerBridge("add1");
  nxrt_site_t *site = addSite(NXRT_SITE_ELIXIR_CALL, "add1");
  nxrt_bridge_set_hook(rt, replyInsideHook, rt);
  Tensor<float> x(NXRT_F32, {2}, {5, 6});
  Tensor<float> y(NXRT_F32, {2});
  Status s = runOnce(site, &x.view, &y.view);
  EXPECT_EQ(s, nullptr) << message(s);
  EXPECT_EQ(y.data, (std::vector<float>{6, 7}));
}

// The enif_send shape: the hook only forwards the request to a host thread.
struct Mailbox {
  std::mutex mu;
  std::vector<nxrt_request_t *> requests;

  // The request forwarded last, or null if none is waiting.
  nxrt_request_t *take() {
    std::lock_guard<std::mutex> lock(mu);
    if (requests.empty())
      return nullptr;
    nxrt_request_t *req = requests.back();
    requests.pop_back();
    return req;
  }
};

void forward(void *user, nxrt_request_t *req) {
  auto *box = static_cast<Mailbox *>(user);
  std::lock_guard<std::mutex> lock(box->mu);
  box->requests.push_back(req);
}

TEST_F(NxrtBridge, HookForwardsToHostThreadThenBackToPull) {
  registerBridge("add1");
  nxrt_site_t *site = addSite(NXRT_SITE_ELIXIR_CALL, "add1");
  Mailbox box;
  nxrt_bridge_set_hook(rt, forward, &box);
  std::atomic<bool> stop{false};
  std::thread host([&] {
    while (!stop.load()) {
      if (nxrt_request_t *req = box.take()) {
        addOne(rt, req);
        nxrt_request_release(req);
      } else {
        std::this_thread::yield();
      }
    }
  });
  Tensor<float> x(NXRT_F32, {1}, {41});
  Tensor<float> y(NXRT_F32, {1});
  Status s = runOnce(site, &x.view, &y.view);
  EXPECT_EQ(s, nullptr) << message(s);
  EXPECT_EQ(y.data[0], 42);
  stop.store(true);
  host.join();

  // Back to pull mode: nothing reaches the mailbox any more.
  nxrt_bridge_set_hook(rt, nullptr, nullptr);
  Dispatcher d(rt, [&](nxrt_request_t *req) { addOne(rt, req); });
  Status s2 = runOnce(site, &x.view, &y.view);
  EXPECT_EQ(s2, nullptr) << message(s2);
  EXPECT_TRUE(box.requests.empty());
}

TEST_F(NxrtBridge, ReplyShapeMismatchFailsRunAndReplier) {
  registerBridge("f");
  nxrt_site_t *site = addSite(NXRT_SITE_ELIXIR_CALL, "f", "s.mlir:2:9");
  std::string replier;
  Tensor<float> x(NXRT_F32, {2});
  Tensor<float> y(NXRT_F32, {2}, {7, 7});
  Status s;
  {
    Dispatcher d(rt, [&](nxrt_request_t *req) {
      Tensor<float> wrong(NXRT_F32, {3});
      Status s(nxrt_bridge_reply(rt, nxrt_request_tag(req), nullptr,
                                 &wrong.view, 1));
      replier = message(s);
    });
    s = runOnce(site, &x.view, &y.view);
  } // joins the dispatcher, which sets `replier` after replying
  EXPECT_EQ(nxrt_status_code(s.get()), NXRT_INVALID_ARGUMENT);
  EXPECT_EQ(message(s),
            "callback @f at s.mlir:2:9 failed: expected the elixir_call "
            "function to match the given output template (tensor<2xf32>), got "
            "(tensor<3xf32>)");
  EXPECT_EQ(replier, "expected the elixir_call function to match the given "
                     "output template (tensor<2xf32>), got (tensor<3xf32>)");
  EXPECT_EQ(y.data, (std::vector<float>{7, 7})) << "outputs untouched";
}

TEST_F(NxrtBridge, ReplyDtypeAndCountMismatch) {
  registerBridge("f");
  nxrt_site_t *site = addSite(NXRT_SITE_ELIXIR_CALL, "f", "s.mlir:1:1");
  Dispatcher d(rt, [&](nxrt_request_t *req) {
    Tensor<int32_t> a(NXRT_I32, {2});
    Tensor<int32_t> b(NXRT_I32, {2});
    nxrt_tensor_t two[] = {a.view, b.view};
    nxrt_status_free(
        nxrt_bridge_reply(rt, nxrt_request_tag(req), nullptr, two, 2));
  });
  Tensor<float> x(NXRT_F32, {2});
  Tensor<float> y(NXRT_F32, {2});
  Status s = runOnce(site, &x.view, &y.view);
  EXPECT_EQ(message(s), "callback @f at s.mlir:1:1 failed: expected the "
                        "elixir_call function to match the given output "
                        "template (tensor<2xf32>), got (tensor<2xi32>, "
                        "tensor<2xi32>)");
}

TEST_F(NxrtBridge, ErrorReplyFailsRunWithHostMessage) {
  registerBridge("f");
  nxrt_site_t *site = addSite(NXRT_SITE_ELIXIR_CALL, "f", "e.mlir:4:4");
  Dispatcher d(rt, [&](nxrt_request_t *req) {
    NXRT_EXPECT_OK(nxrt_bridge_reply(
        rt, nxrt_request_tag(req),
        nxrt_status_create(NXRT_UNKNOWN, "Elixir callback raised: oops"),
        nullptr, 0));
  });
  Tensor<float> x(NXRT_F32, {1});
  Tensor<float> y(NXRT_F32, {1});
  Status s = runOnce(site, &x.view, &y.view);
  EXPECT_EQ(nxrt_status_code(s.get()), NXRT_UNKNOWN);
  EXPECT_EQ(message(s),
            "callback @f at e.mlir:4:4 failed: Elixir callback raised: oops");
}

TEST_F(NxrtBridge, CallbackTimeoutThenLateReplyIsDroppedSafely) {
  registerBridge("slow", /*timeoutMs=*/50);
  nxrt_site_t *site = addSite(NXRT_SITE_ELIXIR_CALL, "slow", "t.mlir:3:1");
  Tensor<float> x(NXRT_F32, {4}, {1, 2, 3, 4});
  Tensor<float> y(NXRT_F32, {4});
  auto start = Clock::now();
  Status s = runOnce(site, &x.view, &y.view);
  auto elapsed = Clock::now() - start;
  EXPECT_EQ(nxrt_status_code(s.get()), NXRT_DEADLINE_EXCEEDED);
  EXPECT_EQ(message(s), "callback @slow at t.mlir:3:1 timed out after 50 ms");
  EXPECT_GE(elapsed, std::chrono::milliseconds(50));
  EXPECT_LT(elapsed, std::chrono::seconds(5));

  // The expired request was queued; pull skips it.
  nxrt_request_t *req = nullptr;
  Status pulled(nxrt_bridge_pull(rt, 10, &req));
  EXPECT_EQ(nxrt_status_code(pulled.get()), NXRT_DEADLINE_EXCEEDED);
  EXPECT_EQ(message(pulled), "no bridge request within 10 ms");
  EXPECT_EQ(req, nullptr);

  // A host that holds a request past its deadline (captured through the
  // hook, so the test does not depend on thread start-up times): its late
  // reply and late argument copy fail cleanly.
  nxrt_request_t *held = nullptr;
  nxrt_bridge_set_hook(
      rt,
      [](void *user, nxrt_request_t *req) {
        *static_cast<nxrt_request_t **>(user) = req;
      },
      &held);
  Status s2 = runOnce(site, &x.view, &y.view);
  nxrt_bridge_set_hook(rt, nullptr, nullptr);
  EXPECT_EQ(message(s2), "callback @slow at t.mlir:3:1 timed out after 50 ms");
  ASSERT_NE(held, nullptr);
  float buf[4];
  Status copy(nxrt_request_copy_arg(held, 0, buf, sizeof buf));
  EXPECT_EQ(nxrt_status_code(copy.get()), NXRT_DEADLINE_EXCEEDED);
  Tensor<float> late(NXRT_F32, {4});
  uint64_t tag = nxrt_request_tag(held);
  Status reply(nxrt_bridge_reply(rt, tag, nullptr, &late.view, 1));
  EXPECT_EQ(nxrt_status_code(reply.get()), NXRT_NOT_FOUND);
  EXPECT_EQ(message(reply), "no pending bridge request with reply tag " +
                                std::to_string(tag) +
                                " (never issued, already answered or timed "
                                "out)");
  // Metadata stays readable until release.
  EXPECT_STREQ(nxrt_request_name(held), "slow");
  EXPECT_EQ(nxrt_request_arg(held, 0)->dims[0], 4);
  nxrt_request_release(held);

  // The next run works.
  Dispatcher d(rt, [&](nxrt_request_t *r) { addOne(rt, r); });
  Status ok = runOnce(site, &x.view, &y.view);
  EXPECT_EQ(ok, nullptr) << message(ok);
  EXPECT_EQ(y.data, (std::vector<float>{2, 3, 4, 5}));
}

TEST_F(NxrtBridge, RunDeadlineBindsBeforeCallbackTimeout) {
  registerBridge("slow", /*timeoutMs=*/10000);
  nxrt_site_t *site = addSite(NXRT_SITE_ELIXIR_CALL, "slow", "t.mlir:5:1");
  Tensor<float> x(NXRT_F32, {1});
  Tensor<float> y(NXRT_F32, {1});
  auto start = Clock::now();
  Status s = runOnce(site, &x.view, &y.view, /*runTimeoutMs=*/40);
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(5));
  EXPECT_EQ(
      message(s),
      "callback @slow at t.mlir:5:1 timed out after 40 ms (run deadline)");
}

TEST_F(NxrtBridge, DoubleAndUnknownRepliesAreRejected) {
  registerBridge("f");
  nxrt_site_t *site = addSite(NXRT_SITE_ELIXIR_CALL, "f");
  std::string second;
  Tensor<float> x(NXRT_F32, {1}, {1});
  Tensor<float> y(NXRT_F32, {1});
  Status s;
  {
    Dispatcher d(rt, [&](nxrt_request_t *req) {
      addOne(rt, req);
      Tensor<float> again(NXRT_F32, {1}, {100});
      Status s(nxrt_bridge_reply(rt, nxrt_request_tag(req), nullptr,
                                 &again.view, 1));
      second = message(s);
    });
    s = runOnce(site, &x.view, &y.view);
  }
  EXPECT_EQ(s, nullptr) << message(s);
  EXPECT_EQ(y.data[0], 2) << "the second reply must not write";
  EXPECT_NE(second.find("no pending bridge request with reply tag"),
            std::string::npos);

  Status unknown(nxrt_bridge_reply(rt, 987654321, nullptr, nullptr, 0));
  EXPECT_EQ(nxrt_status_code(unknown.get()), NXRT_NOT_FOUND);
  // The reply's status is consumed even when the tag is unknown (LSan/ASan
  // would flag a leak).
  Status consumed(nxrt_bridge_reply(
      rt, 987654321, nxrt_status_create(NXRT_INTERNAL, "x"), nullptr, 0));
  EXPECT_EQ(nxrt_status_code(consumed.get()), NXRT_NOT_FOUND);
}

TEST_F(NxrtBridge, CloseFailsWaitersAndLaterCalls) {
  registerBridge("f");
  nxrt_site_t *site = addSite(NXRT_SITE_ELIXIR_CALL, "f", "c.mlir:8:8");
  Tensor<float> x(NXRT_F32, {1});
  Tensor<float> y(NXRT_F32, {1});
  std::thread closer([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    nxrt_bridge_close(rt);
  });
  Status s = runOnce(site, &x.view, &y.view);
  closer.join();
  EXPECT_EQ(nxrt_status_code(s.get()), NXRT_UNAVAILABLE);
  EXPECT_EQ(message(s),
            "callback @f at c.mlir:8:8 failed: bridge dispatcher closed");

  Status again = runOnce(site, &x.view, &y.view);
  EXPECT_EQ(message(again),
            "callback @f at c.mlir:8:8 failed: bridge dispatcher closed");
  nxrt_request_t *req = nullptr;
  Status pulled(nxrt_bridge_pull(rt, 1000, &req));
  EXPECT_EQ(nxrt_status_code(pulled.get()), NXRT_CANCELLED);
  nxrt_bridge_close(rt); // idempotent
}

TEST_F(NxrtBridge, CloseWakesBlockedPuller) {
  std::atomic<int> code{-1};
  std::thread puller([&] {
    nxrt_request_t *req = nullptr;
    nxrt_status_t *s = nxrt_bridge_pull(rt, 0, &req);
    code.store(nxrt_status_code(s));
    nxrt_status_free(s);
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  nxrt_bridge_close(rt);
  puller.join();
  EXPECT_EQ(code.load(), NXRT_CANCELLED);
}

TEST_F(NxrtBridge, IoCallbackThroughBridgeRepliesWithNothing) {
  registerBridge("log");
  nxrt_site_t *site = addSite(NXRT_SITE_IO_CALLBACK, "log", "io.mlir:1:1");
  std::vector<int32_t> seen;
  std::string badReply;
  auto d = std::make_unique<Dispatcher>(rt, [&](nxrt_request_t *req) {
    EXPECT_EQ(nxrt_request_kind(req), NXRT_SITE_IO_CALLBACK);
    EXPECT_EQ(nxrt_request_num_results(req), 0u);
    const nxrt_tensor_t *a = nxrt_request_arg(req, 0);
    const int32_t *p = static_cast<const int32_t *>(a->data);
    seen.assign(p, p + a->dims[0]);
    if (seen[0] == 0) {
      Tensor<int32_t> extra(NXRT_I32, {1});
      Status s(nxrt_bridge_reply(rt, nxrt_request_tag(req), nullptr,
                                 &extra.view, 1));
      badReply = message(s);
    } else {
      NXRT_EXPECT_OK(
          nxrt_bridge_reply(rt, nxrt_request_tag(req), nullptr, nullptr, 0));
    }
  });
  Tensor<int32_t> a(NXRT_I32, {3}, {7, 8, 9});
  Status s = runOnce(site, &a.view, &a.view);
  EXPECT_EQ(s, nullptr) << message(s);
  EXPECT_EQ(seen, (std::vector<int32_t>{7, 8, 9}));

  a.data[0] = 0;
  Status s2 = runOnce(site, &a.view, nullptr);
  d.reset(); // joins the dispatcher, which sets `badReply` after replying
  EXPECT_EQ(badReply, "expected the io_callback function to match the given "
                      "output template (), got (tensor<1xi32>)");
  EXPECT_EQ(nxrt_status_code(s2.get()), NXRT_INVALID_ARGUMENT);
}

TEST_F(NxrtBridge, CopyArgValidatesIndexAndCapacity) {
  registerBridge("f");
  nxrt_site_t *site = addSite(NXRT_SITE_ELIXIR_CALL, "f");
  std::string outOfRange, too_small;
  Dispatcher d(rt, [&](nxrt_request_t *req) {
    float buf[2];
    Status a(nxrt_request_copy_arg(req, 3, buf, sizeof buf));
    outOfRange = message(a);
    Status b(nxrt_request_copy_arg(req, 0, buf, 4));
    too_small = message(b);
    addOne(rt, req);
  });
  Tensor<float> x(NXRT_F32, {2});
  Tensor<float> y(NXRT_F32, {2});
  Status s = runOnce(site, &x.view, &y.view);
  EXPECT_EQ(s, nullptr) << message(s);
  EXPECT_EQ(outOfRange, "argument 3 out of range: the request has 1 arguments");
  EXPECT_EQ(too_small, "destination holds 4 bytes, argument 0 needs 8");
}

TEST_F(NxrtBridge, MalformedViewsFailBeforeDispatch) {
  registerBridge("f");
  nxrt_site_t *site = addSite(NXRT_SITE_ELIXIR_CALL, "f", "v.mlir:1:1");
  int64_t dims[] = {-3};
  nxrt_tensor_t bad{NXRT_F32, 1, dims, nullptr};
  Tensor<float> y(NXRT_F32, {1});
  Status s = runOnce(site, &bad, &y.view);
  EXPECT_EQ(message(s), "callback @f at v.mlir:1:1 failed: argument 0 has "
                        "negative dimension -3 at 0");
}

double threadCpuMs() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

// Waiters spin only briefly, then park: neither an idle dispatcher nor a
// compute thread waiting for a slow reply may burn a core.
TEST_F(NxrtBridge, IdleWaitersParkInsteadOfSpinning) {
  double pullerCpu = -1;
  std::thread puller([&] {
    double start = threadCpuMs();
    nxrt_request_t *req = nullptr;
    nxrt_status_free(nxrt_bridge_pull(rt, 300, &req));
    pullerCpu = threadCpuMs() - start;
  });
  puller.join();
  EXPECT_GE(pullerCpu, 0);
  EXPECT_LT(pullerCpu, 60) << "ms of CPU while idle for 300 ms";

  registerBridge("slow", /*timeoutMs=*/300);
  nxrt_site_t *site = addSite(NXRT_SITE_ELIXIR_CALL, "slow");
  Tensor<float> x(NXRT_F32, {1});
  Tensor<float> y(NXRT_F32, {1});
  double start = threadCpuMs();
  Status s = runOnce(site, &x.view, &y.view);
  double callerCpu = threadCpuMs() - start;
  EXPECT_EQ(nxrt_status_code(s.get()), NXRT_DEADLINE_EXCEEDED);
  EXPECT_LT(callerCpu, 60) << "ms of CPU while waiting 300 ms for a reply";
}

// Runs `n` round trips of `site` (x -> x + 1) in one run; they leave the
// spin budgets at their largest (every wait answered while spinning).
void warmUp(nxrt_runtime_t *rt, nxrt_site_t *site, int n) {
  Tensor<float> x(NXRT_F32, {1}, {1});
  Tensor<float> y(NXRT_F32, {1});
  nxrt_run_t *run = nxrt_run_begin(rt, nullptr);
  for (int i = 0; i < n; ++i)
    nxrt_status_free(nxrt_invoke(run, site, &x.view, 1, &y.view, 1));
  Status s(nxrt_run_end(run));
  ASSERT_EQ(s, nullptr) << message(s);
  ASSERT_EQ(y.data[0], 2);
}

double threadCpuMs(std::thread &t) {
  clockid_t clock;
  timespec ts{};
  if (pthread_getcpuclockid(t.native_handle(), &clock) ||
      clock_gettime(clock, &ts))
    return -1;
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

// A dispatcher that has just served a burst keeps pulling with nothing
// requested: its spinning is bounded, so over 200 ms it uses next to no
// CPU (a parked thread uses none; the bound allows for sanitizer builds
// and a loaded machine).
TEST_F(NxrtBridge, IdleDispatcherAfterBurstUsesNoCpu) {
  registerBridge("add1");
  nxrt_site_t *site = addSite(NXRT_SITE_ELIXIR_CALL, "add1");
  std::thread dispatcher([&] {
    for (;;) {
      nxrt_request_t *req = nullptr;
      Status s(nxrt_bridge_pull(rt, 0, &req));
      if (nxrt_status_code(s.get()) == NXRT_CANCELLED)
        return;
      if (s == nullptr) {
        addOne(rt, req);
        nxrt_request_release(req);
      }
    }
  });
  warmUp(rt, site, 2000);
  double before = threadCpuMs(dispatcher);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  double idleMs = threadCpuMs(dispatcher) - before;
  nxrt_bridge_close(rt);
  dispatcher.join();
  EXPECT_GE(before, 0);
  EXPECT_LT(idleMs, 10) << "ms of CPU in 200 ms with nothing requested";
}

// With the spin budgets warmed up, a call whose reply never comes still
// returns at its deadline: spinning stops there, and so does parking.
TEST_F(NxrtBridge, DeadlineHonouredAfterWarmUp) {
  registerBridge("add1");
  registerBridge("never", /*timeoutMs=*/2);
  nxrt_site_t *add1 = addSite(NXRT_SITE_ELIXIR_CALL, "add1");
  nxrt_site_t *never = addSite(NXRT_SITE_ELIXIR_CALL, "never", "n.mlir:1:2");
  Dispatcher d(rt, [&](nxrt_request_t *req) {
    // Requests for @never are held unanswered: the caller must time out.
    if (std::string(nxrt_request_name(req)) == "add1")
      addOne(rt, req);
  });
  Tensor<float> x(NXRT_F32, {1});
  Tensor<float> y(NXRT_F32, {1});
  for (int round = 0; round < 20; ++round) {
    warmUp(rt, add1, 200);
    auto t0 = Clock::now();
    Status s = runOnce(never, &x.view, &y.view);
    double ms =
        std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    EXPECT_EQ(message(s), "callback @never at n.mlir:1:2 timed out after 2 ms");
    EXPECT_GE(ms, 2);
    EXPECT_LT(ms, 500) << "a 2 ms callback timeout";
    // And with the run deadline binding first.
    t0 = Clock::now();
    Status r = runOnce(never, &x.view, &y.view, /*runTimeoutMs=*/1);
    ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    EXPECT_EQ(nxrt_status_code(r.get()), NXRT_DEADLINE_EXCEEDED);
    EXPECT_LT(ms, 500) << "a 1 ms run deadline";
  }
}

// The hook path waits like the pull path: replies from another thread that
// land while the caller spins, and after it parked (replies delayed past
// any spin budget), all reach the right call.
TEST_F(NxrtBridge, HookRepliesWhileSpinningAndAfterParking) {
  registerBridge("add1");
  nxrt_site_t *site = addSite(NXRT_SITE_ELIXIR_CALL, "add1");
  Mailbox box;
  nxrt_bridge_set_hook(rt, forward, &box);
  std::atomic<bool> stop{false};
  std::thread host([&] {
    for (int served = 0; !stop.load();) {
      nxrt_request_t *req = box.take();
      if (!req)
        continue;
      // Every eighth reply comes after the caller has parked.
      if (++served % 8 == 0)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      addOne(rt, req);
      nxrt_request_release(req);
    }
  });
  nxrt_run_t *run = nxrt_run_begin(rt, nullptr);
  for (int i = 0; i < 400; ++i) {
    Tensor<float> x(NXRT_F32, {1}, {static_cast<float>(i)});
    Tensor<float> y(NXRT_F32, {1});
    Status s(nxrt_invoke(run, site, &x.view, 1, &y.view, 1));
    EXPECT_EQ(s, nullptr) << message(s);
    EXPECT_EQ(y.data[0], i + 1);
    if (s != nullptr || y.data[0] != i + 1)
      break;
  }
  Status s(nxrt_run_end(run));
  EXPECT_EQ(s, nullptr) << message(s);
  stop.store(true);
  host.join();
  nxrt_bridge_set_hook(rt, nullptr, nullptr);
}

// Replies and argument copies that land around the callback's deadline:
// each call either gets its reply (the right values) or times out, a reply
// that lost the race is refused, and a copy never reads buffers the run has
// moved on from (each call gets fresh values; TSan and ASan builds check the
// memory side).
TEST_F(NxrtBridge, RepliesRacingTheDeadline) {
  registerBridge("racy", /*timeoutMs=*/1);
  nxrt_site_t *site = addSite(NXRT_SITE_ELIXIR_CALL, "racy", "t.mlir:9:1");
  std::atomic<int> refused{0}, copied{0};
  Dispatcher d(rt, [&](nxrt_request_t *req) {
    // Argument data is only safe to read through copy_arg once the deadline
    // may have passed; the reply echoes the copy.
    std::vector<float> out(4, 0.0f);
    if (Status(nxrt_request_copy_arg(req, 0, out.data(), 16)) == nullptr) {
      ++copied;
      EXPECT_EQ(out[1], out[0] + 1);
    }
    // Before, around and after the 1 ms deadline.
    std::this_thread::sleep_for(
        std::chrono::microseconds(nxrt_request_tag(req) % 3 * 1000));
    nxrt_tensor_t r = *nxrt_request_result_template(req, 0);
    r.data = out.data();
    Status reply(nxrt_bridge_reply(rt, nxrt_request_tag(req), nullptr, &r, 1));
    if (reply != nullptr) {
      // Expired before the reply looked the tag up, or between the lookup
      // and the write: refused either way, with a message saying which.
      std::string tag = std::to_string(nxrt_request_tag(req));
      if (nxrt_status_code(reply.get()) == NXRT_NOT_FOUND)
        EXPECT_EQ(message(reply),
                  "no pending bridge request with reply tag " + tag +
                      " (never issued, already answered or timed out)");
      else
        EXPECT_EQ(message(reply), "bridge request with reply tag " + tag +
                                      " already timed out");
      ++refused;
    }
  });
  int replied = 0, timedOut = 0;
  for (int i = 0; i < 200; ++i) {
    float v = static_cast<float>(i * 10);
    Tensor<float> x(NXRT_F32, {4}, {v, v + 1, v + 2, v + 3});
    Tensor<float> y(NXRT_F32, {4}, {-1, -1, -1, -1});
    Status s = runOnce(site, &x.view, &y.view);
    if (s == nullptr) {
      ++replied;
      EXPECT_EQ(y.data, x.data);
    } else {
      ++timedOut;
      EXPECT_EQ(message(s),
                "callback @racy at t.mlir:9:1 timed out after 1 ms");
      // An expired call's outputs are never written.
      EXPECT_EQ(y.data, (std::vector<float>{-1, -1, -1, -1}));
    }
  }
  EXPECT_EQ(replied + timedOut, 200);
  EXPECT_GT(timedOut, 0);
  EXPECT_GT(refused.load(), 0);
  EXPECT_GT(copied.load(), 0);
}

// A dispatcher thread that pulls a request and exits without answering
// leaves it answerable from another thread: the thread's own reference to
// it (its reply hint) goes at thread exit, not the request.
TEST_F(NxrtBridge, PullerThatExitsBeforeReplyingLeavesRequestAnswerable) {
  registerBridge("handoff");
  nxrt_site_t *site = addSite(NXRT_SITE_ELIXIR_CALL, "handoff");
  Tensor<float> x(NXRT_F32, {1}, {7});
  Tensor<float> y(NXRT_F32, {1});
  std::thread caller(
      [&] { EXPECT_EQ(runOnce(site, &x.view, &y.view), nullptr); });
  nxrt_request_t *req = nullptr;
  std::thread puller([&] {
    Status pulled(nxrt_bridge_pull(rt, 5000, &req));
    EXPECT_EQ(pulled, nullptr) << message(pulled);
  });
  puller.join();
  ASSERT_NE(req, nullptr);
  addOne(rt, req);
  nxrt_request_release(req);
  caller.join();
  EXPECT_EQ(y.data[0], 8);
}

// Requests wait for a puller in call order: the first in the mailbox, the
// rest queued behind it; a puller must take them oldest first.
TEST_F(NxrtBridge, PullsComeInCallOrder) {
  registerBridge("ordered");
  nxrt_site_t *site = addSite(NXRT_SITE_ELIXIR_CALL, "ordered", "o.mlir:1:1");
  constexpr int kCallers = 4;
  std::vector<std::unique_ptr<Tensor<float>>> xs, ys;
  std::vector<std::thread> callers;
  for (int i = 0; i < kCallers; ++i) {
    xs.push_back(std::make_unique<Tensor<float>>(
        NXRT_F32, std::vector<int64_t>{1}, std::vector<float>{float(i)}));
    ys.push_back(
        std::make_unique<Tensor<float>>(NXRT_F32, std::vector<int64_t>{1}));
  }
  // One caller at a time, each waiting until its request is posted, so the
  // call order is known.
  for (int i = 0; i < kCallers; ++i) {
    callers.emplace_back([&, i] {
      EXPECT_EQ(runOnce(site, &xs[i]->view, &ys[i]->view), nullptr);
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  std::vector<float> order;
  uint64_t lastTag = 0;
  for (int i = 0; i < kCallers; ++i) {
    nxrt_request_t *req = nullptr;
    Status pulled(nxrt_bridge_pull(rt, 5000, &req));
    ASSERT_EQ(pulled, nullptr) << message(pulled);
    EXPECT_GT(nxrt_request_tag(req), lastTag);
    lastTag = nxrt_request_tag(req);
    order.push_back(
        *static_cast<const float *>(nxrt_request_arg(req, 0)->data));
    addOne(rt, req);
    nxrt_request_release(req);
  }
  for (std::thread &t : callers)
    t.join();
  EXPECT_EQ(order, (std::vector<float>{0, 1, 2, 3}));
  for (int i = 0; i < kCallers; ++i)
    EXPECT_EQ(ys[i]->data[0], float(i + 1));
}

// A request holds one argument and one result view in place and the rest
// on the heap; recycled requests keep that storage and must never mix the
// views of one call with another's.
TEST_F(NxrtBridge, ManyArgumentsAndResultsAcrossCalls) {
  registerBridge("wide");
  nxrt_site_t *site = addSite(NXRT_SITE_ELIXIR_CALL, "wide", "w.mlir:2:2");
  Dispatcher d(rt, [&](nxrt_request_t *req) {
    // Result j = sum of the arguments + j, each of the result's shape.
    size_t nargs = nxrt_request_num_args(req);
    size_t nresults = nxrt_request_num_results(req);
    float sum = 0;
    for (size_t i = 0; i < nargs; ++i)
      sum += *static_cast<const float *>(nxrt_request_arg(req, i)->data);
    std::vector<std::vector<float>> storage;
    std::vector<nxrt_tensor_t> results;
    for (size_t j = 0; j < nresults; ++j) {
      nxrt_tensor_t t = *nxrt_request_result_template(req, j);
      storage.emplace_back(nxrt_tensor_byte_size(&t) / sizeof(float),
                           sum + float(j));
      t.data = storage.back().data();
      results.push_back(t);
    }
    nxrt_status_free(nxrt_bridge_reply(rt, nxrt_request_tag(req), nullptr,
                                       results.data(), results.size()));
  });
  for (int round = 0; round < 3; ++round) {
    for (size_t nargs : {1u, 5u, 0u, 3u}) {
      size_t nresults = nargs == 5 ? 4 : 1 + nargs % 2;
      std::vector<std::unique_ptr<Tensor<float>>> args, results;
      std::vector<nxrt_tensor_t> argViews, resultViews;
      float want = 0;
      for (size_t i = 0; i < nargs; ++i) {
        args.push_back(
            std::make_unique<Tensor<float>>(NXRT_F32, std::vector<int64_t>{},
                                            std::vector<float>{float(i + 1)}));
        argViews.push_back(args.back()->view);
        want += float(i + 1);
      }
      for (size_t j = 0; j < nresults; ++j) {
        results.push_back(std::make_unique<Tensor<float>>(
            NXRT_F32, std::vector<int64_t>{int64_t(j + 1)}));
        resultViews.push_back(results.back()->view);
      }
      nxrt_run_t *run = nxrt_run_begin(rt, nullptr);
      nxrt_status_free(nxrt_invoke(run, site, argViews.data(), nargs,
                                   resultViews.data(), nresults));
      Status s(nxrt_run_end(run));
      ASSERT_EQ(s, nullptr) << message(s);
      for (size_t j = 0; j < nresults; ++j)
        EXPECT_EQ(results[j]->data, std::vector<float>(j + 1, want + float(j)))
            << "round " << round << ", " << nargs << " args, result " << j;
    }
  }
}

TEST_F(NxrtBridge, PullArgumentErrors) {
  Status s(nxrt_bridge_pull(rt, 1, nullptr));
  EXPECT_EQ(nxrt_status_code(s.get()), NXRT_INVALID_ARGUMENT);
  nxrt_request_release(nullptr);
  EXPECT_EQ(nxrt_request_tag(nullptr), 0u);
  EXPECT_EQ(nxrt_request_num_args(nullptr), 0u);
}

} // namespace

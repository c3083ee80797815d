//===- RoutedDispatchTest.cpp - Inline handlers served through the bridge -===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// nxrt_runtime_set_callback_dispatch routes callbacks bound inline through
// the bridge; nxrt_request_serve runs their handlers on the thread that
// received the request.
//
//===----------------------------------------------------------------------===//

#include <atomic>
#include <chrono>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "Dispatcher.h"
#include "TestUtil.h"

using namespace nxrt_test;

namespace {

struct Seen {
  std::thread::id thread;
  const void *argData = nullptr;
  nxrt_run_t *run = nullptr;
  bool runIsCurrent = false;
  std::string name, location, label;
  size_t nresults = 0;
  int calls = 0;
};

// y = 2 x (f32), or nothing for io_callbacks; records what it saw.
nxrt_status_t *doubleIt(void *user, const nxrt_call_t *call) {
  auto *seen = static_cast<Seen *>(user);
  seen->calls++;
  seen->thread = std::this_thread::get_id();
  seen->argData = call->args[0].data;
  seen->run = call->run;
  seen->runIsCurrent = nxrt_run_current() == call->run;
  seen->name = call->name;
  seen->location = call->location;
  seen->nresults = call->nresults;
  const char *label = "";
  if (nxrt_attrs_find(call->attrs, "label"))
    nxrt_status_free(
        nxrt_attrs_get_string(call->attrs, "label", &label, nullptr));
  seen->label = label;
  const float *x = static_cast<const float *>(call->args[0].data);
  for (size_t i = 0; i < call->nresults; ++i) {
    float *y = static_cast<float *>(call->results[i].data);
    for (int64_t j = 0; j < call->args[0].dims[0]; ++j)
      y[j] = 2 * x[j];
  }
  return nullptr;
}

nxrt_status_t *fails(void *, const nxrt_call_t *) {
  return nxrt_status_create(NXRT_INTERNAL, "boom");
}

// A bridge hook as a callback library installs one: it answers the one
// callback it serves itself (bound BRIDGE, "add one") and refuses every
// other request; it records the names it received.
struct OwnHook {
  nxrt_runtime_t *rt = nullptr;
  std::mutex mutex;
  std::vector<std::string> names;
};
void serveOwn(void *user, nxrt_request_t *req) {
  auto *hook = static_cast<OwnHook *>(user);
  std::string name = nxrt_request_name(req);
  {
    std::lock_guard<std::mutex> lock(hook->mutex);
    hook->names.push_back(name);
  }
  if (name == "remote")
    addOne(hook->rt, req);
  else
    nxrt_status_free(nxrt_bridge_reply(
        hook->rt, nxrt_request_tag(req),
        nxrt_status_create(
            NXRT_UNIMPLEMENTED,
            ("the hook serves only @remote, not @" + name).c_str()),
        nullptr, 0));
  nxrt_request_release(req);
}

class NxrtRoutedDispatch : public RuntimeTest {
protected:
  Status runOnce(nxrt_site_t *site, nxrt_tensor_t *x, nxrt_tensor_t *y,
                 size_t nresults = 1) {
    nxrt_run_t *run = nxrt_run_begin(rt, nullptr);
    nxrt_status_free(nxrt_invoke(run, site, x, 1, y, nresults));
    return Status(nxrt_run_end(run));
  }
  void route(int64_t timeoutMs = 0) {
    NXRT_ASSERT_OK(nxrt_runtime_set_callback_dispatch(rt, NXRT_DISPATCH_BRIDGE,
                                                      timeoutMs));
  }
  static void serve(nxrt_request_t *req) {
    NXRT_EXPECT_OK(nxrt_request_serve(req));
  }
};

TEST_F(NxrtRoutedDispatch, InlineHandlerRunsOnTheDispatcherThread) {
  Seen seen;
  registerInline("double", doubleIt, &seen);
  route();
  nxrt_site_t *site = addSite(NXRT_SITE_ELIXIR_CALL, "double", "m.mlir:4:2",
                              Attrs().str("label", "twice").encode());
  Tensor<float> x(NXRT_F32, {3}, {1, 2, 3});
  Tensor<float> y(NXRT_F32, {3});
  {
    Dispatcher d(rt, serve);
    Status s = runOnce(site, &x.view, &y.view);
    EXPECT_EQ(s, nullptr) << message(s);
  }
  EXPECT_EQ(y.data, (std::vector<float>{2, 4, 6}));
  EXPECT_EQ(seen.calls, 1);
  EXPECT_NE(seen.thread, std::this_thread::get_id());
  // The handler read a copy, in a run of its own that was current.
  EXPECT_NE(seen.argData, x.view.data);
  EXPECT_NE(seen.run, nullptr);
  EXPECT_TRUE(seen.runIsCurrent);
  EXPECT_EQ(seen.name, "double");
  EXPECT_EQ(seen.location, "m.mlir:4:2");
  EXPECT_EQ(seen.label, "twice");
}

TEST_F(NxrtRoutedDispatch, InlineUnlessRoutedAndOnlyForLaterRuns) {
  Seen seen;
  registerInline("double", doubleIt, &seen);
  nxrt_site_t *site = addSite(NXRT_SITE_ELIXIR_CALL, "double");
  Tensor<float> x(NXRT_F32, {2}, {1, 2});
  Tensor<float> y(NXRT_F32, {2});
  Dispatcher d(rt, serve);

  Status s = runOnce(site, &x.view, &y.view);
  EXPECT_EQ(s, nullptr) << message(s);
  EXPECT_EQ(seen.thread, std::this_thread::get_id());
  EXPECT_EQ(seen.argData, x.view.data);

  // A run begun before routing keeps calling inline.
  nxrt_run_t *run = nxrt_run_begin(rt, nullptr);
  route();
  seen.thread = {};
  NXRT_EXPECT_OK(nxrt_invoke(run, site, &x.view, 1, &y.view, 1));
  NXRT_EXPECT_OK(nxrt_run_end(run));
  EXPECT_EQ(seen.thread, std::this_thread::get_id());

  s = runOnce(site, &x.view, &y.view);
  EXPECT_EQ(s, nullptr) << message(s);
  EXPECT_NE(seen.thread, std::this_thread::get_id());

  NXRT_ASSERT_OK(
      nxrt_runtime_set_callback_dispatch(rt, NXRT_DISPATCH_INLINE, 0));
  s = runOnce(site, &x.view, &y.view);
  EXPECT_EQ(s, nullptr) << message(s);
  EXPECT_EQ(seen.thread, std::this_thread::get_id());
  EXPECT_EQ(seen.calls, 4);
}

TEST_F(NxrtRoutedDispatch, HandlerFailureNamesTheSite) {
  registerInline("fails", fails);
  route();
  nxrt_site_t *site = addSite(NXRT_SITE_ELIXIR_CALL, "fails", "m.mlir:9:1");
  Tensor<float> x(NXRT_F32, {1}, {1});
  Tensor<float> y(NXRT_F32, {1});
  Dispatcher d(rt, serve);
  Status s = runOnce(site, &x.view, &y.view);
  EXPECT_EQ(nxrt_status_code(s.get()), NXRT_INTERNAL);
  EXPECT_EQ(message(s), "callback @fails at m.mlir:9:1 failed: boom");
}

TEST_F(NxrtRoutedDispatch, IoCallbackGetsNoResults) {
  Seen seen;
  registerInline("log", doubleIt, &seen);
  route();
  nxrt_site_t *site = addSite(NXRT_SITE_IO_CALLBACK, "log");
  Tensor<float> x(NXRT_F32, {2}, {5, 6});
  Dispatcher d(rt, serve);
  Status s = runOnce(site, &x.view, &x.view);
  EXPECT_EQ(s, nullptr) << message(s);
  EXPECT_EQ(seen.calls, 1);
  EXPECT_EQ(seen.nresults, 0u);
  EXPECT_EQ(x.data, (std::vector<float>{5, 6}));
}

TEST_F(NxrtRoutedDispatch, CustomCallTargetsStayInline) {
  Seen seen;
  NXRT_ASSERT_OK(nxrt_register_custom_call(rt, "kernel", doubleIt, &seen));
  route();
  nxrt_site_t *site = addSite(NXRT_SITE_CUSTOM_CALL, "kernel");
  Tensor<float> x(NXRT_F32, {2}, {1, 2});
  Tensor<float> y(NXRT_F32, {2});
  // No dispatcher: a routed call would wait forever.
  Status s = runOnce(site, &x.view, &y.view);
  EXPECT_EQ(s, nullptr) << message(s);
  EXPECT_EQ(seen.thread, std::this_thread::get_id());
  EXPECT_EQ(y.data, (std::vector<float>{2, 4}));
}

TEST_F(NxrtRoutedDispatch, TimeoutBoundsEachCallAndExpiredRequestsAreNotRun) {
  Seen seen;
  registerInline("double", doubleIt, &seen);
  // Routed requests reach only pullers, so a puller must take this one
  // while it is pending: the timeout leaves it ample time to wake up, even
  // on a loaded machine under a sanitizer.
  route(/*timeoutMs=*/200);
  nxrt_site_t *site = addSite(NXRT_SITE_ELIXIR_CALL, "double", "m.mlir:2:2");
  Tensor<float> x(NXRT_F32, {1}, {1});
  Tensor<float> y(NXRT_F32, {1});
  // Holds the request unanswered past the call's timeout.
  nxrt_request_t *kept = nullptr;
  std::atomic<bool> pulling{false};
  std::thread puller([&] {
    pulling.store(true);
    NXRT_EXPECT_OK(nxrt_bridge_pull(rt, 10000, &kept));
  });
  while (!pulling.load())
    std::this_thread::yield();
  Status s = runOnce(site, &x.view, &y.view);
  puller.join();
  EXPECT_EQ(nxrt_status_code(s.get()), NXRT_DEADLINE_EXCEEDED);
  EXPECT_EQ(message(s),
            "callback @double at m.mlir:2:2 timed out after 200 ms");
  ASSERT_NE(kept, nullptr);
  Status late(nxrt_request_serve(kept));
  EXPECT_EQ(nxrt_status_code(late.get()), NXRT_DEADLINE_EXCEEDED);
  EXPECT_EQ(seen.calls, 0);
  nxrt_request_release(kept);
}

TEST_F(NxrtRoutedDispatch, BridgeBoundCallbackHasNoHandlerToServe) {
  registerBridge("remote");
  route();
  nxrt_site_t *site = addSite(NXRT_SITE_ELIXIR_CALL, "remote");
  Tensor<float> x(NXRT_F32, {2}, {1, 2});
  Tensor<float> y(NXRT_F32, {2});
  std::string why;
  {
    Dispatcher d(rt, [&](nxrt_request_t *req) {
      Status s(nxrt_request_serve(req));
      EXPECT_EQ(nxrt_status_code(s.get()), NXRT_FAILED_PRECONDITION);
      why = message(s);
      // Still pending: the caller answers it.
      addOne(rt, req);
    });
    Status s = runOnce(site, &x.view, &y.view);
    EXPECT_EQ(s, nullptr) << message(s);
  }
  EXPECT_EQ(y.data, (std::vector<float>{2, 3}));
  EXPECT_NE(why.find("callback @remote is bound for bridge dispatch and has "
                     "no handler"),
            std::string::npos)
      << why;
}

// A library that serves its own callbacks through a hook keeps working when
// the run routes inline handlers: those go to the host's pullers, and the
// hook sees only the callback bound BRIDGE (issue 29).
TEST_F(NxrtRoutedDispatch, RoutedRequestsGoToThePullQueueNotTheHook) {
  Seen seen;
  registerInline("double", doubleIt, &seen);
  registerBridge("remote");
  OwnHook hook;
  hook.rt = rt;
  nxrt_bridge_set_hook(rt, serveOwn, &hook);
  route();
  nxrt_site_t *local = addSite(NXRT_SITE_ELIXIR_CALL, "double", "m.mlir:3:5");
  nxrt_site_t *remote = addSite(NXRT_SITE_ELIXIR_CALL, "remote", "m.mlir:4:5");
  Tensor<float> x(NXRT_F32, {2}, {3, 4});
  Tensor<float> doubled(NXRT_F32, {2});
  Tensor<float> added(NXRT_F32, {2});
  std::vector<std::string> pulled; // Written by the puller until joined.
  {
    Dispatcher d(rt, [&](nxrt_request_t *req) {
      pulled.push_back(nxrt_request_name(req));
      serve(req);
    });
    nxrt_run_t *run = nxrt_run_begin(rt, nullptr);
    nxrt_status_free(nxrt_invoke(run, local, &x.view, 1, &doubled.view, 1));
    nxrt_status_free(nxrt_invoke(run, remote, &x.view, 1, &added.view, 1));
    Status s(nxrt_run_end(run));
    EXPECT_EQ(s, nullptr) << message(s);
  }
  EXPECT_EQ(doubled.data, (std::vector<float>{6, 8}));
  EXPECT_EQ(added.data, (std::vector<float>{4, 5}));
  EXPECT_EQ(seen.calls, 1);
  EXPECT_NE(seen.thread, std::this_thread::get_id());
  EXPECT_EQ(pulled, (std::vector<std::string>{"double"}));
  std::lock_guard<std::mutex> lock(hook.mutex);
  EXPECT_EQ(hook.names, (std::vector<std::string>{"remote"}));
}

TEST_F(NxrtRoutedDispatch, ManyThreadsManyDispatchers) {
  std::atomic<int> calls{0};
  struct Counter {
    static nxrt_status_t *fn(void *user, const nxrt_call_t *call) {
      static_cast<std::atomic<int> *>(user)->fetch_add(1);
      const float *x = static_cast<const float *>(call->args[0].data);
      *static_cast<float *>(call->results[0].data) = *x + 1;
      return nullptr;
    }
  };
  registerInline("inc", Counter::fn, &calls);
  route();
  nxrt_site_t *site = addSite(NXRT_SITE_ELIXIR_CALL, "inc");
  Dispatcher d(rt, serve, /*threads=*/3);
  std::vector<std::thread> threads;
  std::atomic<int> wrong{0};
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 200; ++i) {
        Tensor<float> x(NXRT_F32, {1}, {static_cast<float>(t * 1000 + i)});
        Tensor<float> y(NXRT_F32, {1});
        Status s = runOnce(site, &x.view, &y.view);
        if (s || y.data[0] != x.data[0] + 1)
          wrong.fetch_add(1);
      }
    });
  for (std::thread &t : threads)
    t.join();
  EXPECT_EQ(wrong.load(), 0);
  EXPECT_EQ(calls.load(), 800);
}

TEST_F(NxrtRoutedDispatch, ArgumentErrors) {
  Status bad(nxrt_runtime_set_callback_dispatch(
      rt, static_cast<nxrt_dispatch_mode_t>(7), 0));
  EXPECT_EQ(nxrt_status_code(bad.get()), NXRT_INVALID_ARGUMENT);
  EXPECT_EQ(message(bad), "unknown dispatch mode 7");
  Status nullRt(
      nxrt_runtime_set_callback_dispatch(nullptr, NXRT_DISPATCH_BRIDGE, 0));
  EXPECT_EQ(nxrt_status_code(nullRt.get()), NXRT_INVALID_ARGUMENT);
  Status nullReq(nxrt_request_serve(nullptr));
  EXPECT_EQ(nxrt_status_code(nullReq.get()), NXRT_INVALID_ARGUMENT);
}

// Callbacks nested three deep: @level0 and @level1 each run a program (a
// nested run on their own thread) that calls the next level; @level2 adds
// one, or fails when its argument is negative.
struct Nesting {
  nxrt_runtime_t *rt = nullptr;
  nxrt_site_t *sites[3] = {};
  std::atomic<int> calls{0};
  std::mutex mutex;
  std::vector<std::thread::id> threads;
};

nxrt_status_t *nestedLevel(Nesting *nesting, int level,
                           const nxrt_call_t *call) {
  nesting->calls++;
  {
    std::lock_guard<std::mutex> lock(nesting->mutex);
    nesting->threads.push_back(std::this_thread::get_id());
  }
  if (level == 2) {
    float x = *static_cast<const float *>(call->args[0].data);
    if (x < 0)
      return nxrt_status_create(NXRT_INVALID_ARGUMENT, "innermost refuses");
    *static_cast<float *>(call->results[0].data) = x + 1;
    return nullptr;
  }
  nxrt_run_options_t options{};
  options.timeout_ms = 10000;
  nxrt_run_t *run = nxrt_run_begin(nesting->rt, &options);
  nxrt_tensor_t x = call->args[0];
  nxrt_status_free(
      nxrt_invoke(run, nesting->sites[level + 1], &x, 1, call->results, 1));
  return nxrt_run_end(run);
}
template <int Level>
nxrt_status_t *nestedHandler(void *user, const nxrt_call_t *call) {
  return nestedLevel(static_cast<Nesting *>(user), Level, call);
}

class NxrtNestedRoutedRuns : public NxrtRoutedDispatch,
                             public ::testing::WithParamInterface<int> {};

// A routed callback that runs a program with callbacks of its own serves
// them on its own thread: with one dispatcher, routing them too would wait
// for that very thread until the deadline.
TEST_P(NxrtNestedRoutedRuns, NeverWaitOnTheirOwnDispatcher) {
  Nesting nesting;
  nesting.rt = rt;
  registerInline("level0", nestedHandler<0>, &nesting);
  registerInline("level1", nestedHandler<1>, &nesting);
  registerInline("level2", nestedHandler<2>, &nesting);
  for (int level = 0; level < 3; ++level) {
    std::string name = "level" + std::to_string(level);
    std::string location = "m.mlir:" + std::to_string(level + 1) + ":1";
    nesting.sites[level] =
        addSite(NXRT_SITE_ELIXIR_CALL, name.c_str(), location.c_str());
  }
  route(/*timeoutMs=*/10000);
  Dispatcher dispatcher(rt, serve, /*threads=*/GetParam());

  Tensor<float> x(NXRT_F32, {}, {41});
  Tensor<float> y(NXRT_F32, {});
  Status s = runOnce(nesting.sites[0], &x.view, &y.view);
  EXPECT_EQ(s, nullptr) << message(s);
  EXPECT_EQ(y.data[0], 42);
  ASSERT_EQ(nesting.calls.load(), 3);
  // The outermost call went to a dispatcher; the nested ones stayed there.
  EXPECT_NE(nesting.threads[0], std::this_thread::get_id());
  EXPECT_EQ(nesting.threads[1], nesting.threads[0]);
  EXPECT_EQ(nesting.threads[2], nesting.threads[0]);

  // A failure at the innermost level reaches the outermost run with every
  // level's message.
  Tensor<float> negative(NXRT_F32, {}, {-1});
  s = runOnce(nesting.sites[0], &negative.view, &y.view);
  EXPECT_EQ(nxrt_status_code(s.get()), NXRT_INVALID_ARGUMENT);
  EXPECT_EQ(message(s), "callback @level0 at m.mlir:1:1 failed: "
                        "callback @level1 at m.mlir:2:1 failed: "
                        "callback @level2 at m.mlir:3:1 failed: "
                        "innermost refuses");
}

INSTANTIATE_TEST_SUITE_P(Dispatchers, NxrtNestedRoutedRuns,
                         ::testing::Values(1, 4));

} // namespace

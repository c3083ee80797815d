//===- InvokeTest.cpp - Runs, inline dispatch and failure semantics -------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include <atomic>
#include <chrono>
#include <thread>

#include "TestUtil.h"

using namespace nxrt_test;

namespace {

class NxrtInvoke : public RuntimeTest {};

struct Seen {
  const void *argData = nullptr;
  void *resultData = nullptr;
  size_t nargs = 0, nresults = 0;
  std::string name, location;
  int64_t scale = 0;
  int calls = 0;
  nxrt_run_t *run = nullptr;
};

// y = x * scale, scale from static_args; records what it saw.
nxrt_status_t *scale(void *user, const nxrt_call_t *call) {
  auto *seen = static_cast<Seen *>(user);
  seen->calls++;
  seen->argData = call->args[0].data;
  seen->resultData = call->results[0].data;
  seen->nargs = call->nargs;
  seen->nresults = call->nresults;
  seen->name = call->name;
  seen->location = call->location;
  seen->run = call->run;
  if (nxrt_status_t *s = nxrt_attrs_get_i64(call->attrs, "scale", &seen->scale))
    return s;
  const float *x = static_cast<const float *>(call->args[0].data);
  float *y = static_cast<float *>(call->results[0].data);
  for (int64_t i = 0; i < call->args[0].dims[0]; ++i)
    y[i] = x[i] * seen->scale;
  return nullptr;
}

nxrt_status_t *fails(void *user, const nxrt_call_t *) {
  ++*static_cast<int *>(user);
  return nxrt_status_create(NXRT_INTERNAL, "boom");
}

nxrt_status_t *count(void *user, const nxrt_call_t *) {
  ++*static_cast<int *>(user);
  return nullptr;
}

TEST_F(NxrtInvoke, InlineIsZeroCopyAndSeesStaticArgs) {
  Seen seen;
  registerInline("scale", scale, &seen);
  nxrt_site_t *site = addSite(NXRT_SITE_ELIXIR_CALL, "scale", "model.mlir:3:7",
                              Attrs().i64("scale", 3).encode());
  Tensor<float> x(NXRT_F32, {4}, {1, 2, 3, 4});
  Tensor<float> y(NXRT_F32, {4});
  nxrt_run_t *run = nxrt_run_begin(rt, nullptr);
  NXRT_ASSERT_OK(nxrt_invoke(run, site, &x.view, 1, &y.view, 1));
  NXRT_EXPECT_OK(nxrt_run_end(run));
  EXPECT_EQ(seen.argData, x.data.data());
  EXPECT_EQ(seen.resultData, y.data.data());
  EXPECT_EQ(seen.name, "scale");
  EXPECT_EQ(seen.location, "model.mlir:3:7");
  EXPECT_EQ(seen.run, run);
  EXPECT_EQ(y.data, (std::vector<float>{3, 6, 9, 12}));
}

TEST_F(NxrtInvoke, CustomCallTargetGetsAttributes) {
  Seen seen;
  NXRT_ASSERT_OK(nxrt_register_custom_call(rt, "my_scale", scale, &seen));
  nxrt_site_t *site = addSite(NXRT_SITE_CUSTOM_CALL, "my_scale", "k.mlir:9:1",
                              Attrs().i64("scale", -2).encode());
  Tensor<float> x(NXRT_F32, {2}, {1, 5});
  Tensor<float> y(NXRT_F32, {2});
  nxrt_run_t *run = nxrt_run_begin(rt, nullptr);
  NXRT_EXPECT_OK(nxrt_invoke(run, site, &x.view, 1, &y.view, 1));
  NXRT_EXPECT_OK(nxrt_run_end(run));
  EXPECT_EQ(y.data, (std::vector<float>{-2, -10}));
}

TEST_F(NxrtInvoke, HandlerErrorFailsRunAndSkipsLaterCallbacks) {
  int failed = 0, later = 0;
  registerInline("bad", fails, &failed);
  registerInline("later", count, &later);
  nxrt_site_t *bad = addSite(NXRT_SITE_ELIXIR_CALL, "bad", "m.mlir:12:5");
  nxrt_site_t *next = addSite(NXRT_SITE_ELIXIR_CALL, "later", "m.mlir:13:5");
  nxrt_run_t *run = nxrt_run_begin(rt, nullptr);
  Status s(nxrt_invoke(run, bad, nullptr, 0, nullptr, 0));
  EXPECT_EQ(nxrt_status_code(s.get()), NXRT_INTERNAL);
  EXPECT_EQ(message(s), "callback @bad at m.mlir:12:5 failed: boom");
  Status skipped(nxrt_invoke(run, next, nullptr, 0, nullptr, 0));
  EXPECT_EQ(nxrt_status_code(skipped.get()), NXRT_ABORTED);
  EXPECT_EQ(message(skipped),
            "callback @later at m.mlir:13:5 skipped: the run already failed");
  EXPECT_EQ(later, 0);
  Status mid(nxrt_run_status(run));
  EXPECT_EQ(message(mid), "callback @bad at m.mlir:12:5 failed: boom");
  Status end(nxrt_run_end(run));
  EXPECT_EQ(nxrt_status_code(end.get()), NXRT_INTERNAL);
  EXPECT_EQ(message(end), "callback @bad at m.mlir:12:5 failed: boom");

  // The next run is unaffected.
  run = nxrt_run_begin(rt, nullptr);
  NXRT_EXPECT_OK(nxrt_invoke(run, next, nullptr, 0, nullptr, 0));
  NXRT_EXPECT_OK(nxrt_run_end(run));
  EXPECT_EQ(later, 1);
  EXPECT_EQ(failed, 1);
}

TEST_F(NxrtInvoke, UnknownCallbackFailsAtInvocationThenResolvesLate) {
  nxrt_site_t *site = addSite(NXRT_SITE_ELIXIR_CALL, "late", "m.mlir:4:2");
  nxrt_site_t *target = addSite(NXRT_SITE_CUSTOM_CALL, "nope", "m.mlir:5:2");
  nxrt_run_t *run = nxrt_run_begin(rt, nullptr);
  Status s(nxrt_invoke(run, site, nullptr, 0, nullptr, 0));
  EXPECT_EQ(nxrt_status_code(s.get()), NXRT_NOT_FOUND);
  EXPECT_EQ(message(s), "unknown callback @late at m.mlir:4:2");
  Status end(nxrt_run_end(run));
  EXPECT_EQ(message(end), "unknown callback @late at m.mlir:4:2");

  run = nxrt_run_begin(rt, nullptr);
  Status t(nxrt_invoke(run, target, nullptr, 0, nullptr, 0));
  EXPECT_EQ(
      message(t),
      "unknown custom-call target @nope at m.mlir:5:2 (neither bound with "
      "nxrt_register_custom_call nor registered as an XLA FFI handler "
      "for 'Host')");
  nxrt_status_free(nxrt_run_end(run));

  int calls = 0;
  registerInline("late", count, &calls);
  run = nxrt_run_begin(rt, nullptr);
  NXRT_EXPECT_OK(nxrt_invoke(run, site, nullptr, 0, nullptr, 0));
  NXRT_EXPECT_OK(nxrt_invoke(run, site, nullptr, 0, nullptr, 0));
  NXRT_EXPECT_OK(nxrt_run_end(run));
  EXPECT_EQ(calls, 2);
}

TEST_F(NxrtInvoke, UnknownSiteIdFailsRun) {
  addSite(NXRT_SITE_ELIXIR_CALL, "f");
  nxrt_run_t *run = nxrt_run_begin(rt, nullptr);
  Status s(
      nxrt_invoke(run, nxrt_program_site(program, 42), nullptr, 0, nullptr, 0));
  EXPECT_EQ(nxrt_status_code(s.get()), NXRT_NOT_FOUND);
  EXPECT_EQ(message(s), "unknown call site (null site)");
  Status end(nxrt_run_end(run));
  EXPECT_EQ(message(end), "unknown call site (null site)");
}

TEST_F(NxrtInvoke, InvokeWithoutRunIsAnError) {
  int calls = 0;
  registerInline("f", count, &calls);
  nxrt_site_t *site = addSite(NXRT_SITE_ELIXIR_CALL, "f");
  Status s(nxrt_invoke(nullptr, site, nullptr, 0, nullptr, 0));
  EXPECT_EQ(nxrt_status_code(s.get()), NXRT_FAILED_PRECONDITION);
  EXPECT_EQ(message(s), "callback @f at test.mlir:1:1 invoked outside a run "
                        "(call nxrt_run_begin first)");
  EXPECT_EQ(calls, 0);
  Status e1(nxrt_run_end(nullptr));
  EXPECT_EQ(nxrt_status_code(e1.get()), NXRT_INVALID_ARGUMENT);
  Status e2(nxrt_run_status(nullptr));
  EXPECT_EQ(nxrt_status_code(e2.get()), NXRT_INVALID_ARGUMENT);
}

TEST_F(NxrtInvoke, OptionalIoCallbackWithoutHandlerDoesNothing) {
  nxrt_site_t *site =
      addSite(NXRT_SITE_OPTIONAL_IO_CALLBACK, "hook", "m.mlir:5:6");
  ASSERT_NE(site, nullptr);
  nxrt_run_t *run = nxrt_run_begin(rt, nullptr);
  EXPECT_EQ(nxrt_invoke(run, site, nullptr, 0, nullptr, 0), nullptr);
  Status end(nxrt_run_end(run));
  EXPECT_EQ(end.get(), nullptr);

  // Once bound, it runs like any io_callback, failures included.
  int calls = 0;
  registerInline("hook", fails, &calls);
  run = nxrt_run_begin(rt, nullptr);
  Status s(nxrt_invoke(run, site, nullptr, 0, nullptr, 0));
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(message(s), "callback @hook at m.mlir:5:6 failed: boom");
  Status failed(nxrt_run_end(run));
  EXPECT_NE(failed.get(), nullptr);
}

TEST_F(NxrtInvoke, SiteFromAnotherRuntimeIsRejected) {
  int calls = 0;
  registerInline("f", count, &calls);
  nxrt_site_t *site = addSite(NXRT_SITE_ELIXIR_CALL, "f", "m.mlir:1:1");
  nxrt_runtime_t *other = nxrt_runtime_create();
  nxrt_run_t *run = nxrt_run_begin(other, nullptr);
  Status s(nxrt_invoke(run, site, nullptr, 0, nullptr, 0));
  EXPECT_EQ(message(s), "callback @f at m.mlir:1:1 failed: the site belongs to "
                        "a different runtime than the run");
  nxrt_status_free(nxrt_run_end(run));
  nxrt_runtime_destroy(other);
  EXPECT_EQ(calls, 0);
}

nxrt_status_t *sleep30(void *user, const nxrt_call_t *) {
  ++*static_cast<int *>(user);
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  return nullptr;
}

TEST_F(NxrtInvoke, RunDeadlineStopsLaterInlineCallbacks) {
  int calls = 0;
  registerInline("slow", sleep30, &calls);
  nxrt_site_t *site = addSite(NXRT_SITE_ELIXIR_CALL, "slow", "d.mlir:2:2");
  nxrt_run_options_t opts{20};
  nxrt_run_t *run = nxrt_run_begin(rt, &opts);
  // Inline callbacks cannot be interrupted; the deadline is checked before
  // each one.
  NXRT_EXPECT_OK(nxrt_invoke(run, site, nullptr, 0, nullptr, 0));
  Status s(nxrt_invoke(run, site, nullptr, 0, nullptr, 0));
  EXPECT_EQ(nxrt_status_code(s.get()), NXRT_DEADLINE_EXCEEDED);
  EXPECT_EQ(
      message(s),
      "callback @slow at d.mlir:2:2 timed out after 20 ms (run deadline)");
  nxrt_status_free(nxrt_run_end(run));
  EXPECT_EQ(calls, 1);
}

struct Nested {
  nxrt_runtime_t *rt;
  nxrt_site_t *inner;
  nxrt_run_t *outerSeen = nullptr;
  nxrt_run_t *innerSeen = nullptr;
  int innerCalls = 0;
  bool failInner = false;
};

nxrt_status_t *innerCallback(void *user, const nxrt_call_t *call) {
  auto *n = static_cast<Nested *>(user);
  n->innerCalls++;
  n->innerSeen = nxrt_run_current();
  if (n->failInner)
    return nxrt_status_create(NXRT_INVALID_ARGUMENT, "inner failed");
  return nullptr;
}

// A callback that runs "compiled code" itself: begins a nested run on the
// same thread and invokes another site.
nxrt_status_t *outerCallback(void *user, const nxrt_call_t *call) {
  auto *n = static_cast<Nested *>(user);
  n->outerSeen = nxrt_run_current();
  nxrt_run_t *run = nxrt_run_begin(n->rt, nullptr);
  nxrt_status_free(
      nxrt_invoke(nxrt_run_current(), n->inner, nullptr, 0, nullptr, 0));
  nxrt_status_t *end = nxrt_run_end(run);
  if (nxrt_run_current() != call->run)
    return nxrt_status_create(NXRT_INTERNAL, "run stack not restored");
  return end;
}

TEST_F(NxrtInvoke, CallbackMayStartNestedRun) {
  Nested n{rt, nullptr};
  registerInline("outer", outerCallback, &n);
  registerInline("inner", innerCallback, &n);
  nxrt_site_t *outer = addSite(NXRT_SITE_ELIXIR_CALL, "outer", "o.mlir:1:1");
  n.inner = addSite(NXRT_SITE_ELIXIR_CALL, "inner", "i.mlir:2:2");

  EXPECT_EQ(nxrt_run_current(), nullptr);
  nxrt_run_t *run = nxrt_run_begin(rt, nullptr);
  EXPECT_EQ(nxrt_run_current(), run);
  NXRT_EXPECT_OK(nxrt_invoke(run, outer, nullptr, 0, nullptr, 0));
  EXPECT_EQ(n.outerSeen, run);
  EXPECT_NE(n.innerSeen, run);
  EXPECT_NE(n.innerSeen, nullptr);
  NXRT_EXPECT_OK(nxrt_run_end(run));
  EXPECT_EQ(nxrt_run_current(), nullptr);

  // A failing nested run fails only through the outer callback's status.
  n.failInner = true;
  run = nxrt_run_begin(rt, nullptr);
  Status s(nxrt_invoke(run, outer, nullptr, 0, nullptr, 0));
  EXPECT_EQ(message(s), "callback @outer at o.mlir:1:1 failed: callback "
                        "@inner at i.mlir:2:2 failed: inner failed");
  nxrt_status_free(nxrt_run_end(run));
  EXPECT_EQ(n.innerCalls, 2);
}

TEST_F(NxrtInvoke, RunEndOutOfOrderKeepsStackConsistent) {
  nxrt_run_t *a = nxrt_run_begin(rt, nullptr);
  nxrt_run_t *b = nxrt_run_begin(rt, nullptr);
  EXPECT_EQ(nxrt_run_current(), b);
  NXRT_EXPECT_OK(nxrt_run_end(a));
  EXPECT_EQ(nxrt_run_current(), b);
  NXRT_EXPECT_OK(nxrt_run_end(b));
  EXPECT_EQ(nxrt_run_current(), nullptr);
}

TEST_F(NxrtInvoke, RunCurrentIsPerThread) {
  nxrt_run_t *run = nxrt_run_begin(rt, nullptr);
  nxrt_run_t *other = reinterpret_cast<nxrt_run_t *>(1);
  std::thread t([&] { other = nxrt_run_current(); });
  t.join();
  EXPECT_EQ(other, nullptr);
  NXRT_EXPECT_OK(nxrt_run_end(run));
}

struct IoSeen {
  std::vector<const void *> data;
  size_t nresults = 99;
};

nxrt_status_t *observe(void *user, const nxrt_call_t *call) {
  auto *seen = static_cast<IoSeen *>(user);
  for (size_t i = 0; i < call->nargs; ++i)
    seen->data.push_back(call->args[i].data);
  seen->nresults = call->nresults;
  return nullptr;
}

TEST_F(NxrtInvoke, IoCallbackIsPassthrough) {
  IoSeen seen;
  registerInline("log", observe, &seen);
  nxrt_site_t *site = addSite(NXRT_SITE_IO_CALLBACK, "log", "io.mlir:3:3");
  Tensor<int32_t> a(NXRT_I32, {3}, {1, 2, 3});
  Tensor<double> b(NXRT_F64, {}, {4.5});
  nxrt_tensor_t args[] = {a.view, b.view};
  nxrt_run_t *run = nxrt_run_begin(rt, nullptr);
  // Results aliasing the operands (output_operand_aliases), or none at all.
  NXRT_EXPECT_OK(nxrt_invoke(run, site, args, 2, args, 2));
  NXRT_EXPECT_OK(nxrt_invoke(run, site, args, 2, nullptr, 0));
  NXRT_EXPECT_OK(nxrt_run_end(run));
  ASSERT_EQ(seen.data.size(), 4u);
  EXPECT_EQ(seen.data[0], a.data.data());
  EXPECT_EQ(seen.data[1], b.data.data());
  EXPECT_EQ(seen.nresults, 0u);
  EXPECT_EQ(a.data, (std::vector<int32_t>{1, 2, 3}));

  Tensor<int32_t> copy(NXRT_I32, {3});
  nxrt_tensor_t distinct[] = {copy.view, b.view};
  run = nxrt_run_begin(rt, nullptr);
  Status s(nxrt_invoke(run, site, args, 2, distinct, 2));
  EXPECT_EQ(message(s), "callback @log at io.mlir:3:3 failed: io_callback "
                        "results must alias its operands one to one");
  nxrt_status_free(nxrt_run_end(run));
  EXPECT_EQ(seen.data.size(), 4u);
}

} // namespace

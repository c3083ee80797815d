//===- TraceTest.cpp - Tracing host calls ---------------------------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// nxrt_runtime_set_tracer hands each finished call to the host;
// nxrt_runtime_set_trace_log (and NXRT_TRACE) prints one line per call.
// Both take effect for runs begun afterwards.
//
//===----------------------------------------------------------------------===//

#include <chrono>
#include <mutex>
#include <regex>
#include <thread>

#include "Dispatcher.h"
#include "TestUtil.h"

using namespace nxrt_test;

namespace {

struct Event {
  std::string name, location, what, dispatch;
  nxrt_site_kind_t kind;
  int64_t durationNs;
  nxrt_status_code_t code;
  nxrt_run_t *run;
};

struct Recorder {
  std::mutex mutex;
  std::vector<Event> events;
  static void record(void *user, const nxrt_trace_event_t *e) {
    auto *self = static_cast<Recorder *>(user);
    std::lock_guard<std::mutex> lock(self->mutex);
    self->events.push_back({e->name, e->location, e->what, e->dispatch, e->kind,
                            e->duration_ns, e->code, e->run});
  }
};

nxrt_status_t *sleeps2ms(void *, const nxrt_call_t *) {
  std::this_thread::sleep_for(std::chrono::milliseconds(2));
  return nullptr;
}

nxrt_status_t *fails(void *, const nxrt_call_t *) {
  return nxrt_status_create(NXRT_INTERNAL, "boom");
}

class NxrtTrace : public RuntimeTest {
protected:
  void SetUp() override {
    RuntimeTest::SetUp();
    // The environment must not decide what these tests see.
    nxrt_runtime_set_trace_log(rt, 0);
  }
  Status invoke(nxrt_site_t *site, nxrt_tensor_t *args, size_t nargs,
                nxrt_tensor_t *results, size_t nresults) {
    nxrt_run_t *run = nxrt_run_begin(rt, nullptr);
    lastRun = run;
    nxrt_status_free(nxrt_invoke(run, site, args, nargs, results, nresults));
    return Status(nxrt_run_end(run));
  }
  nxrt_run_t *lastRun = nullptr;
  Recorder recorder;
};

TEST_F(NxrtTrace, EachCallIsReportedWithItsSiteDispatchDurationAndCode) {
  registerInline("slow", sleeps2ms);
  registerInline("fails", fails);
  NXRT_ASSERT_OK(nxrt_register_custom_call(rt, "kernel", sleeps2ms, nullptr));
  nxrt_site_t *call = addSite(NXRT_SITE_ELIXIR_CALL, "slow", "m.mlir:3:5");
  nxrt_site_t *io = addSite(NXRT_SITE_IO_CALLBACK, "slow", "m.mlir:4:5");
  nxrt_site_t *target = addSite(NXRT_SITE_CUSTOM_CALL, "kernel", "m.mlir:5:5");
  nxrt_site_t *failing = addSite(NXRT_SITE_ELIXIR_CALL, "fails", "m.mlir:6:5");
  nxrt_site_t *hook =
      addSite(NXRT_SITE_OPTIONAL_IO_CALLBACK, "nobody", "m.mlir:7:5");
  nxrt_runtime_set_tracer(rt, Recorder::record, &recorder);

  Tensor<float> x(NXRT_F32, {2}, {1, 2});
  Tensor<float> y(NXRT_F32, {2});
  EXPECT_EQ(invoke(call, &x.view, 1, &y.view, 1), nullptr);
  nxrt_run_t *firstRun = lastRun;
  EXPECT_EQ(invoke(io, &x.view, 1, &x.view, 1), nullptr);
  EXPECT_EQ(invoke(target, &x.view, 1, &y.view, 1), nullptr);
  EXPECT_NE(invoke(failing, &x.view, 1, &y.view, 1), nullptr);
  EXPECT_EQ(invoke(hook, &x.view, 1, &x.view, 1), nullptr);

  ASSERT_EQ(recorder.events.size(), 5u);
  const Event &e0 = recorder.events[0];
  EXPECT_EQ(e0.name, "slow");
  EXPECT_EQ(e0.location, "m.mlir:3:5");
  EXPECT_EQ(e0.what, "callback @slow at m.mlir:3:5");
  EXPECT_EQ(e0.kind, NXRT_SITE_ELIXIR_CALL);
  EXPECT_EQ(e0.dispatch, "inline");
  EXPECT_GE(e0.durationNs, 2000000);
  EXPECT_EQ(e0.code, NXRT_OK);
  EXPECT_EQ(e0.run, firstRun);

  EXPECT_EQ(recorder.events[1].kind, NXRT_SITE_IO_CALLBACK);
  EXPECT_EQ(recorder.events[1].location, "m.mlir:4:5");
  EXPECT_EQ(recorder.events[2].kind, NXRT_SITE_CUSTOM_CALL);
  EXPECT_EQ(recorder.events[2].what, "custom call @kernel at m.mlir:5:5");
  EXPECT_GE(recorder.events[2].durationNs, 2000000);
  EXPECT_EQ(recorder.events[3].name, "fails");
  EXPECT_EQ(recorder.events[3].code, NXRT_INTERNAL);
  EXPECT_EQ(recorder.events[4].kind, NXRT_SITE_OPTIONAL_IO_CALLBACK);
  EXPECT_EQ(recorder.events[4].dispatch, "unbound");
  EXPECT_EQ(recorder.events[4].code, NXRT_OK);
}

TEST_F(NxrtTrace, RoutedCallsAreTracedAsBridgeCalls) {
  registerInline("slow", sleeps2ms);
  NXRT_ASSERT_OK(
      nxrt_runtime_set_callback_dispatch(rt, NXRT_DISPATCH_BRIDGE, 0));
  nxrt_runtime_set_tracer(rt, Recorder::record, &recorder);
  nxrt_site_t *site = addSite(NXRT_SITE_ELIXIR_CALL, "slow", "m.mlir:2:1");
  Tensor<float> x(NXRT_F32, {1}, {1});
  Tensor<float> y(NXRT_F32, {1});
  {
    Dispatcher d(rt, [](nxrt_request_t *req) {
      NXRT_EXPECT_OK(nxrt_request_serve(req));
    });
    Status s = invoke(site, &x.view, 1, &y.view, 1);
    EXPECT_EQ(s, nullptr) << message(s);
  }
  ASSERT_EQ(recorder.events.size(), 1u);
  EXPECT_EQ(recorder.events[0].dispatch, "bridge");
  EXPECT_GE(recorder.events[0].durationNs, 2000000);
}

TEST_F(NxrtTrace, OnlyRunsBegunAfterTheTracerIsSetAreTraced) {
  registerInline("slow", sleeps2ms);
  nxrt_site_t *site = addSite(NXRT_SITE_ELIXIR_CALL, "slow");
  Tensor<float> x(NXRT_F32, {1}, {1});
  Tensor<float> y(NXRT_F32, {1});

  nxrt_run_t *before = nxrt_run_begin(rt, nullptr);
  nxrt_runtime_set_tracer(rt, Recorder::record, &recorder);
  NXRT_EXPECT_OK(nxrt_invoke(before, site, &x.view, 1, &y.view, 1));
  NXRT_EXPECT_OK(nxrt_run_end(before));
  EXPECT_TRUE(recorder.events.empty());

  EXPECT_EQ(invoke(site, &x.view, 1, &y.view, 1), nullptr);
  EXPECT_EQ(recorder.events.size(), 1u);

  nxrt_runtime_set_tracer(rt, nullptr, nullptr);
  EXPECT_EQ(invoke(site, &x.view, 1, &y.view, 1), nullptr);
  EXPECT_EQ(recorder.events.size(), 1u);
}

TEST_F(NxrtTrace, CallsSkippedAfterAFailureAreNotTraced) {
  registerInline("fails", fails);
  nxrt_runtime_set_tracer(rt, Recorder::record, &recorder);
  nxrt_site_t *site = addSite(NXRT_SITE_ELIXIR_CALL, "fails");
  Tensor<float> x(NXRT_F32, {1}, {1});
  Tensor<float> y(NXRT_F32, {1});
  nxrt_run_t *run = nxrt_run_begin(rt, nullptr);
  nxrt_status_free(nxrt_invoke(run, site, &x.view, 1, &y.view, 1));
  Status skipped(nxrt_invoke(run, site, &x.view, 1, &y.view, 1));
  EXPECT_EQ(nxrt_status_code(skipped.get()), NXRT_ABORTED);
  Status s(nxrt_run_end(run));
  EXPECT_EQ(recorder.events.size(), 1u);
}

TEST_F(NxrtTrace, TheLogWritesOneLinePerCall) {
  registerInline("slow", sleeps2ms);
  registerInline("fails", fails);
  nxrt_site_t *io = addSite(NXRT_SITE_IO_CALLBACK, "slow", "m.mlir:4:9");
  nxrt_site_t *failing = addSite(NXRT_SITE_ELIXIR_CALL, "fails", "m.mlir:7:3");
  Tensor<float> x(NXRT_F32, {1}, {1});
  Tensor<float> y(NXRT_F32, {1});

  nxrt_runtime_set_trace_log(rt, 1);
  testing::internal::CaptureStderr();
  EXPECT_EQ(invoke(io, &x.view, 1, &x.view, 1), nullptr);
  EXPECT_NE(invoke(failing, &x.view, 1, &y.view, 1), nullptr);
  nxrt_runtime_set_trace_log(rt, 0);
  EXPECT_EQ(invoke(io, &x.view, 1, &x.view, 1), nullptr);
  std::string log = testing::internal::GetCapturedStderr();

  std::regex want("nxrt: trace: io_callback @slow at m\\.mlir:4:9: inline, "
                  "[0-9.]+ ms\n"
                  "nxrt: trace: elixir_call @fails at m\\.mlir:7:3: inline, "
                  "[0-9.]+ (ns|us|ms), failed: INTERNAL\n");
  EXPECT_TRUE(std::regex_match(log, want)) << log;
}

TEST(NxrtTraceEnvironment, NxrtTraceTurnsTheLogOnForNewRuntimes) {
  nxrt_callback_desc_t desc{NXRT_DISPATCH_INLINE, sleeps2ms, nullptr, 0};
  for (const char *value : {"1", "0", ""}) {
    setenv("NXRT_TRACE", value, 1);
    nxrt_runtime_t *rt = nxrt_runtime_create();
    unsetenv("NXRT_TRACE");
    NXRT_ASSERT_OK(nxrt_register_callback(rt, "slow", &desc));
    nxrt_program_t *program = nxrt_program_create(rt, "p");
    nxrt_status_t *error = nullptr;
    nxrt_site_t *site =
        nxrt_program_add_site(program, NXRT_SITE_IO_CALLBACK, "slow",
                              "e.mlir:1:1", nullptr, 0, &error);
    ASSERT_EQ(error, nullptr);
    Tensor<float> x(NXRT_F32, {1}, {1});
    testing::internal::CaptureStderr();
    nxrt_run_t *run = nxrt_run_begin(rt, nullptr);
    NXRT_EXPECT_OK(nxrt_invoke(run, site, &x.view, 1, &x.view, 1));
    NXRT_EXPECT_OK(nxrt_run_end(run));
    std::string log = testing::internal::GetCapturedStderr();
    bool traced = std::string(value) == "1";
    EXPECT_EQ(log.find("nxrt: trace: io_callback @slow at e.mlir:1:1") !=
                  std::string::npos,
              traced)
        << "NXRT_TRACE=" << value << ": " << log;
    nxrt_program_destroy(program);
    nxrt_runtime_destroy(rt);
  }
}

TEST(NxrtSiteKindName, NamesEveryKind) {
  EXPECT_STREQ(nxrt_site_kind_name(NXRT_SITE_ELIXIR_CALL), "elixir_call");
  EXPECT_STREQ(nxrt_site_kind_name(NXRT_SITE_IO_CALLBACK), "io_callback");
  EXPECT_STREQ(nxrt_site_kind_name(NXRT_SITE_OPTIONAL_IO_CALLBACK),
               "io_callback");
  EXPECT_STREQ(nxrt_site_kind_name(NXRT_SITE_CUSTOM_CALL), "custom_call");
  EXPECT_STREQ(nxrt_site_kind_name(NXRT_SITE_OUTFEED), "outfeed");
  EXPECT_STREQ(nxrt_site_kind_name(NXRT_SITE_INFEED), "infeed");
  EXPECT_STREQ(nxrt_site_kind_name(static_cast<nxrt_site_kind_t>(42)),
               "unknown");
}

} // namespace

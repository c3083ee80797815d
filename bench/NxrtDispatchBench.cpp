//===- NxrtDispatchBench.cpp - libnxrt dispatch costs ---------------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
//  BM_DirectCall / BM_InlineInvoke      inline dispatch overhead per call
//  BM_BridgeRoundTrip / BM_CondVarHandoff / BM_SpinPingPong /
//  BM_DescriptorHandoff
//      host round trip latency: the runtime's bridge (spin, then park)
//      against the mutex + condition-variable handoff EXLA uses today, the
//      floor of this machine at this moment (one atomic bounced between
//      two spinning threads; a VM's core-to-core latency varies several-fold
//      over time, so read the bridge against the floor of the same run),
//      and the least a zero-copy bridge can pay (a request record through
//      a mailbox, its data through views);
//      p50/p99 are reported as counters (microseconds). Argument `load`:
//      0 idle, 1 with one busy-spinning thread per core started by the
//      benchmark for the duration of the measurement (nx_bench::BusyLoad).
//  BM_BridgeAgainstFloor        the idle bridge, the floor and the descriptor
//      handoff in alternating blocks of one run (the targets' measurement:
//      x_floor_p50 / x_floor_p99 are the bridge over the floor's p50)
//  BM_BridgeAgainstCondVar/load:<0|1>  the bridge and the condvar handoff
//      in alternating blocks of one run (the load target's measurement:
//      x_condvar_p50 / x_condvar_p99 are the bridge over the condvar)
//  BM_BridgeIdleDispatcher      CPU time an idle dispatcher thread burns in
//      nxrt_bridge_pull per 200 ms with nothing requested, after a burst of
//      round trips (counter idle_cpu_ms; should be near zero)
//  BM_ArgBytes/<mode>/<bytes>           callback cost for 1 KiB vs 256 MiB
//      arguments (zero copy: the cost must not grow with the size)
//
//===----------------------------------------------------------------------===//

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <pthread.h>
#include <thread>
#include <time.h>
#include <vector>

#include "Latency.h"
#include "benchmark/benchmark.h"
#include "nxrt/nxrt.h"

namespace {

using Clock = std::chrono::steady_clock;
using nx_bench::BusyLoad;
using nx_bench::reportLatency;

void check(nxrt_status_t *s) {
  if (s) {
    std::fprintf(stderr, "nxrt error: %s\n", nxrt_status_message(s));
    std::abort();
  }
}

// The host function both benchmarks call: y = x + 1.
__attribute__((noinline)) nxrt_status_t *addOne(void *,
                                                const nxrt_call_t *call) {
  *static_cast<int64_t *>(call->results[0].data) =
      *static_cast<const int64_t *>(call->args[0].data) + 1;
  return nullptr;
}

// Baseline: the same handler through a function pointer the compiler cannot
// see through, as compiled code would call a host function directly.
void BM_DirectCall(benchmark::State &state) {
  int64_t x = 1, y = 0;
  nxrt_tensor_t arg{NXRT_I64, 0, nullptr, &x};
  nxrt_tensor_t res{NXRT_I64, 0, nullptr, &y};
  nxrt_call_t call{&arg,   1, &res, 1, nullptr, "add_one", "bench.mlir:1:1",
                   nullptr};
  nxrt_handler_fn fn = addOne;
  benchmark::DoNotOptimize(fn);
  for (auto _ : state) {
    check(fn(nullptr, &call));
    benchmark::DoNotOptimize(y);
  }
}
BENCHMARK(BM_DirectCall);

void BM_InlineInvoke(benchmark::State &state) {
  nxrt_runtime_t *rt = nxrt_runtime_create();
  nxrt_callback_desc_t desc{NXRT_DISPATCH_INLINE, addOne, nullptr, 0};
  check(nxrt_register_callback(rt, "add_one", &desc));
  nxrt_program_t *program = nxrt_program_create(rt, "bench");
  nxrt_site_t *site =
      nxrt_program_add_site(program, NXRT_SITE_ELIXIR_CALL, "add_one",
                            "bench.mlir:1:1", nullptr, 0, nullptr);
  int64_t x = 1, y = 0;
  nxrt_tensor_t arg{NXRT_I64, 0, nullptr, &x};
  nxrt_tensor_t res{NXRT_I64, 0, nullptr, &y};
  nxrt_run_t *run = nxrt_run_begin(rt, nullptr);
  for (auto _ : state) {
    check(nxrt_invoke(run, site, &arg, 1, &res, 1));
    benchmark::DoNotOptimize(y);
  }
  check(nxrt_run_end(run));
  nxrt_program_destroy(program);
  nxrt_runtime_destroy(rt);
}
BENCHMARK(BM_InlineInvoke);

// Host dispatcher for the bridge: pulls, replies x + 1.
void serveBridge(nxrt_runtime_t *rt) {
  nx_bench::pullUntilClosed(rt, [rt](nxrt_request_t *req) {
    const nxrt_tensor_t *x = nxrt_request_arg(req, 0);
    int64_t out = *static_cast<const int64_t *>(x->data) + 1;
    nxrt_tensor_t r = *nxrt_request_result_template(req, 0);
    r.data = &out;
    check(nxrt_bridge_reply(rt, nxrt_request_tag(req), nullptr, &r, 1));
    nxrt_request_release(req);
  });
}

// The setup of every bridge benchmark: a runtime with add_one bound for
// bridge dispatch, a dispatcher thread serving it (ServeBridge) and a run
// calling it.
class BridgedAddOne {
public:
  BridgedAddOne() : rt(nxrt_runtime_create()) {
    nxrt_callback_desc_t desc{NXRT_DISPATCH_BRIDGE, nullptr, nullptr, 10000};
    check(nxrt_register_callback(rt, "add_one", &desc));
    program = nxrt_program_create(rt, "bench");
    site = nxrt_program_add_site(program, NXRT_SITE_ELIXIR_CALL, "add_one",
                                 "bench.mlir:1:1", nullptr, 0, nullptr);
    dispatcherThread = std::thread(serveBridge, rt);
    run = nxrt_run_begin(rt, nullptr);
  }
  ~BridgedAddOne() {
    check(nxrt_run_end(run));
    nxrt_bridge_close(rt);
    dispatcherThread.join();
    nxrt_program_destroy(program);
    nxrt_runtime_destroy(rt);
  }
  BridgedAddOne(const BridgedAddOne &) = delete;
  BridgedAddOne &operator=(const BridgedAddOne &) = delete;

  std::thread &dispatcher() { return dispatcherThread; }

  // One call through the bridge, its answer checked; returns its latency in
  // microseconds.
  double roundTrip() {
    auto t0 = Clock::now();
    check(nxrt_invoke(run, site, &arg, 1, &res, 1));
    double us = nx_bench::microsSince(t0);
    if (y != x + 1)
      std::abort();
    ++x;
    return us;
  }

private:
  nxrt_runtime_t *rt;
  nxrt_program_t *program = nullptr;
  nxrt_site_t *site = nullptr;
  std::thread dispatcherThread;
  nxrt_run_t *run = nullptr;
  int64_t x = 1, y = 0;
  nxrt_tensor_t arg{NXRT_I64, 0, nullptr, &x};
  nxrt_tensor_t res{NXRT_I64, 0, nullptr, &y};
};

void BM_BridgeRoundTrip(benchmark::State &state) {
  nx_bench::peerRoundTrips<BridgedAddOne>(state);
}
BENCHMARK(BM_BridgeRoundTrip)->ArgName("load")->Arg(0)->Arg(1)->UseRealTime();

// The idle bridge against the floor and the descriptor handoff in the
// same run: each iteration is a block of round trips of each, so all three
// see the same placement of the VM's vCPUs. The calling thread runs on one
// CPU and the dispatcher and peers on another, as the floor needs: left to
// itself, the scheduler of this 2-vCPU VM takes milliseconds to spread a
// freshly started peer thread, and sometimes keeps the bridge's two
// threads on one CPU (BM_BridgeRoundTrip measures the bridge unpinned).
// Counters: the bridge's p50_us / p99_us, floor_p50_us, x_floor_p50 /
// x_floor_p99 (the bridge's p50 and p99 over the floor's p50),
// handoff_p50_us and x_handoff_p50.
void BM_BridgeAgainstFloor(benchmark::State &state) {
  constexpr int kBlock = 2000, kWarmUp = 256;
  if (nx_bench::twoCpus().first < 0) {
    state.SkipWithError("needs two CPUs");
    return;
  }
  std::vector<double> us, floor, handoff;
  us.reserve(1 << 20);
  floor.reserve(1 << 20);
  handoff.reserve(1 << 20);
  {
    BridgedAddOne bridge;
    nx_bench::PinnedPair pinned(bridge.dispatcher());
    for (auto _ : state) {
      for (int i = 0; i < kWarmUp + kBlock; ++i) {
        double sample = bridge.roundTrip();
        if (i >= kWarmUp)
          us.push_back(sample);
      }
      nx_bench::sampleBlock<nx_bench::PingPeer>(floor, kBlock,
                                                pinned.peerCpu());
      nx_bench::sampleBlock<nx_bench::HandoffPeer>(handoff, kBlock,
                                                   pinned.peerCpu());
    }
  }
  nx_bench::reportAgainstFloor(state, us, floor);
  if (!handoff.empty()) {
    std::sort(handoff.begin(), handoff.end());
    double p50 = nx_bench::quantile(handoff, 0.50);
    state.counters["handoff_p50_us"] = p50;
    state.counters["x_handoff_p50"] = state.counters["p50_us"] / p50;
  }
}
BENCHMARK(BM_BridgeAgainstFloor)->UseRealTime();

// What EXLA does today: one mutex, condition variables, a blocking wait on
// each side.
struct Handoff {
  std::mutex mu;
  std::condition_variable requestCv, replyCv;
  bool hasRequest = false, hasReply = false, stop = false;
  int64_t in = 0, out = 0;
};

void serveCondVar(Handoff *h) {
  for (;;) {
    std::unique_lock<std::mutex> lock(h->mu);
    h->requestCv.wait(lock, [h] { return h->hasRequest || h->stop; });
    if (h->stop)
      return;
    h->hasRequest = false;
    h->out = h->in + 1;
    h->hasReply = true;
    lock.unlock();
    h->replyCv.notify_one();
  }
}

// One handoff through `h`; returns its latency in microseconds.
double condVarRoundTrip(Handoff &h, int64_t x) {
  auto t0 = Clock::now();
  {
    std::lock_guard<std::mutex> lock(h.mu);
    h.in = x;
    h.hasRequest = true;
  }
  h.requestCv.notify_one();
  {
    std::unique_lock<std::mutex> lock(h.mu);
    h.replyCv.wait(lock, [&] { return h.hasReply; });
    h.hasReply = false;
    if (h.out != x + 1)
      std::abort();
  }
  return nx_bench::microsSince(t0);
}

void stopCondVar(Handoff &h, std::thread &server) {
  {
    std::lock_guard<std::mutex> lock(h.mu);
    h.stop = true;
  }
  h.requestCv.notify_one();
  server.join();
}

void BM_CondVarHandoff(benchmark::State &state) {
  BusyLoad load(BusyLoad::threadsFor(state.range(0)));
  Handoff h;
  std::thread server(serveCondVar, &h);
  std::vector<double> us;
  us.reserve(1 << 20);
  int64_t x = 1;
  for (auto _ : state)
    us.push_back(condVarRoundTrip(h, x++));
  stopCondVar(h, server);
  reportLatency(state, us);
}
BENCHMARK(BM_CondVarHandoff)->ArgName("load")->Arg(0)->Arg(1)->UseRealTime();

// The bridge against the condvar handoff under the same load: each
// iteration is a block of round trips of each, alternating, so that both
// meet the same scheduler state (with one busy thread per core, each
// block's latencies depend on where the scheduler put which thread).
// Counters: the bridge's p50_us / p99_us, condvar_p50_us / condvar_p99_us,
// and x_condvar_p50 / x_condvar_p99 (bridge over condvar; <= 1 is the
// target).
void BM_BridgeAgainstCondVar(benchmark::State &state) {
  constexpr int kBlock = 500;
  BusyLoad load(BusyLoad::threadsFor(state.range(0)));
  std::vector<double> us, condvar;
  us.reserve(1 << 20);
  condvar.reserve(1 << 20);
  {
    BridgedAddOne bridge;
    Handoff h;
    std::thread server(serveCondVar, &h);
    int64_t x = 1;
    for (auto _ : state) {
      for (int i = 0; i < kBlock; ++i)
        us.push_back(bridge.roundTrip());
      for (int i = 0; i < kBlock; ++i)
        condvar.push_back(condVarRoundTrip(h, x++));
    }
    stopCondVar(h, server);
  }
  reportLatency(state, us);
  if (condvar.empty())
    return;
  std::sort(condvar.begin(), condvar.end());
  double p50 = nx_bench::quantile(condvar, 0.50);
  double p99 = nx_bench::quantile(condvar, 0.99);
  state.counters["condvar_p50_us"] = p50;
  state.counters["condvar_p99_us"] = p99;
  state.counters["x_condvar_p50"] = state.counters["p50_us"] / p50;
  state.counters["x_condvar_p99"] = state.counters["p99_us"] / p99;
}
BENCHMARK(BM_BridgeAgainstCondVar)
    ->ArgName("load")
    ->Arg(0)
    ->Arg(1)
    ->UseRealTime();

// The hardware floor: one cache line bounced between two spinning threads.
void BM_SpinPingPong(benchmark::State &state) { nx_bench::spinPingPong(state); }
BENCHMARK(BM_SpinPingPong)->ArgName("load")->Arg(0)->Arg(1)->UseRealTime();

// The least any zero-copy bridge pays (nx_bench::DescriptorHandoff).
void BM_DescriptorHandoff(benchmark::State &state) {
  nx_bench::descriptorHandoff(state);
}
BENCHMARK(BM_DescriptorHandoff)->ArgName("load")->Arg(0)->Arg(1)->UseRealTime();

double threadCpuMs(pthread_t thread) {
  clockid_t clock;
  timespec ts{};
  if (pthread_getcpuclockid(thread, &clock) || clock_gettime(clock, &ts))
    std::abort();
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

// After a burst of round trips (which leaves the spin budgets at their
// largest), the dispatcher waits in nxrt_bridge_pull with nothing
// requested: its CPU time over the next 200 ms must stay near zero.
void BM_BridgeIdleDispatcher(benchmark::State &state) {
  BridgedAddOne bridge;
  double idleMs = 0;
  for (auto _ : state) {
    for (int i = 0; i < 10000; ++i)
      bridge.roundTrip();
    double before = threadCpuMs(bridge.dispatcher().native_handle());
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    idleMs += threadCpuMs(bridge.dispatcher().native_handle()) - before;
  }
  state.counters["idle_cpu_ms"] = idleMs / state.iterations();
}
BENCHMARK(BM_BridgeIdleDispatcher)->Iterations(3)->UseRealTime();

// A handler that reads one byte of its argument, as a host function that
// inspects a view would; the runtime must not touch the rest. Io_callbacks
// have no results, so the byte goes to a sink instead.
std::atomic<int64_t> peekSink{0};
nxrt_status_t *peek(void *, const nxrt_call_t *call) {
  int64_t byte = static_cast<const uint8_t *>(call->args[0].data)[0];
  if (call->nresults)
    *static_cast<int64_t *>(call->results[0].data) = byte;
  else
    peekSink.store(byte, std::memory_order_relaxed);
  return nullptr;
}

// Arg 0: dispatch mode (0 inline, 1 bridge, 2 io_callback); arg 1: bytes.
void BM_ArgBytes(benchmark::State &state) {
  const int mode = state.range(0);
  const int64_t bytes = state.range(1);
  nxrt_runtime_t *rt = nxrt_runtime_create();
  nxrt_callback_desc_t desc{mode == 1 ? NXRT_DISPATCH_BRIDGE
                                      : NXRT_DISPATCH_INLINE,
                            mode == 1 ? nullptr : peek, nullptr, 10000};
  check(nxrt_register_callback(rt, "peek", &desc));
  nxrt_program_t *program = nxrt_program_create(rt, "bench");
  nxrt_site_t *site = nxrt_program_add_site(
      program, mode == 2 ? NXRT_SITE_IO_CALLBACK : NXRT_SITE_ELIXIR_CALL,
      "peek", "bench.mlir:1:1", nullptr, 0, nullptr);
  std::vector<uint8_t> data(bytes, 7); // committed before timing
  int64_t dims[] = {bytes};
  int64_t y = 0;
  nxrt_tensor_t arg{NXRT_U8, 1, dims, data.data()};
  nxrt_tensor_t res{NXRT_I64, 0, nullptr, &y};
  std::thread dispatcher;
  if (mode == 1)
    dispatcher = std::thread([rt] {
      nx_bench::pullUntilClosed(rt, [rt](nxrt_request_t *req) {
        int64_t out =
            static_cast<const uint8_t *>(nxrt_request_arg(req, 0)->data)[0];
        nxrt_tensor_t r = *nxrt_request_result_template(req, 0);
        r.data = &out;
        check(nxrt_bridge_reply(rt, nxrt_request_tag(req), nullptr, &r, 1));
        nxrt_request_release(req);
      });
    });
  nxrt_run_t *run = nxrt_run_begin(rt, nullptr);
  for (auto _ : state) {
    if (mode == 2)
      check(nxrt_invoke(run, site, &arg, 1, &arg, 1)); // results alias args
    else
      check(nxrt_invoke(run, site, &arg, 1, &res, 1));
    benchmark::DoNotOptimize(y);
  }
  check(nxrt_run_end(run));
  if (mode == 1) {
    nxrt_bridge_close(rt);
    dispatcher.join();
  }
  nxrt_program_destroy(program);
  nxrt_runtime_destroy(rt);
}
BENCHMARK(BM_ArgBytes)
    ->ArgNames({"mode", "bytes"})
    ->ArgsProduct({{0, 1, 2}, {1 << 10, int64_t(256) << 20}})
    ->UseRealTime();

} // namespace

BENCHMARK_MAIN();

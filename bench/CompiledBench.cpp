//===- CompiledBench.cpp - costs of nx host interactions in compiled code -===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Benchmarks of code compiled by nx-lower-to-cpu and JIT-compiled with MLIR's
// ExecutionEngine, in one binary so the numbers can be compared directly:
//
//  BM_Loop/<kind>/<iters>
//      an scf.for of <iters> iterations carrying a tensor<f32> (or
//      tensor<1xf32>) value; each iteration adds 1, either in compiled code
//      (`nocallback`) or through an inline nx.elixir_call whose host handler
//      writes x + 1 into its result buffer (`callback`). Time is reported per
//      iteration (items/s counts iterations); the difference between the two
//      is the per-call overhead of an elixir_call. The loop-carried value is
//      checked after every run, so neither loop can be optimized away.
//  BM_Loop_C/<iters>, BM_Loop_InvokeFromC/<iters>
//      their baselines: the +1 loop in C, and the same loop in C++ calling
//      the same handler through nxrt_invoke as a compiled call site does.
//  BM_Loop_Scalar_Bridged/load:<0|1>/<iters>
//      the tensor<f32> callback loop with @bench.add_one bound for bridge
//      dispatch instead: every iteration becomes a bridge request, pulled
//      and answered (x + 1) by a dispatcher thread. p50_us/p99_us are the
//      times between consecutive requests reaching the dispatcher, i.e. one
//      loop iteration including the round trip. load:1 runs one
//      busy-spinning thread per core alongside. Idle (load:0), the loop and
//      the dispatcher are pinned to two CPUs and the floor is sampled
//      between runs on the same two: floor_p50_us, and x_floor_p50 /
//      x_floor_p99, the loop's p50 and p99 over the floor's p50.
//  BM_SpinPingPong/load:<0|1>
//      the machine's floor in the same run: one cache line bounced between
//      two spinning threads (bench/Latency.h).
//  BM_IoCallback/<bytes>
//      a function taking tensor<Nxf32> (1 KiB or 256 MiB), running an inline
//      nx.io_callback on it and returning one extracted element (f32), so no
//      result is copied. The function is called directly through its C
//      interface on a preallocated buffer (Executable::run copies inputs,
//      which would time a memcpy): with zero copy the time must not depend
//      on the size.
//  BM_LowerToCpu/<ops>      parse + nx-lower-to-cpu (no JIT codegen)
//  BM_LowerAndJit/<ops>     parse + nx-lower-to-cpu + LLVM JIT codegen (-O2)
//      on a generated function of <ops> elementwise ops on tensor<4xf32>
//      with an nx.elixir_call every 100 ops, each compile in a fresh
//      context (as Executable::compileSource does). Compile time should grow
//      linearly: compare the time per op (items/s) across sizes. 100k ops
//      only with NX_BENCH_LARGE=1 in the environment (several seconds each).
//  BM_LowerToCpuUnsplit/<ops>
//      the same with max-function-ops=0: the function is not split into
//      pieces (nx-split-functions), the baseline for the split.
//  BM_LowerElementwiseChain/<ops>
//      the same without callbacks: one chain of <ops> elementwise ops, which
//      nx-fuse-elementwise turns into one linalg.generic in linear time
//      (upstream's pairwise fusion took 29 s for 10k ops).
//  BM_CompileCallSites/<pairs>
//      a function of nothing but <pairs> nx.elixir_call + nx.io_callback
//      pairs compiled end to end as nx-runner does (Executable: parse,
//      lower, translate, JIT, load); per_site is the time per call site
//      (2 per pair), which must stay flat across sizes and under 1 ms.
//      4000 pairs only with NX_BENCH_LARGE=1.
//  BM_LowerCallSites/<pairs>
//      the same chain, parse + nx-lower-to-cpu only: the baseline that
//      shows what translation, code generation and loading add.
//
//   ninja -C <build> nx-bench-compiled
//   <build>/bin/nx-bench-compiled --benchmark_repetitions=5 \
//       --benchmark_report_aggregates_only=true
//
//===----------------------------------------------------------------------===//

#include "BenchJit.h"
#include "Latency.h"
#include "LoopCounters.h"
#include "baselines/CKernels.h"

#include "nx/Runner/Runner.h"

#include "mlir/ExecutionEngine/CRunnerUtils.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

using namespace mlir;
namespace runner = mlir::nx::runner;

namespace {

using nx_bench::check;
using nx_bench::JitModule;
using nx_bench::ScopedRun;
using nx_bench::setLoopCounters;

/// A runtime with the benchmark's host callbacks bound inline.
class BenchRuntime {
public:
  BenchRuntime() : runtime(nxrt_runtime_create()) {
    bind("bench.add_one", &addOne);
    bind("bench.touch", &touch);
  }
  ~BenchRuntime() { nxrt_runtime_destroy(runtime); }
  nxrt_runtime_t *get() const { return runtime; }

  /// elixir_call: result[0] = arg[0] + 1 (f32, any shape with one element).
  static nxrt_status_t *addOne(void *, const nxrt_call_t *call) {
    *static_cast<float *>(call->results[0].data) =
        *static_cast<const float *>(call->args[0].data) + 1.0f;
    return nullptr;
  }
  /// io_callback: reads the first element of its argument, in place.
  static nxrt_status_t *touch(void *, const nxrt_call_t *call) {
    benchmark::DoNotOptimize(*static_cast<const float *>(call->args[0].data));
    return nullptr;
  }

private:
  void bind(const char *name, nxrt_handler_fn fn) {
    nxrt_callback_desc_t desc{NXRT_DISPATCH_INLINE, fn, nullptr, 0};
    check(nxrt_register_callback(runtime, name, &desc));
  }
  nxrt_runtime_t *runtime;
};

//===----------------------------------------------------------------------===//
// 1. elixir_call in a compiled loop
//===----------------------------------------------------------------------===//

/// @callback and @nocallback over `type` (tensor<f32> or tensor<1xf32>):
/// %acc_{i+1} = %acc_i + 1, `iters` times (the trip count is an argument, so
/// nothing is known at compile time).
std::string loopModule(const std::string &type) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "nx.callback @bench.add_one : (" << type << ") -> " << type << "\n";
  for (bool callback : {true, false}) {
    os << "func.func @" << (callback ? "callback" : "nocallback")
       << "(%init: " << type << ", %n: tensor<i64>) -> " << type << " {\n"
       << "  %c0 = arith.constant 0 : index\n"
       << "  %c1 = arith.constant 1 : index\n"
       << "  %n64 = tensor.extract %n[] : tensor<i64>\n"
       << "  %ub = arith.index_cast %n64 : i64 to index\n";
    if (!callback)
      os << "  %one = arith.constant dense<1.0> : " << type << "\n";
    os << "  %r = scf.for %i = %c0 to %ub step %c1 iter_args(%acc = %init) -> ("
       << type << ") {\n";
    // The elixir_call result is a new buffer; one-shot bufferization (with
    // nx-lower-to-cpu's options) rejects yielding it from the loop ("Yield
    // operand #0 is not equivalent to the corresponding iter bbArg"), so it
    // is written back into the loop-carried buffer (a 4-byte copy).
    if (callback)
      os << "    %res = nx.elixir_call @bench.add_one(%acc) : (" << type
         << ") -> " << type << "\n"
         << "    %next = bufferization.materialize_in_destination %res in %acc"
         << " : (" << type << ", " << type << ") -> " << type << "\n";
    else
      os << "    %next = arith.addf %acc, %one : " << type << "\n";
    os << "    scf.yield %next : " << type << "\n"
       << "  }\n"
       << "  return %r : " << type << "\n"
       << "}\n";
  }
  return s;
}

template <int Rank>
using LoopFn = void (*)(StridedMemRefType<float, Rank> *,
                        StridedMemRefType<float, Rank> *,
                        StridedMemRefType<int64_t, 0> *);

template <int Rank>
StridedMemRefType<float, Rank> scalarDescriptor(float *data) {
  StridedMemRefType<float, Rank> d{};
  d.basePtr = data;
  d.data = data;
  d.offset = 0;
  if constexpr (Rank > 0) {
    for (int k = 0; k < Rank; ++k) {
      d.sizes[k] = 1;
      d.strides[k] = 1;
    }
  }
  return d;
}

/// One run of a loop function: fresh inputs (compiled code may write its
/// arguments), nxrt run around the call, result read and its buffer freed.
/// Kept out of line with a memory clobber before the result is read: an
/// earlier version doing this inline in the benchmark loop read a stale
/// result slot at -O3 (root cause not pinned down), which the result check
/// caught.
template <int Rank>
[[gnu::noinline]] float callLoop(LoopFn<Rank> fn, nxrt_runtime_t *runtime,
                                 int64_t iters) {
  float init = 0.0f;
  int64_t n = iters;
  StridedMemRefType<float, Rank> in = scalarDescriptor<Rank>(&init);
  StridedMemRefType<int64_t, 0> count{&n, &n, 0};
  StridedMemRefType<float, Rank> out{};
  {
    ScopedRun run(runtime);
    fn(&out, &in, &count);
  }
  benchmark::ClobberMemory();
  float result = out.data[out.offset];
  if (out.basePtr != &init)
    std::free(out.basePtr);
  return result;
}

template <int Rank> void runLoop(benchmark::State &state, bool callback) {
  static BenchRuntime runtime;
  static JitModule module(
      loopModule(Rank == 0 ? "tensor<f32>" : "tensor<1xf32>"), runtime.get());
  auto fn = module.lookup<LoopFn<Rank>>(callback ? "callback" : "nocallback");
  int64_t iters = state.range(0);
  for (auto _ : state) {
    float result = callLoop<Rank>(fn, runtime.get(), iters);
    benchmark::DoNotOptimize(result);
    if (result != static_cast<float>(iters)) {
      state.SkipWithError("wrong loop result");
      return;
    }
  }
  setLoopCounters(state, iters);
}

void BM_Loop_Scalar_NoCallback(benchmark::State &state) {
  runLoop<0>(state, false);
}
void BM_Loop_Scalar_Callback(benchmark::State &state) {
  runLoop<0>(state, true);
}
void BM_Loop_1xf32_NoCallback(benchmark::State &state) {
  runLoop<1>(state, false);
}
void BM_Loop_1xf32_Callback(benchmark::State &state) {
  runLoop<1>(state, true);
}
BENCHMARK(BM_Loop_Scalar_NoCallback)
    ->Arg(1000000)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Loop_Scalar_Callback)->Arg(1000000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Loop_1xf32_NoCallback)
    ->Arg(1000000)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Loop_1xf32_Callback)->Arg(1000000)->Unit(benchmark::kMillisecond);

/// The C baseline of the loops: acc + 1, n times, in one serial chain
/// (-O3 -march=native).
void BM_Loop_C(benchmark::State &state) {
  int64_t iters = state.range(0);
  for (auto _ : state) {
    float result = c_add_one_loop(0.0f, iters);
    if (result != static_cast<float>(iters)) {
      state.SkipWithError("wrong loop result");
      return;
    }
  }
  setLoopCounters(state, iters);
}
BENCHMARK(BM_Loop_C)->Arg(1000000)->Unit(benchmark::kMillisecond);

/// The baseline of the callback loops: the same loop in C++, calling the
/// same handler through nxrt_invoke with the views a compiled call site
/// passes, and copying the result back into the carried value, so each
/// call waits for the previous one as in compiled code. The callback loop
/// minus this is what compiled code adds to nxrt_invoke.
[[gnu::noinline]] float invokeLoop(nxrt_run_t *run, nxrt_site_t *site,
                                   int64_t iters) {
  float acc = 0.0f, result = 0.0f;
  for (int64_t i = 0; i < iters; ++i) {
    nxrt_tensor_t arg{NXRT_F32, 0, nullptr, &acc};
    nxrt_tensor_t res{NXRT_F32, 0, nullptr, &result};
    check(nxrt_invoke(run, site, &arg, 1, &res, 1));
    acc = result;
  }
  return acc;
}

void BM_Loop_InvokeFromC(benchmark::State &state) {
  static BenchRuntime runtime;
  nxrt_program_t *program = nxrt_program_create(runtime.get(), "bench");
  nxrt_site_t *site =
      nxrt_program_add_site(program, NXRT_SITE_ELIXIR_CALL, "bench.add_one",
                            "bench.mlir:1:1", nullptr, 0, nullptr);
  int64_t iters = state.range(0);
  for (auto _ : state) {
    nxrt_run_t *run = nxrt_run_begin(runtime.get(), nullptr);
    float result = invokeLoop(run, site, iters);
    check(nxrt_run_end(run));
    if (result != static_cast<float>(iters)) {
      state.SkipWithError("wrong loop result");
      break;
    }
  }
  nxrt_program_destroy(program);
  setLoopCounters(state, iters);
}
BENCHMARK(BM_Loop_InvokeFromC)->Arg(1000000)->Unit(benchmark::kMillisecond);

/// A runtime with @bench.add_one bound for bridge dispatch and a dispatcher
/// thread serving it by pull and reply. The dispatcher stamps each request's
/// arrival; the gap to the previous arrival is one iteration of a bridged
/// loop (compiled code, request, host, reply), a latency sample per call
/// that needs no clock in compiled code.
class BridgedRuntime {
public:
  BridgedRuntime() : runtime(nxrt_runtime_create()) {
    nxrt_callback_desc_t desc{NXRT_DISPATCH_BRIDGE, nullptr, nullptr, 10000};
    check(nxrt_register_callback(runtime, "bench.add_one", &desc));
    gaps.reserve(1 << 22);
    dispatcher = std::thread([this] { serve(); });
  }
  ~BridgedRuntime() {
    nxrt_bridge_close(runtime);
    dispatcher.join();
    nxrt_runtime_destroy(runtime);
  }
  nxrt_runtime_t *get() const { return runtime; }
  std::thread &dispatcherThread() { return dispatcher; }

  /// Samples since the last call. Read only between runs: each sample is
  /// recorded before its reply, which the finished run has seen.
  std::vector<double> takeGaps() {
    std::vector<double> out;
    out.swap(gaps);
    gaps.reserve(1 << 22);
    return out;
  }

private:
  void serve() {
    nx_bench::LatencyClock::time_point last{};
    nx_bench::pullUntilClosed(runtime, [&](nxrt_request_t *req) {
      auto now = nx_bench::LatencyClock::now();
      float x = *static_cast<const float *>(nxrt_request_arg(req, 0)->data);
      // A loop's first call (x == 0) follows the previous run's last one.
      if (x != 0.0f && gaps.size() < gaps.capacity())
        gaps.push_back(
            std::chrono::duration<double, std::micro>(now - last).count());
      last = now;
      float out = x + 1.0f;
      nxrt_tensor_t r = *nxrt_request_result_template(req, 0);
      r.data = &out;
      check(nxrt_bridge_reply(runtime, nxrt_request_tag(req), nullptr, &r, 1));
      nxrt_request_release(req);
    });
  }

  nxrt_runtime_t *runtime;
  std::vector<double> gaps; // written by the dispatcher only
  std::thread dispatcher;
};

void BM_Loop_Scalar_Bridged(benchmark::State &state) {
  static BridgedRuntime runtime;
  static JitModule module(loopModule("tensor<f32>"), runtime.get());
  auto fn = module.lookup<LoopFn<0>>("callback");
  bool idle = state.range(0) == 0;
  nx_bench::BusyLoad load(nx_bench::BusyLoad::threadsFor(state.range(0)));
  // Idle, the loop and the dispatcher run on two CPUs and the floor is
  // sampled between runs, on the same two CPUs (as BM_BridgeAgainstFloor in
  // NxrtDispatchBench); under load nothing is pinned.
  std::optional<nx_bench::PinnedPair> pinned;
  if (idle)
    pinned.emplace(runtime.dispatcherThread());
  std::vector<double> floor;
  int64_t iters = state.range(1);
  runtime.takeGaps();
  for (auto _ : state) {
    float result = callLoop<0>(fn, runtime.get(), iters);
    benchmark::DoNotOptimize(result);
    if (result != static_cast<float>(iters)) {
      state.SkipWithError("wrong loop result");
      return;
    }
    if (pinned && pinned->ok()) {
      state.PauseTiming();
      nx_bench::sampleBlock<nx_bench::PingPeer>(floor, 2000, pinned->peerCpu());
      state.ResumeTiming();
    }
  }
  setLoopCounters(state, iters);
  std::vector<double> gaps = runtime.takeGaps();
  nx_bench::reportAgainstFloor(state, gaps, floor);
}
BENCHMARK(BM_Loop_Scalar_Bridged)
    ->ArgNames({"load", "iters"})
    ->Args({0, 20000})
    ->Args({1, 20000})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

void BM_SpinPingPong(benchmark::State &state) { nx_bench::spinPingPong(state); }
BENCHMARK(BM_SpinPingPong)->ArgName("load")->Arg(0)->Arg(1)->UseRealTime();

//===----------------------------------------------------------------------===//
// 2. io_callback on 1 KiB vs 256 MiB
//===----------------------------------------------------------------------===//

std::string ioModule(int64_t elements) {
  std::string s;
  llvm::raw_string_ostream os(s);
  std::string type = "tensor<" + std::to_string(elements) + "xf32>";
  os << "nx.callback @bench.touch : (" << type << ") -> ()\n"
     << "func.func @io(%x: " << type << ") -> f32 {\n"
     << "  %y = nx.io_callback @bench.touch(%x) : " << type << "\n"
     << "  %c0 = arith.constant 0 : index\n"
     << "  %e = tensor.extract %y[%c0] : " << type << "\n"
     << "  return %e : f32\n"
     << "}\n";
  return s;
}

using IoFn = float (*)(StridedMemRefType<float, 1> *);

/// The compiled @io for one size and its preallocated argument (touched once
/// so its pages are resident before timing). Built once per size: Google
/// Benchmark calls a benchmark function several times.
struct IoFixture {
  IoFixture(int64_t bytes, nxrt_runtime_t *runtime)
      : elements(bytes / static_cast<int64_t>(sizeof(float))),
        module(ioModule(elements), runtime), fn(module.lookup<IoFn>("io")),
        data(static_cast<float *>(std::aligned_alloc(64, bytes))) {
    for (int64_t i = 0; i < elements; ++i)
      data[i] = static_cast<float>(i % 7);
    data[0] = 42.0f;
  }
  ~IoFixture() { std::free(data); }
  int64_t elements;
  JitModule module;
  IoFn fn;
  float *data;
};

void BM_IoCallback(benchmark::State &state) {
  static BenchRuntime runtime;
  static std::map<int64_t, std::unique_ptr<IoFixture>> fixtures;
  int64_t bytes = state.range(0);
  std::unique_ptr<IoFixture> &fixture = fixtures[bytes];
  if (!fixture)
    fixture = std::make_unique<IoFixture>(bytes, runtime.get());
  StridedMemRefType<float, 1> arg{};
  arg.basePtr = fixture->data;
  arg.data = fixture->data;
  arg.offset = 0;
  arg.sizes[0] = fixture->elements;
  arg.strides[0] = 1;
  for (auto _ : state) {
    float result;
    {
      ScopedRun run(runtime.get());
      result = fixture->fn(&arg);
    }
    benchmark::DoNotOptimize(result);
    if (result != 42.0f) {
      state.SkipWithError("wrong io_callback result");
      break;
    }
  }
  state.counters["bytes"] = static_cast<double>(bytes);
}
BENCHMARK(BM_IoCallback)->Arg(1 << 10)->Arg(256 << 20);

//===----------------------------------------------------------------------===//
// 3. nx-lower-to-cpu compile time
//===----------------------------------------------------------------------===//

/// One function of `numOps` ops on tensor<4xf32>: a chain of elementwise
/// arith ops, each reading the previous result and the argument, with an
/// nx.elixir_call every `callbackEvery`-th op (none if 0).
std::string chainModule(int64_t numOps, int64_t callbackEvery = 100) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "nx.callback @bench.cb : (tensor<4xf32>) -> tensor<4xf32>\n"
     << "func.func @chain(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n"
     << "  %v0 = arith.addf %arg0, %arg0 : tensor<4xf32>\n";
  static const char *kOps[] = {"arith.addf", "arith.mulf", "arith.subf",
                               "arith.maximumf"};
  for (int64_t i = 1; i < numOps; ++i) {
    os << "  %v" << i << " = ";
    if (callbackEvery && i % callbackEvery == 0)
      os << "nx.elixir_call @bench.cb(%v" << i - 1
         << ") : (tensor<4xf32>) -> tensor<4xf32>\n";
    else
      os << kOps[i % 4] << " %v" << i - 1 << ", %arg0 : tensor<4xf32>\n";
  }
  os << "  return %v" << numOps - 1 << " : tensor<4xf32>\n}\n";
  return s;
}

void setOpCounters(benchmark::State &state) {
  state.SetItemsProcessed(state.iterations() * state.range(0));
  state.counters["ops"] = static_cast<double>(state.range(0));
}

/// Parse + nx-lower-to-cpu of `source` in a fresh context, as
/// Executable::compileSource compiles each module; creating the context and
/// destroying the module are not timed.
void lowerInFreshContexts(benchmark::State &state, const std::string &source,
                          bool split = true) {
  for (auto _ : state) {
    state.PauseTiming();
    auto context = nx_bench::makeContext();
    state.ResumeTiming();
    OwningOpRef<ModuleOp> module = nx_bench::parse(source, context.get());
    if (!module || failed(nx_bench::lower(*module, split))) {
      state.SkipWithError("parse or nx-lower-to-cpu failed");
      return;
    }
    state.PauseTiming();
    module = nullptr;
    context.reset();
    state.ResumeTiming();
  }
  setOpCounters(state);
}

void BM_LowerToCpu(benchmark::State &state) {
  lowerInFreshContexts(state, chainModule(state.range(0)));
}

void BM_LowerToCpuUnsplit(benchmark::State &state) {
  lowerInFreshContexts(state, chainModule(state.range(0)), /*split=*/false);
}

void BM_LowerElementwiseChain(benchmark::State &state) {
  lowerInFreshContexts(state, chainModule(state.range(0), /*callbackEvery=*/0));
}

/// Parse + nx-lower-to-cpu + translation to LLVM IR and JIT codegen (-O2).
void BM_LowerAndJit(benchmark::State &state) {
  std::string source = chainModule(state.range(0));
  auto context = nx_bench::makeContext();
  for (auto _ : state) {
    OwningOpRef<ModuleOp> module = nx_bench::parse(source, context.get());
    if (!module || failed(nx_bench::lower(*module))) {
      state.SkipWithError("parse or nx-lower-to-cpu failed");
      return;
    }
    runner::JitMemory memory;
    std::unique_ptr<ExecutionEngine> engine = nx_bench::jit(*module, memory);
    benchmark::DoNotOptimize(engine.get());
    state.PauseTiming();
    engine.reset();
    module = nullptr;
    state.ResumeTiming();
  }
  setOpCounters(state);
}

/// One function of `pairs` nx.elixir_call + nx.io_callback pairs on
/// tensor<4xf32>, each call taking the previous one's result: nothing but
/// call sites.
std::string callSiteChain(int64_t pairs) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "nx.callback @bench.cb : (tensor<4xf32>) -> tensor<4xf32>\n"
     << "nx.callback @bench.log : (tensor<4xf32>) -> ()\n"
     << "func.func @main(%x0: tensor<4xf32>) -> tensor<4xf32> {\n";
  for (int64_t i = 0; i < pairs; ++i)
    os << "  %y" << i << " = nx.elixir_call @bench.cb(%x" << i
       << ") static_args {factor = 2.0 : f64} : (tensor<4xf32>) -> "
          "tensor<4xf32>\n"
       << "  %x" << i + 1 << " = nx.io_callback @bench.log(%y" << i
       << ") : tensor<4xf32>\n";
  os << "  return %x" << pairs << " : tensor<4xf32>\n}\n";
  return s;
}

void setCallSiteCounters(benchmark::State &state) {
  int64_t sites = 2 * state.range(0);
  state.SetItemsProcessed(state.iterations() * sites);
  state.counters["sites"] = static_cast<double>(sites);
  // Seconds per site, printed with an SI prefix (m, u).
  state.counters["per_site"] = benchmark::Counter(
      static_cast<double>(sites) * state.iterations(),
      benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

/// A chain of call-site pairs compiled end to end as nx-runner does
/// (Executable::compileSource: parse, nx-lower-to-cpu, translation, JIT
/// code generation, loading the sites into a program).
void BM_CompileCallSites(benchmark::State &state) {
  std::string source = callSiteChain(state.range(0));
  nxrt_runtime_t *runtime = nxrt_runtime_create();
  for (auto _ : state) {
    auto exe =
        runner::Executable::compileSource(source, "chain.mlir", runtime, {});
    if (!exe) {
      state.SkipWithError(llvm::toString(exe.takeError()).c_str());
      break;
    }
    state.PauseTiming();
    exe->reset();
    state.ResumeTiming();
  }
  nxrt_runtime_destroy(runtime);
  setCallSiteCounters(state);
}

/// Its lowering alone (parse + nx-lower-to-cpu in a fresh context): what
/// the rest of BM_CompileCallSites adds is translation, code generation and
/// loading.
void BM_LowerCallSites(benchmark::State &state) {
  lowerInFreshContexts(state, callSiteChain(state.range(0)));
  setCallSiteCounters(state);
}

// 100k ops take several seconds per compile, so they only run when
// NX_BENCH_LARGE is set in the environment. One iteration per repetition:
// use --benchmark_repetitions for statistics.
void registerCompileBenchmarks() {
  auto *lower = benchmark::RegisterBenchmark("BM_LowerToCpu", BM_LowerToCpu);
  lower->Arg(1000)->Arg(10000)->Iterations(1)->Unit(benchmark::kMillisecond);
  auto *unsplit = benchmark::RegisterBenchmark("BM_LowerToCpuUnsplit",
                                               BM_LowerToCpuUnsplit);
  unsplit->Arg(10000)->Iterations(1)->Unit(benchmark::kMillisecond);
  if (std::getenv("NX_BENCH_LARGE")) {
    lower->Arg(100000);
    unsplit->Arg(100000);
  }
  benchmark::RegisterBenchmark("BM_LowerElementwiseChain",
                               BM_LowerElementwiseChain)
      ->Arg(10000)
      ->Iterations(1)
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("BM_LowerAndJit", BM_LowerAndJit)
      ->Arg(1000)
      ->Iterations(1)
      ->Unit(benchmark::kMillisecond);
  for (auto [name, fn] : {std::pair{"BM_CompileCallSites", BM_CompileCallSites},
                          std::pair{"BM_LowerCallSites", BM_LowerCallSites}}) {
    auto *b = benchmark::RegisterBenchmark(name, fn);
    b->Arg(500)->Arg(1000)->Arg(2000)->Iterations(1)->Unit(
        benchmark::kMillisecond);
    if (std::getenv("NX_BENCH_LARGE"))
      b->Arg(4000);
  }
}

} // namespace

int main(int argc, char **argv) {
  registerCompileBenchmarks();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv))
    return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

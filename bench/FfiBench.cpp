//===- FfiBench.cpp - the cost of an XLA FFI handler call -----------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// An scf.for of <iters> iterations carrying a tensor<f32>; each iteration
// adds 1 through an nx.custom_call, compiled by nx-lower-to-cpu and
// JIT-compiled:
//
//  BM_FfiLoop/native/attrs:<k>
//      the target is a native nxrt handler (nxrt_register_custom_call):
//      nx's inline callback path.
//  BM_FfiLoop/ffi/attrs:<k>
//      the target is an XLA FFI handler: the call goes through an XLA FFI
//      call frame built per call (buffers) on the site's cached attributes.
//  BM_FfiLoop_C/<iters>
//      the baseline: the +1 loop in C, calling a non-inlined C function.
//
// <k> is the number of attributes of the call (0 or 4: f32, i64, string,
// array), which neither handler decodes; time is per iteration (per_iter).
// The loop-carried value is checked after every run.
//
//   ninja -C <build> nx-bench-ffi
//   <build>/bin/nx-bench-ffi --benchmark_repetitions=5 \
//       --benchmark_report_aggregates_only=true
//
//===----------------------------------------------------------------------===//

#include "BenchJit.h"
#include "LoopCounters.h"

#include "nxrt/nxrt_ffi.h"

#include "mlir/ExecutionEngine/CRunnerUtils.h"

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <string>

namespace {

using nx_bench::check;
using nx_bench::JitModule;
using nx_bench::ScopedRun;
using nx_bench::setLoopCounters;

nxrt_status_t *nativeAddOne(void *, const nxrt_call_t *call) {
  *static_cast<float *>(call->results[0].data) =
      *static_cast<const float *>(call->args[0].data) + 1.0f;
  return nullptr;
}

XLA_FFI_Error *ffiAddOne(XLA_FFI_CallFrame *frame) {
  if (frame->extension_start) { // the registration's metadata query
    auto *ext =
        reinterpret_cast<XLA_FFI_Metadata_Extension *>(frame->extension_start);
    ext->metadata->api_version.major_version = XLA_FFI_API_MAJOR;
    ext->metadata->api_version.minor_version = XLA_FFI_API_MINOR;
    return nullptr;
  }
  auto *x = static_cast<XLA_FFI_Buffer *>(frame->args.args[0]);
  auto *y = static_cast<XLA_FFI_Buffer *>(frame->rets.rets[0]);
  *static_cast<float *>(y->data) = *static_cast<const float *>(x->data) + 1;
  return nullptr;
}

nxrt_runtime_t *benchRuntime() {
  static nxrt_runtime_t *runtime = [] {
    nxrt_runtime_t *rt = nxrt_runtime_create();
    check(nxrt_register_custom_call(rt, "bench.native_add_one", nativeAddOne,
                                    nullptr));
    XLA_FFI_Handler_Bundle bundle{};
    bundle.execute = ffiAddOne;
    check(nxrt_ffi_register("bench.ffi_add_one", "Host", &bundle, 0));
    return rt;
  }();
  return runtime;
}

/// @loop(%init, %n): %acc + 1, n times, through custom call `target` with
/// `attrs` as its backend_config.
std::string loopModule(const std::string &target, const std::string &attrs) {
  return "func.func @loop(%init: tensor<f32>, %n: tensor<i64>) -> "
         "tensor<f32> {\n"
         "  %c0 = arith.constant 0 : index\n"
         "  %c1 = arith.constant 1 : index\n"
         "  %n64 = tensor.extract %n[] : tensor<i64>\n"
         "  %ub = arith.index_cast %n64 : i64 to index\n"
         "  %r = scf.for %i = %c0 to %ub step %c1 iter_args(%acc = %init) -> "
         "(tensor<f32>) {\n"
         "    %res = nx.custom_call @" +
         target + "(%acc) {api_version = 4 : i32, backend_config = {" + attrs +
         "}} : (tensor<f32>) -> tensor<f32>\n"
         "    %next = bufferization.materialize_in_destination %res in %acc : "
         "(tensor<f32>, tensor<f32>) -> tensor<f32>\n"
         "    scf.yield %next : tensor<f32>\n"
         "  }\n"
         "  return %r : tensor<f32>\n"
         "}\n";
}

using LoopFn = void (*)(StridedMemRefType<float, 0> *,
                        StridedMemRefType<float, 0> *,
                        StridedMemRefType<int64_t, 0> *);

[[gnu::noinline]] float callLoop(LoopFn fn, int64_t iters) {
  float init = 0.0f;
  int64_t n = iters;
  StridedMemRefType<float, 0> in{&init, &init, 0};
  StridedMemRefType<int64_t, 0> count{&n, &n, 0};
  StridedMemRefType<float, 0> out{};
  {
    ScopedRun run(benchRuntime());
    fn(&out, &in, &count);
  }
  benchmark::ClobberMemory();
  float result = out.data[out.offset];
  if (out.basePtr != &init)
    std::free(out.basePtr);
  return result;
}

const char *kFourAttrs = "alpha = 2.0 : f32, count = 3 : i64, name = \"rms\", "
                         "dims = array<i64: 1, 2, 3>";

void runLoop(benchmark::State &state, const char *target) {
  bool attrs = state.range(0) != 0;
  JitModule module(loopModule(target, attrs ? kFourAttrs : ""), benchRuntime());
  auto fn = module.lookup<LoopFn>("loop");
  int64_t iters = state.range(1);
  for (auto _ : state) {
    float result = callLoop(fn, iters);
    if (result != static_cast<float>(iters)) {
      state.SkipWithError("wrong loop result");
      return;
    }
  }
  setLoopCounters(state, iters);
}

void BM_FfiLoop_Native(benchmark::State &state) {
  runLoop(state, "bench.native_add_one");
}
void BM_FfiLoop_Ffi(benchmark::State &state) {
  runLoop(state, "bench.ffi_add_one");
}
BENCHMARK(BM_FfiLoop_Native)
    ->ArgNames({"attrs", "iters"})
    ->Args({0, 1000000})
    ->Args({4, 1000000})
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FfiLoop_Ffi)
    ->ArgNames({"attrs", "iters"})
    ->Args({0, 1000000})
    ->Args({4, 1000000})
    ->Unit(benchmark::kMillisecond);

[[gnu::noinline]] float addOneC(float x) {
  benchmark::DoNotOptimize(x);
  return x + 1.0f;
}

void BM_FfiLoop_C(benchmark::State &state) {
  int64_t iters = state.range(0);
  for (auto _ : state) {
    float acc = 0;
    for (int64_t i = 0; i < iters; ++i)
      acc = addOneC(acc);
    if (acc != static_cast<float>(iters)) {
      state.SkipWithError("wrong loop result");
      return;
    }
  }
  setLoopCounters(state, iters);
}
BENCHMARK(BM_FfiLoop_C)->Arg(1000000)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();

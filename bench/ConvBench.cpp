//===- ConvBench.cpp - compiled 2-D convolution against oneDNN and BLAS ---===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// relu(conv_2d_nhwc_hwcf(pad(x, 1), w)), x 1x56x56x64 f32, w 3x3x64x64 (a
// ResNet layer), written as a front end emits it (tensor.pad, linalg on
// tensors), compiled by nx-lower-to-cpu and JIT-compiled as Executable does,
// each timed next to baselines in the same binary and run:
//
//  BM_Conv_Nx/threads:<t>           nx (nx-convolutions-to-gemm + BLAS) with
//                                   nxrt_set_compute_threads(t).
//  BM_Conv_Im2colOpenBLAS/threads:<t>
//                                   C: im2col of the padded input, one
//                                   sgemm, ReLU; openblas_set_num_threads(t).
//  BM_Conv_OneDNN/threads:<t>       oneDNN's convolution with a ReLU post-op
//                                   (NHWC source and destination, weights
//                                   reordered once to the format it picks);
//                                   only when built with libdnnl.
//
// nx's result is compared with the C baseline's once, before timing. nx
// returns a fresh buffer per call, freed inside the timed loop.
//
//   ninja -C <build> nx-bench-conv
//   <build>/bin/nx-bench-conv --benchmark_repetitions=3 \
//       --benchmark_report_aggregates_only=true
//
//===----------------------------------------------------------------------===//

#include "BenchJit.h"

#include "mlir/ExecutionEngine/CRunnerUtils.h"

#include <benchmark/benchmark.h>
#include <cblas.h>

#ifdef NX_BENCH_HAVE_DNNL
#include <oneapi/dnnl/dnnl.hpp>
#endif

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

extern "C" void openblas_set_num_threads(int threads);
extern "C" void omp_set_num_threads(int threads);

using nx_bench::describe;
using nx_bench::JitModule;
using nx_bench::ScopedRun;

namespace {

constexpr int64_t kN = 1, kH = 56, kW = 56, kC = 64, kF = 64, kK = 3;
constexpr int64_t kInput = kN * kH * kW * kC;
constexpr int64_t kFilter = kK * kK * kC * kF;
constexpr int64_t kOutput = kN * kH * kW * kF;

const char *kSource = R"mlir(
func.func @conv(%x: tensor<1x56x56x64xf32>, %w: tensor<3x3x64x64xf32>) -> tensor<1x56x56x64xf32> {
  %zero = arith.constant 0.0 : f32
  %padded = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x56x56x64xf32> to tensor<1x58x58x64xf32>
  %init = tensor.empty() : tensor<1x56x56x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32>
  %conv = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%padded, %w : tensor<1x58x58x64xf32>, tensor<3x3x64x64xf32>) outs(%acc : tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32>
  %relu = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>],
                          iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%conv : tensor<1x56x56x64xf32>) outs(%init : tensor<1x56x56x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.maximumf %in, %zero : f32
    linalg.yield %r : f32
  } -> tensor<1x56x56x64xf32>
  return %relu : tensor<1x56x56x64xf32>
}
)mlir";

/// A 64-byte aligned f32 buffer with deterministic contents in [-1, 1).
struct Buffer {
  explicit Buffer(int64_t elements, unsigned seed = 1)
      : data(static_cast<float *>(std::aligned_alloc(
            64, ((elements * sizeof(float) + 63) / 64) * 64))) {
    std::mt19937 generator(seed);
    std::uniform_real_distribution<float> distribution(-1.0f, 1.0f);
    for (int64_t i = 0; i < elements; ++i)
      data[i] = distribution(generator);
  }
  ~Buffer() { std::free(data); }
  Buffer(const Buffer &) = delete;
  Buffer &operator=(const Buffer &) = delete;
  float *data;
};

/// The C baseline: pads, builds the [H*W, 9*C] patch matrix, one sgemm
/// with the [9*C, F] filter, then ReLU.
void im2colConv(const float *x, const float *w, float *padded, float *patch,
                float *y) {
  const int64_t ph = kH + 2, pw = kW + 2;
  std::memset(padded, 0, sizeof(float) * ph * pw * kC);
  for (int64_t h = 0; h < kH; ++h)
    std::memcpy(padded + ((h + 1) * pw + 1) * kC, x + h * kW * kC,
                sizeof(float) * kW * kC);
  for (int64_t oh = 0; oh < kH; ++oh)
    for (int64_t ow = 0; ow < kW; ++ow)
      for (int64_t kh = 0; kh < kK; ++kh)
        std::memcpy(patch + ((oh * kW + ow) * kK + kh) * kK * kC,
                    padded + ((oh + kh) * pw + ow) * kC,
                    sizeof(float) * kK * kC);
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)(kH * kW),
              (int)kF, (int)(kK * kK * kC), 1.0f, patch, (int)(kK * kK * kC), w,
              (int)kF, 0.0f, y, (int)kF);
  for (int64_t i = 0; i < kOutput; ++i)
    y[i] = std::max(y[i], 0.0f);
}

nxrt_runtime_t *runtime() {
  static nxrt_runtime_t *instance = nxrt_runtime_create();
  return instance;
}

JitModule &compiled() {
  static JitModule module(kSource, runtime());
  return module;
}

using ConvFn = void (*)(StridedMemRefType<float, 4> *,
                        StridedMemRefType<float, 4> *,
                        StridedMemRefType<float, 4> *);

void setFlops(benchmark::State &state) {
  state.counters["FLOPS"] =
      benchmark::Counter(2.0 * kOutput * kK * kK * kC,
                         benchmark::Counter::kIsIterationInvariantRate);
}

void BM_Conv_Nx(benchmark::State &state) {
  int threads = static_cast<int>(state.range(0));
  Buffer x(kInput, 1), w(kFilter, 2), expected(kOutput);
  {
    std::vector<float> padded((kH + 2) * (kW + 2) * kC),
        patch(kH * kW * kK * kK * kC);
    openblas_set_num_threads(1);
    im2colConv(x.data, w.data, padded.data(), patch.data(), expected.data);
  }
  int previous = nxrt_compute_threads();
  nxrt_set_compute_threads(threads);
  auto fn = compiled().lookup<ConvFn>("conv");
  auto dx = describe<4>(x.data, {kN, kH, kW, kC});
  auto dw = describe<4>(w.data, {kK, kK, kC, kF});
  auto call = [&] {
    StridedMemRefType<float, 4> result{};
    ScopedRun run(runtime());
    fn(&result, &dx, &dw);
    return result;
  };
  StridedMemRefType<float, 4> first = call();
  for (int64_t i = 0; i < kOutput; ++i) {
    float a = first.data[i], e = expected.data[i];
    if (!(std::fabs(a - e) <=
          1e-4f * std::max({1.0f, std::fabs(a), std::fabs(e)}))) {
      std::string message = "result #" + std::to_string(i) + " is " +
                            std::to_string(a) + ", expected " +
                            std::to_string(e);
      state.SkipWithError(message.c_str());
      std::free(first.basePtr);
      nxrt_set_compute_threads(previous);
      return;
    }
  }
  std::free(first.basePtr);
  for (auto _ : state)
    std::free(call().basePtr);
  nxrt_set_compute_threads(previous);
  setFlops(state);
}

void BM_Conv_Im2colOpenBLAS(benchmark::State &state) {
  Buffer x(kInput, 1), w(kFilter, 2), y(kOutput);
  std::vector<float> padded((kH + 2) * (kW + 2) * kC),
      patch(kH * kW * kK * kK * kC);
  openblas_set_num_threads(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    im2colConv(x.data, w.data, padded.data(), patch.data(), y.data);
    benchmark::ClobberMemory();
  }
  openblas_set_num_threads(1);
  setFlops(state);
}

#ifdef NX_BENCH_HAVE_DNNL
void BM_Conv_OneDNN(benchmark::State &state) {
  using namespace dnnl;
  using tag = memory::format_tag;
  using dt = memory::data_type;
  omp_set_num_threads(static_cast<int>(state.range(0)));
  Buffer x(kInput, 1), w(kFilter, 2), y(kOutput);
  engine cpu(engine::kind::cpu, 0);
  stream s(cpu);
  memory::dims src{kN, kC, kH, kW}, weights{kF, kC, kK, kK},
      dst{kN, kF, kH, kW}, strides{1, 1}, pad{1, 1};
  memory::desc srcMd(src, dt::f32, tag::nhwc), dstMd(dst, dt::f32, tag::nhwc);
  memory::desc anyWeights(weights, dt::f32, tag::any);
  convolution_forward::desc desc(prop_kind::forward_inference,
                                 algorithm::convolution_direct, srcMd,
                                 anyWeights, dstMd, strides, pad, pad);
  post_ops ops;
  ops.append_eltwise(1.0f, algorithm::eltwise_relu, 0.0f, 0.0f);
  primitive_attr attr;
  attr.set_post_ops(ops);
  convolution_forward::primitive_desc pd(desc, attr, cpu);
  memory userWeights({weights, dt::f32, tag::hwio}, cpu, w.data);
  memory convWeights(pd.weights_desc(), cpu);
  reorder(userWeights, convWeights).execute(s, userWeights, convWeights);
  memory srcMem(srcMd, cpu, x.data), dstMem(dstMd, cpu, y.data);
  convolution_forward conv(pd);
  for (auto _ : state) {
    conv.execute(s, {{DNNL_ARG_SRC, srcMem},
                     {DNNL_ARG_WEIGHTS, convWeights},
                     {DNNL_ARG_DST, dstMem}});
    s.wait();
    benchmark::ClobberMemory();
  }
  state.SetLabel(pd.impl_info_str());
  omp_set_num_threads(1);
  setFlops(state);
}
BENCHMARK(BM_Conv_OneDNN)
    ->ArgName("threads")
    ->Arg(1)
    ->Arg(2)
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);
#endif

BENCHMARK(BM_Conv_Nx)
    ->ArgName("threads")
    ->Arg(1)
    ->Arg(2)
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Conv_Im2colOpenBLAS)
    ->ArgName("threads")
    ->Arg(1)
    ->Arg(2)
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);

} // namespace

BENCHMARK_MAIN();

//===- OpBaselines.cpp - the kernel libraries on bench/models' single ops -===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// For each single-op program of bench/models (BM_Op/<op> in ModelBench.cpp),
// the library that sets the bar for its class, on inputs of the same shapes,
// in the same binary and run:
//
//  BM_Baseline/<op>/threads:<t>
//    conv, conv-strided, conv-dilated, conv-nchw, conv-fhwc,
//    depthwise-conv,
//    depthwise-conv-strided   oneDNN's convolution (the op's source and
//                             destination layout, weights reordered once to the
//                             format it picks; a ReLU post-op where the op
//                             has one; depthwise as 128 groups); only when
//                             built with libdnnl.
//    max-pool, avg-pool       oneDNN's pooling (NHWC); only with libdnnl.
//    batch-matmul, batch-matmul-transposed, batch-matmul-transposed-a
//                             OpenBLAS: one sgemm per batch (Debian's
//                             OpenBLAS has no batched GEMM), with B or A
//                             transposed.
//    transpose                a C transpose in 32x32 blocks (-O3
//                             -march=native); 1 thread.
//    column-sum, row-sum, middle-max
//                             C loops (-O3 -march=native, the sums with
//                             -ffast-math); 1 thread.
//
//  BM_ReadBound/2048x2048/threads:<t>
//    one pass over a 2048x2048 f32 input (the reductions' inputs), in
//    256-bit loads, that only ors its words together: the time any
//    reduction of it spends reading it. At all cores, each thread of the
//    OpenMP pool nx's loops run on reads one contiguous share.
//  BM_ReadBoundStreams/2048x2048/threads:<t>
//    the same pass, each share read as four streams (its four quarters, a
//    cache line of each in turn), as a reduction that reads several rows
//    at once does: on AMD's Zen 3, the faster of the two.
//  BM_CopyBound/2048x2048/threads:<t>
//    a copy of the same input into a second buffer with non-temporal
//    stores of whole lines, each thread its contiguous share: the memory
//    traffic of a transpose whose output is streamed, in the order memory
//    serves fastest, so the bound of BM_Op/transpose.
//
// threads:0 is one thread per core. The C baselines' results are checked
// against plain loops once, before timing; the libraries are trusted.
//
//===----------------------------------------------------------------------===//

#include "AlignedVector.h"
#include "baselines/CKernels.h"

#include <benchmark/benchmark.h>
#include <cblas.h>
#include <omp.h>

#ifdef NX_BENCH_HAVE_DNNL
#include <oneapi/dnnl/dnnl.hpp>
#endif

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <utility>
#include <vector>

extern "C" void openblas_set_num_threads(int threads);

namespace {

/// Inputs and outputs start on a cache line, as nx's and PyTorch's do.
using Buffer = nx_bench::AlignedVector<float>;

Buffer randomValues(int64_t size, unsigned seed) {
  std::mt19937 generator(seed);
  std::uniform_real_distribution<float> distribution(-1.0f, 1.0f);
  Buffer values(size);
  for (float &v : values)
    v = distribution(generator);
  return values;
}

int threadsOf(const benchmark::State &state) {
  int threads = static_cast<int>(state.range(0));
  return threads ? threads
                 : static_cast<int>(std::thread::hardware_concurrency());
}

//===----------------------------------------------------------------------===//
// OpenBLAS
//===----------------------------------------------------------------------===//

/// 16 products of 128x64 by 64x128 (or, transposed, by the transpose of a
/// 128x64 matrix; or, transposedA, of the transpose of a 64x128 matrix), as
/// batch-matmul(-transposed, -transposed-a).mlir.
void batchMatmul(benchmark::State &state, bool transposed,
                 bool transposedA = false) {
  constexpr int kBatch = 16, kM = 128, kK = 64, kN = 128;
  Buffer a = randomValues(kBatch * kM * kK, 1),
         b = randomValues(kBatch * kK * kN, 2), c(kBatch * kM * kN);
  openblas_set_num_threads(threadsOf(state));
  for (auto _ : state) {
    for (int i = 0; i < kBatch; ++i)
      cblas_sgemm(CblasRowMajor, transposedA ? CblasTrans : CblasNoTrans,
                  transposed ? CblasTrans : CblasNoTrans, kM, kN, kK, 1.0f,
                  a.data() + i * kM * kK, transposedA ? kM : kK,
                  b.data() + i * kK * kN, transposed ? kK : kN, 0.0f,
                  c.data() + i * kM * kN, kN);
    benchmark::ClobberMemory();
  }
  openblas_set_num_threads(1);
}

//===----------------------------------------------------------------------===//
// C
//===----------------------------------------------------------------------===//

void transpose(benchmark::State &state) {
  constexpr int64_t kSide = 2048;
  Buffer x = randomValues(kSide * kSide, 1), y(kSide * kSide);
  c_transpose_blocked(x.data(), y.data(), kSide, kSide);
  for (int64_t i = 0; i < kSide; ++i)
    for (int64_t j = 0; j < kSide; ++j)
      if (y[j * kSide + i] != x[i * kSide + j]) {
        state.SkipWithError("the blocked transpose is wrong");
        return;
      }
  for (auto _ : state) {
    c_transpose_blocked(x.data(), y.data(), kSide, kSide);
    benchmark::ClobberMemory();
  }
}

/// Checks `actual` against `expected` to 1e-3 of their magnitude.
bool close(const Buffer &actual, const std::vector<double> &expected) {
  for (size_t i = 0; i < actual.size(); ++i)
    if (std::fabs(actual[i] - expected[i]) >
        1e-3 * std::max(1.0, std::fabs(expected[i])))
      return false;
  return true;
}

void columnSum(benchmark::State &state) {
  constexpr int64_t kSide = 2048;
  Buffer x = randomValues(kSide * kSide, 1), y(kSide);
  std::vector<double> expected(kSide, 0.0);
  for (int64_t i = 0; i < kSide; ++i)
    for (int64_t j = 0; j < kSide; ++j)
      expected[j] += x[i * kSide + j];
  c_column_sums(x.data(), y.data(), kSide, kSide);
  if (!close(y, expected))
    return state.SkipWithError("the column sums are wrong");
  for (auto _ : state) {
    c_column_sums(x.data(), y.data(), kSide, kSide);
    benchmark::ClobberMemory();
  }
}

void rowSum(benchmark::State &state) {
  constexpr int64_t kSide = 2048;
  Buffer x = randomValues(kSide * kSide, 1), y(kSide);
  std::vector<double> expected(kSide, 0.0);
  for (int64_t i = 0; i < kSide; ++i)
    for (int64_t j = 0; j < kSide; ++j)
      expected[i] += x[i * kSide + j];
  c_row_sums(x.data(), y.data(), kSide, kSide);
  if (!close(y, expected))
    return state.SkipWithError("the row sums are wrong");
  for (auto _ : state) {
    c_row_sums(x.data(), y.data(), kSide, kSide);
    benchmark::ClobberMemory();
  }
}

/// A pass that reads a 2048x2048 f32 input with `readAll` (c_read_all or
/// c_read_all_streams) and does nothing else: the bound of a reduction of
/// it.
void readBound(benchmark::State &state,
               uint32_t (*readAll)(const float *, int64_t)) {
  constexpr int64_t kSide = 2048, kTotal = kSide * kSide;
  Buffer x = randomValues(kTotal, 1);
  // Each word counts: one bit set in one word of 133 zero words (two lines
  // of each quarter and a tail) must come back, wherever that word is.
  Buffer probe(133, 0.0f);
  for (size_t i = 0; i < probe.size(); ++i) {
    const uint32_t bit = 1u << (i % 32);
    std::memcpy(&probe[i], &bit, sizeof bit);
    if (readAll(probe.data(), static_cast<int64_t>(probe.size())) != bit)
      return state.SkipWithError("a word was not read");
    probe[i] = 0.0f;
  }
  int threads = static_cast<int>(state.range(0));
  if (threads == 0)
    threads = static_cast<int>(std::thread::hardware_concurrency());
  // Each thread of the same OpenMP pool as nx's loops reads one contiguous
  // share, whole cache lines (16 floats) each.
  for (auto _ : state) {
    uint32_t all = 0;
#pragma omp parallel num_threads(threads) reduction(| : all)
    {
      int64_t lines = kTotal / 16, team = omp_get_num_threads();
      int64_t share = (lines + team - 1) / team * 16;
      int64_t begin = std::min(kTotal, omp_get_thread_num() * share);
      all |= readAll(x.data() + begin, std::min(kTotal - begin, share));
    }
    benchmark::DoNotOptimize(all);
  }
}

/// A copy of a 2048x2048 f32 input with c_copy_streamed, each thread of
/// the OpenMP pool its contiguous share of whole lines: the bound of a
/// transpose that streams its output.
void copyBound(benchmark::State &state) {
  constexpr int64_t kSide = 2048, kTotal = kSide * kSide;
  Buffer x = randomValues(kTotal, 1), y(kTotal);
  c_copy_streamed(x.data(), y.data(), kTotal);
  if (!std::equal(x.begin(), x.end(), y.begin()))
    return state.SkipWithError("the copy differs from its input");
  int threads = static_cast<int>(state.range(0));
  if (threads == 0)
    threads = static_cast<int>(std::thread::hardware_concurrency());
  for (auto _ : state) {
#pragma omp parallel num_threads(threads)
    {
      int64_t lines = kTotal / 16, team = omp_get_num_threads();
      int64_t share = (lines + team - 1) / team * 16;
      int64_t begin = std::min(kTotal, omp_get_thread_num() * share);
      c_copy_streamed(x.data() + begin, y.data() + begin,
                      std::min(kTotal - begin, share));
    }
    benchmark::ClobberMemory();
  }
}

void middleMax(benchmark::State &state) {
  constexpr int64_t kA = 64, kB = 256, kC = 256;
  Buffer x = randomValues(kA * kB * kC, 1), y(kA * kC);
  std::vector<double> expected(kA * kC, -INFINITY);
  for (int64_t i = 0; i < kA; ++i)
    for (int64_t j = 0; j < kB; ++j)
      for (int64_t k = 0; k < kC; ++k)
        expected[i * kC + k] =
            std::max<double>(expected[i * kC + k], x[(i * kB + j) * kC + k]);
  c_middle_max(x.data(), y.data(), kA, kB, kC);
  if (!close(y, expected))
    return state.SkipWithError("the middle maxima are wrong");
  for (auto _ : state) {
    c_middle_max(x.data(), y.data(), kA, kB, kC);
    benchmark::ClobberMemory();
  }
}

//===----------------------------------------------------------------------===//
// oneDNN
//===----------------------------------------------------------------------===//

#ifdef NX_BENCH_HAVE_DNNL
using dt = dnnl::memory::data_type;
using tag = dnnl::memory::format_tag;

/// An NHWC convolution of `size`x`size`x`channels` by `kernel`x`kernel`
/// filters into `filters` channels (or, with `depthwise`, one filter per
/// channel), padded by `pad`.
struct ConvShape {
  int64_t size, channels, filters, kernel, stride, dilation, pad;
  bool depthwise, relu;
  int64_t batch = 1;
  bool nchw = false;
};

void convolution(benchmark::State &state, ConvShape shape) {
  using namespace dnnl;
  omp_set_num_threads(threadsOf(state));
  int64_t span = shape.dilation * (shape.kernel - 1) + 1;
  int64_t out = (shape.size + 2 * shape.pad - span) / shape.stride + 1;
  int64_t filters = shape.depthwise ? shape.channels : shape.filters;
  engine cpu(engine::kind::cpu, 0);
  stream s(cpu);
  memory::dims src{shape.batch, shape.channels, shape.size, shape.size},
      dst{shape.batch, filters, out, out}, strides{shape.stride, shape.stride},
      dilates{shape.dilation - 1, shape.dilation - 1},
      pad{shape.pad, shape.pad};
  memory::dims weights =
      shape.depthwise
          ? memory::dims{shape.channels, 1, 1, shape.kernel, shape.kernel}
          : memory::dims{filters, shape.channels, shape.kernel, shape.kernel};
  tag userWeightsTag = shape.depthwise ? tag::goihw : tag::oihw;
  tag layout = shape.nchw ? tag::nchw : tag::nhwc;
  memory::desc srcMd(src, dt::f32, layout), dstMd(dst, dt::f32, layout);
  memory::desc anyWeights(weights, dt::f32, tag::any);
  convolution_forward::desc desc(prop_kind::forward_inference,
                                 algorithm::convolution_direct, srcMd,
                                 anyWeights, dstMd, strides, dilates, pad, pad);
  primitive_attr attr;
  if (shape.relu) {
    post_ops ops;
    ops.append_eltwise(1.0f, algorithm::eltwise_relu, 0.0f, 0.0f);
    attr.set_post_ops(ops);
  }
  convolution_forward::primitive_desc pd(desc, attr, cpu);
  int64_t weightCount = 1;
  for (int64_t d : weights)
    weightCount *= d;
  Buffer x = randomValues(
             shape.batch * shape.channels * shape.size * shape.size, 1),
         w = randomValues(weightCount, 2), y(shape.batch * filters * out * out);
  memory userWeights({weights, dt::f32, userWeightsTag}, cpu, w.data());
  memory convWeights(pd.weights_desc(), cpu);
  reorder(userWeights, convWeights).execute(s, userWeights, convWeights);
  memory srcMem(srcMd, cpu, x.data()), dstMem(dstMd, cpu, y.data());
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
}

/// NHWC pooling of a 1x112x112x64 image, as max-pool.mlir and avg-pool.mlir.
void pooling(benchmark::State &state, dnnl::algorithm kind, int64_t kernel) {
  using namespace dnnl;
  omp_set_num_threads(threadsOf(state));
  constexpr int64_t kSize = 112, kChannels = 64, kStride = 2;
  int64_t out = (kSize - kernel) / kStride + 1;
  engine cpu(engine::kind::cpu, 0);
  stream s(cpu);
  memory::desc srcMd({1, kChannels, kSize, kSize}, dt::f32, tag::nhwc),
      dstMd({1, kChannels, out, out}, dt::f32, tag::nhwc);
  pooling_forward::desc desc(prop_kind::forward_inference, kind, srcMd, dstMd,
                             {kStride, kStride}, {kernel, kernel}, {0, 0},
                             {0, 0});
  pooling_forward::primitive_desc pd(desc, cpu);
  Buffer x = randomValues(kChannels * kSize * kSize, 1),
         y(kChannels * out * out);
  memory srcMem(srcMd, cpu, x.data()), dstMem(dstMd, cpu, y.data());
  pooling_forward pool(pd);
  for (auto _ : state) {
    pool.execute(s, {{DNNL_ARG_SRC, srcMem}, {DNNL_ARG_DST, dstMem}});
    s.wait();
    benchmark::ClobberMemory();
  }
  state.SetLabel(pd.impl_info_str());
  omp_set_num_threads(1);
}
#endif

/// Registers a baseline at 1 thread and, for the libraries, at all cores.
template <typename Fn> void add(const std::string &op, Fn fn, bool threaded) {
  auto *b = benchmark::RegisterBenchmark(("BM_Baseline/" + op).c_str(), fn)
                ->ArgName("threads")
                ->Arg(1)
                ->UseRealTime()
                ->Unit(benchmark::kMicrosecond);
  if (threaded)
    b->Arg(0);
}

int registerBaselines() {
  add(
      "batch-matmul",
      [](benchmark::State &s) { batchMatmul(s, /*transposed=*/false); }, true);
  add(
      "batch-matmul-transposed",
      [](benchmark::State &s) { batchMatmul(s, /*transposed=*/true); }, true);
  add(
      "batch-matmul-transposed-a",
      [](benchmark::State &s) {
        batchMatmul(s, /*transposed=*/false, /*transposedA=*/true);
      },
      true);
  add("transpose", transpose, false);
  add("column-sum", columnSum, false);
  add("row-sum", rowSum, false);
  add("middle-max", middleMax, false);
  for (auto [name, readAll] :
       {std::pair{"BM_ReadBound/2048x2048", &c_read_all},
        std::pair{"BM_ReadBoundStreams/2048x2048", &c_read_all_streams}})
    benchmark::RegisterBenchmark(
        name,
        [readAll = readAll](benchmark::State &s) { readBound(s, readAll); })
        ->ArgName("threads")
        ->Arg(1)
        ->Arg(0)
        ->UseRealTime()
        ->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("BM_CopyBound/2048x2048", copyBound)
      ->ArgName("threads")
      ->Arg(1)
      ->Arg(0)
      ->UseRealTime()
      ->Unit(benchmark::kMicrosecond);
#ifdef NX_BENCH_HAVE_DNNL
  auto conv = [](ConvShape shape) {
    return [shape](benchmark::State &s) { convolution(s, shape); };
  };
  add("conv", conv({56, 64, 64, 3, 1, 1, 1, false, true}), true);
  add("conv-strided", conv({56, 64, 128, 3, 2, 1, 1, false, false}), true);
  add("conv-dilated", conv({28, 32, 32, 3, 1, 2, 2, false, false}), true);
  add("conv-nchw",
      conv({56, 64, 64, 3, 1, 1, 1, false, false, /*batch=*/1, /*nchw=*/true}),
      true);
  add("conv-fhwc", conv({28, 32, 64, 3, 2, 1, 1, false, false, /*batch=*/2}),
      true);
  add("depthwise-conv", conv({56, 128, 128, 3, 1, 1, 1, true, true}), true);
  add("depthwise-conv-strided", conv({56, 128, 128, 3, 2, 1, 1, true, false}),
      true);
  add(
      "max-pool",
      [](benchmark::State &s) { pooling(s, dnnl::algorithm::pooling_max, 2); },
      true);
  add(
      "avg-pool",
      [](benchmark::State &s) {
        pooling(s, dnnl::algorithm::pooling_avg_exclude_padding, 3);
      },
      true);
#endif
  return 0;
}

[[maybe_unused]] int registered = registerBaselines();

} // namespace

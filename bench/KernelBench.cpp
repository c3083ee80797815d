//===- KernelBench.cpp - compiled compute against C, libm and OpenBLAS ----===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Kernels written as a front end emits them (linalg and elementwise ops on
// tensors), compiled by nx-lower-to-cpu and JIT-compiled as Executable does,
// each timed next to a baseline in the same binary and run:
//
//  BM_Memcpy/<bytes>               memcpy of 16 MiB: the memory bandwidth
//                                  bounding the streaming kernels.
//  BM_Elementwise_Nx/<threads>     exp(x) * 2 + log1p(x) on 4M f32, on 1
//  BM_Elementwise_C                thread and on all (0); C calls libm's
//                                  expf / log1pf (-O3 -march=native).
//  BM_Sum_{Nx,C}                   the sum of 16M f32; C with -ffast-math.
//  BM_Matmul_{Nx1,OpenBLAS1,Nx,OpenBLAS}/<n>
//                                  n x n x n f32 matmul (512, 1024, 2048) on
//                                  1 thread and on all; OpenBLAS is sgemm.
//  BM_Softmax_Nx/<threads>         softmax over the rows of 1024 x 1024 f32,
//  BM_Softmax_C                    nx on 1 thread and on all (0).
//  BM_Dense_{Nx,C}                 relu(x w + b), x 256x1024, w 1024x1024;
//                                  C is one sgemm and a bias + relu loop.
//
// Every nx kernel's result is compared with its baseline's once, before
// timing. nx's kernels return fresh buffers, freed inside the timed loop
// (the allocation is part of what compiled code costs); the baselines
// write into preallocated ones.
//
//   ninja -C <build> nx-bench-kernels
//   <build>/bin/nx-bench-kernels --benchmark_repetitions=3 \
//       --benchmark_report_aggregates_only=true
//
//===----------------------------------------------------------------------===//

#include "BenchJit.h"
#include "baselines/CKernels.h"

#include "mlir/ExecutionEngine/CRunnerUtils.h"

#include <benchmark/benchmark.h>
#include <cblas.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

extern "C" void openblas_set_num_threads(int threads);

using nx_bench::describe;
using nx_bench::die;
using nx_bench::JitModule;
using nx_bench::ScopedComputeThreads;
using nx_bench::ScopedRun;

namespace {

//===----------------------------------------------------------------------===//
// Buffers and descriptors
//===----------------------------------------------------------------------===//

/// A 64-byte aligned f32 buffer with deterministic contents in [lo, hi).
class Buffer {
public:
  explicit Buffer(int64_t elements, float lo = 0.0f, float hi = 1.0f)
      : size(elements), data(static_cast<float *>(std::aligned_alloc(
                            64, ((elements * sizeof(float) + 63) / 64) * 64))) {
    std::mt19937 generator(static_cast<unsigned>(elements));
    std::uniform_real_distribution<float> distribution(lo, hi);
    for (int64_t i = 0; i < elements; ++i)
      data[i] = distribution(generator);
  }
  ~Buffer() { std::free(data); }
  Buffer(const Buffer &) = delete;
  Buffer &operator=(const Buffer &) = delete;

  int64_t size;
  float *data;
};

/// Fails the benchmark when `actual` and `expected` differ by more than
/// `tolerance`, relative to the larger magnitude (at least 1).
bool matches(benchmark::State &state, const float *actual,
             const float *expected, int64_t n, float tolerance) {
  for (int64_t i = 0; i < n; ++i) {
    float scale =
        std::max({1.0f, std::fabs(actual[i]), std::fabs(expected[i])});
    if (!(std::fabs(actual[i] - expected[i]) <= tolerance * scale)) {
      std::string message = "result #" + std::to_string(i) + " is " +
                            std::to_string(actual[i]) + ", expected " +
                            std::to_string(expected[i]);
      state.SkipWithError(message.c_str());
      return false;
    }
  }
  return true;
}

nxrt_runtime_t *runtime() {
  static nxrt_runtime_t *instance = nxrt_runtime_create();
  return instance;
}

/// One compiled module per source, kept for the whole process: Google
/// Benchmark calls a benchmark function several times.
JitModule &compiled(const std::string &source) {
  static std::map<std::string, std::unique_ptr<JitModule>> modules;
  std::unique_ptr<JitModule> &module = modules[source];
  if (!module)
    module = std::make_unique<JitModule>(source, runtime());
  return *module;
}

/// Calls `fn` inside an nxrt run, as Executable does; returns the result
/// descriptor, whose buffer the caller frees.
template <int Rank, typename Fn, typename... Args>
StridedMemRefType<float, Rank> callNx(Fn fn, Args *...args) {
  StridedMemRefType<float, Rank> result{};
  ScopedRun run(runtime());
  fn(&result, args...);
  return result;
}

/// Checks the first result of `call` (an nx kernel, through callNx) against
/// `expected`, then times `call`; every result is freed. Returns whether
/// the result matched.
template <int Rank, typename Call>
bool checkAndTime(benchmark::State &state, Call call, const float *expected,
                  int64_t size, float tolerance) {
  StridedMemRefType<float, Rank> first = call();
  bool ok = matches(state, first.data, expected, size, tolerance);
  std::free(first.basePtr);
  if (!ok)
    return false;
  for (auto _ : state)
    std::free(call().basePtr);
  return true;
}

void setBytes(benchmark::State &state, int64_t bytes) {
  state.SetBytesProcessed(state.iterations() * bytes);
}

/// The thread counts the parallel kernels run with: 1 and one per core.
/// Real time, not the main thread's CPU time, is what a multi-threaded
/// kernel costs: rates are computed from it.
void oneAndAllThreads(benchmark::internal::Benchmark *benchmark) {
  benchmark->ArgName("threads")->Arg(1)->Arg(0)->UseRealTime()->Unit(
      benchmark::kMillisecond);
}

//===----------------------------------------------------------------------===//
// Memory bandwidth
//===----------------------------------------------------------------------===//

void BM_Memcpy(benchmark::State &state) {
  int64_t elements = state.range(0) / static_cast<int64_t>(sizeof(float));
  Buffer from(elements), to(elements);
  for (auto _ : state) {
    std::memcpy(to.data, from.data, elements * sizeof(float));
    benchmark::ClobberMemory();
  }
  setBytes(state, 2 * state.range(0));
}
BENCHMARK(BM_Memcpy)->Arg(16 << 20)->Unit(benchmark::kMillisecond);

//===----------------------------------------------------------------------===//
// Elementwise: exp(x) * 2 + log1p(x)
//===----------------------------------------------------------------------===//

constexpr int64_t kElementwiseSize = 4 << 20;

std::string elementwiseSource() {
  std::string t = "tensor<" + std::to_string(kElementwiseSize) + "xf32>";
  return "func.func @elementwise(%x: " + t + ") -> " + t +
         " {\n"
         "  %two = arith.constant dense<2.0> : " +
         t +
         "\n"
         "  %e = math.exp %x : " +
         t +
         "\n"
         "  %d = arith.mulf %e, %two : " +
         t +
         "\n"
         "  %l = math.log1p %x : " +
         t +
         "\n"
         "  %r = arith.addf %d, %l : " +
         t +
         "\n"
         "  return %r : " +
         t +
         "\n"
         "}\n";
}

using Unary1D = void (*)(StridedMemRefType<float, 1> *,
                         StridedMemRefType<float, 1> *);

void BM_Elementwise_Nx(benchmark::State &state) {
  ScopedComputeThreads threads(static_cast<int>(state.range(0)));
  Buffer x(kElementwiseSize, 0.0f, 4.0f), expected(kElementwiseSize);
  c_elementwise(x.data, expected.data, kElementwiseSize);
  auto fn = compiled(elementwiseSource()).lookup<Unary1D>("elementwise");
  auto in = describe<1>(x.data, {kElementwiseSize});
  auto call = [&] { return callNx<1>(fn, &in); };
  if (!checkAndTime<1>(state, call, expected.data, kElementwiseSize, 1e-5f))
    return;
  setBytes(state, 2 * kElementwiseSize * sizeof(float));
}

void BM_Elementwise_C(benchmark::State &state) {
  Buffer x(kElementwiseSize, 0.0f, 4.0f), y(kElementwiseSize);
  for (auto _ : state) {
    c_elementwise(x.data, y.data, kElementwiseSize);
    benchmark::ClobberMemory();
  }
  setBytes(state, 2 * kElementwiseSize * sizeof(float));
}
BENCHMARK(BM_Elementwise_Nx)->Apply(oneAndAllThreads);
BENCHMARK(BM_Elementwise_C)->Unit(benchmark::kMillisecond);

//===----------------------------------------------------------------------===//
// Sum
//===----------------------------------------------------------------------===//

constexpr int64_t kSumSize = 16 << 20;

std::string sumSource() {
  std::string t = "tensor<" + std::to_string(kSumSize) + "xf32>";
  return "func.func @sum(%x: " + t +
         ") -> f32 {\n"
         "  %zero = arith.constant 0.0 : f32\n"
         "  %init = tensor.empty() : tensor<f32>\n"
         "  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<f32>)"
         " -> tensor<f32>\n"
         "  %s = linalg.reduce ins(%x : " +
         t +
         ") outs(%acc : tensor<f32>)"
         " dimensions = [0]\n"
         "    (%in: f32, %a: f32) {\n"
         "      %t = arith.addf %in, %a : f32\n"
         "      linalg.yield %t : f32\n"
         "    }\n"
         "  %r = tensor.extract %s[] : tensor<f32>\n"
         "  return %r : f32\n"
         "}\n";
}

using Sum1D = float (*)(StridedMemRefType<float, 1> *);

void BM_Sum_Nx(benchmark::State &state) {
  Buffer x(kSumSize);
  double exact = 0;
  for (int64_t i = 0; i < kSumSize; ++i)
    exact += x.data[i];
  auto fn = compiled(sumSource()).lookup<Sum1D>("sum");
  auto in = describe<1>(x.data, {kSumSize});
  float first;
  {
    ScopedRun run(runtime());
    first = fn(&in);
  }
  // Any summation order of 16M values in [0, 1) in f32 lands within 1e-3
  // relative of the exact sum; a wrong kernel does not.
  if (std::fabs(first - exact) > 1e-3 * exact) {
    state.SkipWithError(("sum is " + std::to_string(first) + ", expected " +
                         std::to_string(exact))
                            .c_str());
    return;
  }
  for (auto _ : state) {
    ScopedRun run(runtime());
    benchmark::DoNotOptimize(fn(&in));
  }
  setBytes(state, kSumSize * sizeof(float));
}

void BM_Sum_C(benchmark::State &state) {
  Buffer x(kSumSize);
  for (auto _ : state)
    benchmark::DoNotOptimize(c_sum_fast_math(x.data, kSumSize));
  setBytes(state, kSumSize * sizeof(float));
}
BENCHMARK(BM_Sum_Nx)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Sum_C)->Unit(benchmark::kMillisecond);

//===----------------------------------------------------------------------===//
// Matmul
//===----------------------------------------------------------------------===//

std::string matmulSource(int64_t n) {
  std::string t =
      "tensor<" + std::to_string(n) + "x" + std::to_string(n) + "xf32>";
  return "func.func @matmul(%a: " + t + ", %b: " + t + ") -> " + t +
         " {\n"
         "  %zero = arith.constant 0.0 : f32\n"
         "  %init = tensor.empty() : " +
         t +
         "\n"
         "  %c = linalg.fill ins(%zero : f32) outs(%init : " +
         t + ") -> " + t +
         "\n"
         "  %r = linalg.matmul ins(%a, %b : " +
         t + ", " + t + ") outs(%c : " + t + ") -> " + t +
         "\n"
         "  return %r : " +
         t +
         "\n"
         "}\n";
}

using Binary2D = void (*)(StridedMemRefType<float, 2> *,
                          StridedMemRefType<float, 2> *,
                          StridedMemRefType<float, 2> *);

void setFlops(benchmark::State &state, double flops) {
  state.counters["FLOPS"] =
      benchmark::Counter(flops, benchmark::Counter::kIsIterationInvariantRate);
}

void sgemm(const Buffer &a, const Buffer &b, Buffer &c, int64_t n) {
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)n, (int)n, (int)n,
              1.0f, a.data, (int)n, b.data, (int)n, 0.0f, c.data, (int)n);
}

/// nx's matmul with its contractions on `threads` threads
/// (nxrt_set_compute_threads; 0: one per core).
void runNxMatmul(benchmark::State &state, int threads) {
  int64_t n = state.range(0);
  Buffer a(n * n, -1.0f, 1.0f), b(n * n, -1.0f, 1.0f), expected(n * n);
  {
    ScopedComputeThreads one(1);
    sgemm(a, b, expected, n);
  }
  ScopedComputeThreads scoped(threads);
  auto fn = compiled(matmulSource(n)).lookup<Binary2D>("matmul");
  auto da = describe<2>(a.data, {n, n});
  auto db = describe<2>(b.data, {n, n});
  auto call = [&] { return callNx<2>(fn, &da, &db); };
  checkAndTime<2>(state, call, expected.data, n * n, 1e-4f);
  setFlops(state, 2.0 * n * n * n);
}

void BM_Matmul_Nx1(benchmark::State &state) { runNxMatmul(state, 1); }
void BM_Matmul_Nx(benchmark::State &state) { runNxMatmul(state, 0); }

void runOpenBlasMatmul(benchmark::State &state, int threads) {
  int64_t n = state.range(0);
  Buffer a(n * n, -1.0f, 1.0f), b(n * n, -1.0f, 1.0f), c(n * n);
  openblas_set_num_threads(threads);
  for (auto _ : state) {
    sgemm(a, b, c, n);
    benchmark::ClobberMemory();
  }
  openblas_set_num_threads(1);
  setFlops(state, 2.0 * n * n * n);
}

void BM_Matmul_OpenBLAS1(benchmark::State &state) {
  runOpenBlasMatmul(state, 1);
}
void BM_Matmul_OpenBLAS(benchmark::State &state) {
  runOpenBlasMatmul(state,
                    static_cast<int>(std::thread::hardware_concurrency()));
}
BENCHMARK(BM_Matmul_Nx1)
    ->Arg(512)
    ->Arg(1024)
    ->Arg(2048)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Matmul_Nx)
    ->Arg(512)
    ->Arg(1024)
    ->Arg(2048)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Matmul_OpenBLAS1)
    ->Arg(512)
    ->Arg(1024)
    ->Arg(2048)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Matmul_OpenBLAS)
    ->Arg(512)
    ->Arg(1024)
    ->Arg(2048)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

//===----------------------------------------------------------------------===//
// Softmax over rows
//===----------------------------------------------------------------------===//

constexpr int64_t kSoftmaxRows = 1024, kSoftmaxCols = 1024;

std::string softmaxSource() {
  std::string rows = std::to_string(kSoftmaxRows);
  std::string t =
      "tensor<" + rows + "x" + std::to_string(kSoftmaxCols) + "xf32>";
  std::string r = "tensor<" + rows + "xf32>";
  return "#row = affine_map<(i, j) -> (i)>\n"
         "#id = affine_map<(i, j) -> (i, j)>\n"
         "func.func @softmax(%x: " +
         t + ") -> " + t +
         " {\n"
         "  %ninf = arith.constant 0xFF800000 : f32\n"
         "  %zero = arith.constant 0.0 : f32\n"
         "  %e0 = tensor.empty() : " +
         r +
         "\n"
         "  %m0 = linalg.fill ins(%ninf : f32) outs(%e0 : " +
         r + ") -> " + r +
         "\n"
         "  %max = linalg.reduce ins(%x : " +
         t + ") outs(%m0 : " + r +
         ") dimensions = [1]\n"
         "    (%in: f32, %a: f32) {\n"
         "      %t = arith.maximumf %in, %a : f32\n"
         "      linalg.yield %t : f32\n"
         "    }\n"
         "  %et = tensor.empty() : " +
         t +
         "\n"
         "  %exp = linalg.generic {indexing_maps = [#id, #row, #id],"
         " iterator_types = [\"parallel\", \"parallel\"]}"
         " ins(%x, %max : " +
         t + ", " + r + ") outs(%et : " + t +
         ") {\n"
         "    ^bb0(%v: f32, %m: f32, %o: f32):\n"
         "      %d = arith.subf %v, %m : f32\n"
         "      %e = math.exp %d : f32\n"
         "      linalg.yield %e : f32\n"
         "    } -> " +
         t +
         "\n"
         "  %s0 = linalg.fill ins(%zero : f32) outs(%e0 : " +
         r + ") -> " + r +
         "\n"
         "  %sum = linalg.reduce ins(%exp : " +
         t + ") outs(%s0 : " + r +
         ") dimensions = [1]\n"
         "    (%in: f32, %a: f32) {\n"
         "      %t = arith.addf %in, %a : f32\n"
         "      linalg.yield %t : f32\n"
         "    }\n"
         "  %y = linalg.generic {indexing_maps = [#id, #row, #id],"
         " iterator_types = [\"parallel\", \"parallel\"]}"
         " ins(%exp, %sum : " +
         t + ", " + r + ") outs(%et : " + t +
         ") {\n"
         "    ^bb0(%v: f32, %s: f32, %o: f32):\n"
         "      %q = arith.divf %v, %s : f32\n"
         "      linalg.yield %q : f32\n"
         "    } -> " +
         t +
         "\n"
         "  return %y : " +
         t +
         "\n"
         "}\n";
}

using Unary2D = void (*)(StridedMemRefType<float, 2> *,
                         StridedMemRefType<float, 2> *);

void BM_Softmax_Nx(benchmark::State &state) {
  ScopedComputeThreads threads(static_cast<int>(state.range(0)));
  constexpr int64_t size = kSoftmaxRows * kSoftmaxCols;
  Buffer x(size, -4.0f, 4.0f), expected(size);
  c_softmax_rows(x.data, expected.data, kSoftmaxRows, kSoftmaxCols);
  auto fn = compiled(softmaxSource()).lookup<Unary2D>("softmax");
  auto in = describe<2>(x.data, {kSoftmaxRows, kSoftmaxCols});
  auto call = [&] { return callNx<2>(fn, &in); };
  if (!checkAndTime<2>(state, call, expected.data, size, 1e-5f))
    return;
  setBytes(state, 2 * size * sizeof(float));
}

void BM_Softmax_C(benchmark::State &state) {
  constexpr int64_t size = kSoftmaxRows * kSoftmaxCols;
  Buffer x(size, -4.0f, 4.0f), y(size);
  for (auto _ : state) {
    c_softmax_rows(x.data, y.data, kSoftmaxRows, kSoftmaxCols);
    benchmark::ClobberMemory();
  }
  setBytes(state, 2 * size * sizeof(float));
}
BENCHMARK(BM_Softmax_Nx)->Apply(oneAndAllThreads);
BENCHMARK(BM_Softmax_C)->Unit(benchmark::kMillisecond);

//===----------------------------------------------------------------------===//
// Dense layer: relu(x w + b)
//===----------------------------------------------------------------------===//

constexpr int64_t kDenseRows = 256, kDenseIn = 1024, kDenseOut = 1024;

std::string denseSource() {
  auto tensor = [](int64_t r, int64_t c) {
    return "tensor<" + std::to_string(r) + "x" + std::to_string(c) + "xf32>";
  };
  std::string x = tensor(kDenseRows, kDenseIn);
  std::string w = tensor(kDenseIn, kDenseOut);
  std::string y = tensor(kDenseRows, kDenseOut);
  std::string b = "tensor<" + std::to_string(kDenseOut) + "xf32>";
  return "#col = affine_map<(i, j) -> (j)>\n"
         "#id = affine_map<(i, j) -> (i, j)>\n"
         "func.func @dense(%x: " +
         x + ", %w: " + w + ", %b: " + b + ") -> " + y +
         " {\n"
         "  %zero = arith.constant 0.0 : f32\n"
         "  %init = tensor.empty() : " +
         y +
         "\n"
         "  %c = linalg.fill ins(%zero : f32) outs(%init : " +
         y + ") -> " + y +
         "\n"
         "  %mm = linalg.matmul ins(%x, %w : " +
         x + ", " + w + ") outs(%c : " + y + ") -> " + y +
         "\n"
         "  %r = linalg.generic {indexing_maps = [#id, #col, #id],"
         " iterator_types = [\"parallel\", \"parallel\"]}"
         " ins(%mm, %b : " +
         y + ", " + b + ") outs(%init : " + y +
         ") {\n"
         "    ^bb0(%v: f32, %bias: f32, %o: f32):\n"
         "      %s = arith.addf %v, %bias : f32\n"
         "      %z = arith.maximumf %s, %zero : f32\n"
         "      linalg.yield %z : f32\n"
         "    } -> " +
         y +
         "\n"
         "  return %r : " +
         y +
         "\n"
         "}\n";
}

using Dense = void (*)(StridedMemRefType<float, 2> *,
                       StridedMemRefType<float, 2> *,
                       StridedMemRefType<float, 2> *,
                       StridedMemRefType<float, 1> *);

void BM_Dense_Nx(benchmark::State &state) {
  Buffer x(kDenseRows * kDenseIn, -1.0f, 1.0f),
      w(kDenseIn * kDenseOut, -1.0f, 1.0f), b(kDenseOut, -1.0f, 1.0f),
      expected(kDenseRows * kDenseOut);
  ScopedComputeThreads one(1);
  c_dense_relu(x.data, w.data, b.data, expected.data, kDenseRows, kDenseIn,
               kDenseOut);
  auto fn = compiled(denseSource()).lookup<Dense>("dense");
  auto dx = describe<2>(x.data, {kDenseRows, kDenseIn});
  auto dw = describe<2>(w.data, {kDenseIn, kDenseOut});
  auto db = describe<1>(b.data, {kDenseOut});
  auto call = [&] { return callNx<2>(fn, &dx, &dw, &db); };
  if (!checkAndTime<2>(state, call, expected.data, kDenseRows * kDenseOut,
                       1e-4f))
    return;
  setFlops(state, 2.0 * kDenseRows * kDenseIn * kDenseOut);
}

void BM_Dense_C(benchmark::State &state) {
  Buffer x(kDenseRows * kDenseIn, -1.0f, 1.0f),
      w(kDenseIn * kDenseOut, -1.0f, 1.0f), b(kDenseOut, -1.0f, 1.0f),
      y(kDenseRows * kDenseOut);
  openblas_set_num_threads(1);
  for (auto _ : state) {
    c_dense_relu(x.data, w.data, b.data, y.data, kDenseRows, kDenseIn,
                 kDenseOut);
    benchmark::ClobberMemory();
  }
  setFlops(state, 2.0 * kDenseRows * kDenseIn * kDenseOut);
}
BENCHMARK(BM_Dense_Nx)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Dense_C)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();

//===- GemmTest.cpp - nxrt_gemm_f32 / _f64 against a reference loop ------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "nxrt/nxrt.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <ostream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace {

/// A strided view of `data`: element (r, c) of batch i at
/// i * batch + r * rows + c * cols.
struct View {
  int64_t batch, rows, cols;
};

template <typename T>
std::vector<T> reference(int64_t batch, int64_t m, int64_t n, int64_t k,
                         const std::vector<T> &a, View va,
                         const std::vector<T> &b, View vb, std::vector<T> c,
                         View vc) {
  for (int64_t i = 0; i < batch; ++i)
    for (int64_t r = 0; r < m; ++r)
      for (int64_t col = 0; col < n; ++col) {
        T &out = c[i * vc.batch + r * vc.rows + col * vc.cols];
        for (int64_t p = 0; p < k; ++p)
          out += a[i * va.batch + r * va.rows + p * va.cols] *
                 b[i * vb.batch + p * vb.rows + col * vb.cols];
      }
  return c;
}

template <typename T> std::vector<T> iota(int64_t size, T scale) {
  std::vector<T> values(size);
  for (int64_t i = 0; i < size; ++i)
    values[i] = static_cast<T>((i * 7) % 11 - 5) * scale;
  return values;
}

void gemm(int64_t batch, int64_t m, int64_t n, int64_t k,
          const std::vector<float> &a, View va, const std::vector<float> &b,
          View vb, std::vector<float> &c, View vc) {
  nxrt_gemm_f32(batch, m, n, k, a.data(), va.batch, va.rows, va.cols, b.data(),
                vb.batch, vb.rows, vb.cols, c.data(), vc.batch, vc.rows,
                vc.cols, /*accumulate=*/1);
}

void expectNear(const std::vector<float> &actual,
                const std::vector<float> &expected) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i)
    EXPECT_NEAR(actual[i], expected[i], 1e-4f) << "element " << i;
}

TEST(NxrtGemm, RowMajorAccumulatesIntoC) {
  int64_t m = 5, n = 4, k = 3;
  auto a = iota<float>(m * k, 0.5f), b = iota<float>(k * n, 0.25f);
  auto c = iota<float>(m * n, 1.0f);
  View va{0, k, 1}, vb{0, n, 1}, vc{0, n, 1};
  auto expected = reference(1, m, n, k, a, va, b, vb, c, vc);
  gemm(1, m, n, k, a, va, b, vb, c, vc);
  expectNear(c, expected);
}

// nxrt_gemm_prepare only compiles kernels: from several threads at once
// and again later, after which products still accumulate into C, in every
// transposition it prepared.
TEST(NxrtGemm, PrepareIsIdempotentAndThreadSafe) {
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([] { nxrt_gemm_prepare(); });
  for (std::thread &thread : threads)
    thread.join();
  nxrt_gemm_prepare();
  int64_t m = 6, n = 5, k = 4;
  auto a = iota<float>(m * k, 0.5f), b = iota<float>(k * n, 0.25f);
  View plainA{0, k, 1}, transposedA{0, 1, m};
  View plainB{0, n, 1}, transposedB{0, 1, k}, vc{0, n, 1};
  for (View va : {plainA, transposedA})
    for (View vb : {plainB, transposedB}) {
      auto c = iota<float>(m * n, 1.0f);
      auto expected = reference(1, m, n, k, a, va, b, vb, c, vc);
      gemm(1, m, n, k, a, va, b, vb, c, vc);
      expectNear(c, expected);
    }
}

TEST(NxrtGemm, TransposedAndPaddedOperands) {
  // A column-major, B with a row stride past its width, C padded too.
  int64_t m = 3, n = 2, k = 4;
  auto a = iota<float>(m * k, 1.0f), b = iota<float>(k * 5, 1.0f);
  std::vector<float> c(m * 3, 0.0f);
  View va{0, 1, m}, vb{0, 5, 1}, vc{0, 3, 1};
  auto expected = reference(1, m, n, k, a, va, b, vb, c, vc);
  gemm(1, m, n, k, a, va, b, vb, c, vc);
  expectNear(c, expected);
}

TEST(NxrtGemm, LayoutsBlasCannotTakeUseTheLoop) {
  // A's rows all alias one row (stride 0, a broadcast view) and C is
  // column-major: both outside what a row-major BLAS call takes.
  int64_t m = 4, n = 3, k = 2;
  auto a = iota<float>(k, 1.0f), b = iota<float>(k * n, 1.0f);
  std::vector<float> c(m * n, 1.0f);
  View va{0, 0, 1}, vb{0, n, 1}, vc{0, 1, m};
  auto expected = reference(1, m, n, k, a, va, b, vb, c, vc);
  gemm(1, m, n, k, a, va, b, vb, c, vc);
  expectNear(c, expected);
}

TEST(NxrtGemm, BatchesAndMatrixVectorProducts) {
  int64_t batch = 3, m = 4, k = 5;
  auto a = iota<float>(batch * m * k, 1.0f),
       x = iota<float>(batch * k * 2, 1.0f);
  std::vector<float> y(batch * m * 2, 0.0f);
  // Every other element of x and y: a one-column product on strided
  // vectors, as matvec passes them.
  View va{m * k, k, 1}, vx{k * 2, 2, 1}, vy{m * 2, 2, 1};
  auto expected = reference(batch, m, 1, k, a, va, x, vx, y, vy);
  gemm(batch, m, 1, k, a, va, x, vx, y, vy);
  expectNear(y, expected);
}

TEST(NxrtGemm, EmptyProductsLeaveCAlone) {
  std::vector<float> a(1, 1.0f), b(1, 1.0f), c(4, 2.0f);
  gemm(1, 2, 2, 0, a, {0, 0, 1}, b, {0, 2, 1}, c, {0, 2, 1});
  gemm(0, 2, 2, 1, a, {0, 1, 1}, b, {0, 2, 1}, c, {0, 2, 1});
  expectNear(c, std::vector<float>(4, 2.0f));
}

// accumulate 0: C = A B, C's old contents (NaNs here) never read, on BLAS's
// path, on the loop's (a layout BLAS cannot take) and with k = 0 (zeros).
TEST(NxrtGemm, OverwritesCWithoutReadingIt) {
  int64_t m = 5, n = 4, k = 3;
  auto a = iota<float>(m * k, 0.5f), b = iota<float>(k * n, 0.25f);
  for (View vc : {View{0, n, 1}, View{0, 1, m}}) {
    std::vector<float> c(m * n, std::nanf(""));
    auto expected = reference(1, m, n, k, a, {0, k, 1}, b, {0, n, 1},
                              std::vector<float>(m * n, 0.0f), vc);
    nxrt_gemm_f32(1, m, n, k, a.data(), 0, k, 1, b.data(), 0, n, 1, c.data(), 0,
                  vc.rows, vc.cols, /*accumulate=*/0);
    expectNear(c, expected);
  }
  std::vector<float> c(m * n, std::nanf(""));
  nxrt_gemm_f32(1, m, n, 0, a.data(), 0, k, 1, b.data(), 0, n, 1, c.data(), 0,
                n, 1, /*accumulate=*/0);
  expectNear(c, std::vector<float>(m * n, 0.0f));
  std::vector<double> a64(a.begin(), a.end()), b64(b.begin(), b.end());
  std::vector<double> c64(m * n, std::nan(""));
  auto expected64 = reference(1, m, n, k, a64, {0, k, 1}, b64, {0, n, 1},
                              std::vector<double>(m * n, 0.0), {0, n, 1});
  nxrt_gemm_f64(1, m, n, k, a64.data(), 0, k, 1, b64.data(), 0, n, 1,
                c64.data(), 0, n, 1, /*accumulate=*/0);
  for (size_t i = 0; i < c64.size(); ++i)
    EXPECT_DOUBLE_EQ(c64[i], expected64[i]) << "element " << i;
}

TEST(NxrtGemm, DoublePrecision) {
  int64_t m = 6, n = 5, k = 7;
  auto a = iota<double>(m * k, 0.125), b = iota<double>(k * n, 0.5);
  std::vector<double> c(m * n, 0.0);
  View va{0, k, 1}, vb{0, n, 1}, vc{0, n, 1};
  auto expected = reference(1, m, n, k, a, va, b, vb, c, vc);
  nxrt_gemm_f64(1, m, n, k, a.data(), 0, k, 1, b.data(), 0, n, 1, c.data(), 0,
                n, 1, /*accumulate=*/1);
  for (size_t i = 0; i < c.size(); ++i)
    EXPECT_DOUBLE_EQ(c[i], expected[i]) << "element " << i;
}

/// A product cut into parts: its shape, its layouts and how many parts.
struct PartedProduct {
  const char *name;
  int64_t batch, m, n, k, parts;
  bool columnMajorC = false;
};

void PrintTo(const PartedProduct &product, std::ostream *os) {
  *os << product.name;
}

class NxrtGemmParts : public ::testing::TestWithParam<PartedProduct> {};

// Every part computed, in any order, is the whole product: no element of C
// is left out or accumulated twice (C starts nonzero, so either shows).
TEST_P(NxrtGemmParts, TogetherComputeTheWholeProduct) {
  const PartedProduct &p = GetParam();
  auto a = iota<float>(p.batch * p.m * p.k, 0.5f);
  auto b = iota<float>(p.batch * p.k * p.n, 0.25f);
  auto c = iota<float>(p.batch * p.m * p.n, 1.0f);
  View va{p.m * p.k, p.k, 1}, vb{p.k * p.n, p.n, 1};
  View vc = p.columnMajorC ? View{p.m * p.n, 1, p.m} : View{p.m * p.n, p.n, 1};
  auto expected = reference(p.batch, p.m, p.n, p.k, a, va, b, vb, c, vc);
  for (int64_t part = p.parts - 1; part >= 0; --part)
    nxrt_gemm_part_f32(part, p.parts, p.batch, p.m, p.n, p.k, a.data(),
                       va.batch, va.rows, va.cols, b.data(), vb.batch, vb.rows,
                       vb.cols, c.data(), vc.batch, vc.rows, vc.cols,
                       /*accumulate=*/1);
  expectNear(c, expected);
}

// The same parts with accumulate 0 write the whole product over C, whose
// NaNs no part reads.
TEST_P(NxrtGemmParts, TogetherOverwriteTheWholeProduct) {
  const PartedProduct &p = GetParam();
  auto a = iota<float>(p.batch * p.m * p.k, 0.5f);
  auto b = iota<float>(p.batch * p.k * p.n, 0.25f);
  std::vector<float> c(p.batch * p.m * p.n, std::nanf(""));
  View va{p.m * p.k, p.k, 1}, vb{p.k * p.n, p.n, 1};
  View vc = p.columnMajorC ? View{p.m * p.n, 1, p.m} : View{p.m * p.n, p.n, 1};
  auto expected = reference(p.batch, p.m, p.n, p.k, a, va, b, vb,
                            std::vector<float>(c.size(), 0.0f), vc);
  for (int64_t part = 0; part < p.parts; ++part)
    nxrt_gemm_part_f32(part, p.parts, p.batch, p.m, p.n, p.k, a.data(),
                       va.batch, va.rows, va.cols, b.data(), vb.batch, vb.rows,
                       vb.cols, c.data(), vc.batch, vc.rows, vc.cols,
                       /*accumulate=*/0);
  expectNear(c, expected);
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, NxrtGemmParts,
    ::testing::Values(
        // Whole batches per part: the parts divide the batches.
        PartedProduct{"WholeBatches", 16, 32, 24, 8, 2},
        // Rows cut across a batch boundary: 3 batches into 2 parts.
        PartedProduct{"RowsAcrossBatches", 3, 40, 20, 6, 2},
        // Uneven rows: 100 rows into 3 parts of 48, 48 and 4.
        PartedProduct{"UnevenRows", 1, 100, 12, 9, 3},
        // Too few rows for every part, many columns: the columns are cut.
        PartedProduct{"Columns", 1, 5, 100, 7, 3},
        // Too few of either: some parts get nothing.
        PartedProduct{"MorePartsThanRows", 1, 3, 3, 4, 4},
        // A layout BLAS cannot take runs the loop, part by part.
        PartedProduct{"LoopLayout", 2, 20, 18, 5, 3, true}),
    [](const ::testing::TestParamInfo<PartedProduct> &info) {
      return std::string(info.param.name);
    });

TEST(NxrtGemm, PartsRunConcurrently) {
  // As an OpenMP team runs them: each part on its own thread at once.
  int64_t batch = 4, m = 96, n = 64, k = 48, parts = 4;
  auto a = iota<float>(batch * m * k, 0.5f),
       b = iota<float>(batch * k * n, 0.25f);
  auto c = iota<float>(batch * m * n, 1.0f);
  View va{m * k, k, 1}, vb{k * n, n, 1}, vc{m * n, n, 1};
  auto expected = reference(batch, m, n, k, a, va, b, vb, c, vc);
  std::vector<std::thread> threads;
  for (int64_t part = 0; part < parts; ++part)
    threads.emplace_back([&, part] {
      nxrt_gemm_part_f32(part, parts, batch, m, n, k, a.data(), va.batch,
                         va.rows, va.cols, b.data(), vb.batch, vb.rows, vb.cols,
                         c.data(), vc.batch, vc.rows, vc.cols,
                         /*accumulate=*/1);
    });
  for (std::thread &thread : threads)
    thread.join();
  expectNear(c, expected);
}

TEST(NxrtGemm, PartsOutOfRangeComputeNothing) {
  int64_t m = 4, n = 4, k = 4;
  auto a = iota<float>(m * k, 1.0f), b = iota<float>(k * n, 1.0f);
  std::vector<float> c(m * n, 3.0f);
  for (auto [part, parts] :
       {std::pair<int64_t, int64_t>{-1, 2}, {2, 2}, {0, 0}, {0, -1}})
    nxrt_gemm_part_f32(part, parts, 1, m, n, k, a.data(), 0, k, 1, b.data(), 0,
                       n, 1, c.data(), 0, n, 1, /*accumulate=*/0);
  expectNear(c, std::vector<float>(m * n, 3.0f));
}

TEST(NxrtGemm, DoublePrecisionParts) {
  int64_t m = 40, n = 5, k = 7, parts = 2;
  auto a = iota<double>(m * k, 0.125), b = iota<double>(k * n, 0.5);
  std::vector<double> c(m * n, 1.0);
  auto expected =
      reference(1, m, n, k, a, {0, k, 1}, b, {0, n, 1}, c, {0, n, 1});
  for (int64_t part = 0; part < parts; ++part)
    nxrt_gemm_part_f64(part, parts, 1, m, n, k, a.data(), 0, k, 1, b.data(), 0,
                       n, 1, c.data(), 0, n, 1, /*accumulate=*/1);
  for (size_t i = 0; i < c.size(); ++i)
    EXPECT_DOUBLE_EQ(c[i], expected[i]) << "element " << i;
}

TEST(NxrtGemm, ComputeThreadsAreSetForTheProcess) {
  nxrt_set_compute_threads(1);
  EXPECT_EQ(nxrt_compute_threads(), 1);
  nxrt_set_compute_threads(0);
  int cores = static_cast<int>(std::thread::hardware_concurrency());
  EXPECT_EQ(nxrt_compute_threads(), cores > 0 ? cores : 1);
}

} // namespace

//===- GemmTest.cpp - nxrt_gemm_f32 / _f64 against a reference loop ------===//

#include "nxrt/nxrt.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <thread>
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
                vc.cols);
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

TEST(NxrtGemm, DoublePrecision) {
  int64_t m = 6, n = 5, k = 7;
  auto a = iota<double>(m * k, 0.125), b = iota<double>(k * n, 0.5);
  std::vector<double> c(m * n, 0.0);
  View va{0, k, 1}, vb{0, n, 1}, vc{0, n, 1};
  auto expected = reference(1, m, n, k, a, va, b, vb, c, vc);
  nxrt_gemm_f64(1, m, n, k, a.data(), 0, k, 1, b.data(), 0, n, 1, c.data(), 0,
                n, 1);
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

//===- GemmPathTest.cpp - which f32 products reach oneDNN's sgemm ---------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A product BLAS cannot take runs libnxrt's plain loop, correct and many
// times slower: a 4096x4096 matrix-vector product took 16 ms on it against
// 3.5 on oneDNN. This binary defines dnnl_sgemm itself, counting the calls
// libnxrt makes and passing them on to oneDNN's, so that a test sees which
// path each layout takes, not only that its result is right.
//
//===----------------------------------------------------------------------===//

#include "nxrt/nxrt.h"

#include <gtest/gtest.h>

#include <oneapi/dnnl/dnnl.h>

#include <dlfcn.h>

#include <atomic>
#include <cstdint>
#include <vector>

namespace {

std::atomic<int> sgemmCalls{0};

using SgemmFn = dnnl_status_t (*)(char, char, dnnl_dim_t, dnnl_dim_t,
                                  dnnl_dim_t, float, const float *, dnnl_dim_t,
                                  const float *, dnnl_dim_t, float, float *,
                                  dnnl_dim_t);

SgemmFn oneDnnSgemm() {
  static const auto fn =
      reinterpret_cast<SgemmFn>(dlsym(RTLD_NEXT, "dnnl_sgemm"));
  return fn;
}

} // namespace

extern "C" dnnl_status_t dnnl_sgemm(char transa, char transb, dnnl_dim_t m,
                                    dnnl_dim_t n, dnnl_dim_t k, float alpha,
                                    const float *a, dnnl_dim_t lda,
                                    const float *b, dnnl_dim_t ldb, float beta,
                                    float *c, dnnl_dim_t ldc) {
  sgemmCalls.fetch_add(1, std::memory_order_relaxed);
  return oneDnnSgemm()(transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c,
                       ldc);
}

namespace {

/// Element (r, c) of batch i at i * batch + r * rows + c * cols.
struct View {
  int64_t batch, rows, cols;
};

std::vector<float> values(int64_t size, float scale) {
  std::vector<float> v(size);
  for (int64_t i = 0; i < size; ++i)
    v[i] = static_cast<float>((i * 7) % 11 - 5) * scale;
  return v;
}

/// C = A B on one thread; returns how many sgemm calls it made, and checks
/// every element of C against a plain loop.
int productCalls(int64_t batch, int64_t m, int64_t n, int64_t k,
                 const std::vector<float> &a, View va,
                 const std::vector<float> &b, View vb, std::vector<float> &c,
                 View vc) {
  EXPECT_NE(oneDnnSgemm(), nullptr);
  int before = sgemmCalls.load();
  nxrt_gemm_f32(batch, m, n, k, a.data(), va.batch, va.rows, va.cols, b.data(),
                vb.batch, vb.rows, vb.cols, c.data(), vc.batch, vc.rows,
                vc.cols, /*accumulate=*/0);
  int calls = sgemmCalls.load() - before;
  for (int64_t i = 0; i < batch; ++i)
    for (int64_t r = 0; r < m; ++r)
      for (int64_t col = 0; col < n; ++col) {
        float sum = 0;
        for (int64_t p = 0; p < k; ++p)
          sum += a[i * va.batch + r * va.rows + p * va.cols] *
                 b[i * vb.batch + p * vb.rows + col * vb.cols];
        EXPECT_NEAR(c[i * vc.batch + r * vc.rows + col * vc.cols], sum, 1e-3f)
            << "batch " << i << ", element (" << r << ", " << col << ")";
      }
  return calls;
}

// linalg.matvec as the compiler passes it: the vector and the result have
// no column dimension, so their column stride is 0.
TEST(NxrtGemmPath, MatrixVectorProductsRunOnSgemm) {
  int64_t batch = 2, m = 37, k = 19;
  auto a = values(batch * m * k, 0.5f), x = values(batch * k, 0.25f);
  std::vector<float> y(batch * m, 0.0f);
  EXPECT_EQ(productCalls(batch, m, 1, k, a, {m * k, k, 1}, x, {k, 1, 0}, y,
                         {m, 1, 0}),
            batch);
}

// linalg.vecmat: the vector and the result have no row dimension.
TEST(NxrtGemmPath, VectorMatrixProductsRunOnSgemm) {
  int64_t n = 23, k = 17;
  auto x = values(k, 0.5f), b = values(k * n, 0.25f);
  std::vector<float> y(n, 0.0f);
  EXPECT_EQ(productCalls(1, 1, n, k, x, {0, 0, 1}, b, {0, n, 1}, y, {0, 0, 1}),
            1);
}

// A result written column by column is the transposed product B^T A^T, with
// A and B transposed or not.
TEST(NxrtGemmPath, ColumnMajorResultsRunOnSgemm) {
  int64_t m = 9, n = 6, k = 5;
  auto a = values(m * k, 0.5f), b = values(k * n, 0.25f);
  for (View va : {View{0, k, 1}, View{0, 1, m}})
    for (View vb : {View{0, n, 1}, View{0, 1, k}}) {
      std::vector<float> c(m * n, 0.0f);
      EXPECT_EQ(productCalls(1, m, n, k, a, va, b, vb, c, {0, 1, m}), 1);
    }
}

// Rows that all alias one (a broadcast) are no BLAS operand: the loop
// computes them, and the count shows it.
TEST(NxrtGemmPath, BroadcastRowsRunTheLoop) {
  int64_t m = 4, n = 3, k = 2;
  auto a = values(k, 1.0f), b = values(k * n, 1.0f);
  std::vector<float> c(m * n, 0.0f);
  EXPECT_EQ(productCalls(1, m, n, k, a, {0, 0, 1}, b, {0, n, 1}, c, {0, n, 1}),
            0);
}

} // namespace

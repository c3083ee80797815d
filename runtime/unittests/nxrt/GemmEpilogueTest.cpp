//===- GemmEpilogueTest.cpp - a product's bias and ReLU in its call -------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// nxrt_gemm_part_epilogue_f32 against a reference loop followed by the
// elementwise pass it replaces: every part, layout and batch gets exactly
// that pass's sums and maxima.
//
//===----------------------------------------------------------------------===//

#include "nxrt/nxrt.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace {

/// Element (r, c) of batch i lies at i * batch + r * rows + c * cols.
struct View {
  int64_t batch, rows, cols;
};

std::vector<float> values(int64_t size, float scale) {
  std::vector<float> result(size);
  for (int64_t i = 0; i < size; ++i)
    result[i] = static_cast<float>((i * 7) % 11 - 5) * scale;
  return result;
}

/// A product and its epilogue, as nx-linalg-to-blas calls it.
struct Product {
  const char *name;
  int64_t batch, m, n, k, parts;
  bool columnMajorC = false;
  int64_t biasStride = 1;
  bool bias = true, relu = true, accumulate = false;
};

void PrintTo(const Product &product, std::ostream *os) { *os << product.name; }

/// C = [C +] A B, then + bias[col * stride] and maximum(., +0.0): the
/// matmul and the linalg.generic after it.
std::vector<float> reference(const Product &p, const std::vector<float> &a,
                             const std::vector<float> &b, std::vector<float> c,
                             View vc, const std::vector<float> &bias) {
  for (int64_t i = 0; i < p.batch; ++i)
    for (int64_t r = 0; r < p.m; ++r)
      for (int64_t col = 0; col < p.n; ++col) {
        float &out = c[i * vc.batch + r * vc.rows + col * vc.cols];
        float sum = p.accumulate ? out : 0.0f;
        for (int64_t q = 0; q < p.k; ++q)
          sum += a[(i * p.m + r) * p.k + q] * b[(i * p.k + q) * p.n + col];
        if (p.bias)
          sum += bias[col * p.biasStride];
        out = p.relu ? std::fmax(sum, 0.0f) : sum;
      }
  return c;
}

void callParts(const Product &p, const std::vector<float> &a,
               const std::vector<float> &b, std::vector<float> &c, View vc,
               const std::vector<float> &bias) {
  // The last part first: no part may rely on another having run.
  for (int64_t part = p.parts - 1; part >= 0; --part)
    nxrt_gemm_part_epilogue_f32(
        part, p.parts, p.batch, p.m, p.n, p.k, a.data(), p.m * p.k, p.k, 1,
        b.data(), p.k * p.n, p.n, 1, c.data(), vc.batch, vc.rows, vc.cols,
        p.accumulate, p.bias ? bias.data() : nullptr, p.biasStride, p.relu);
}

class NxrtGemmEpilogue : public ::testing::TestWithParam<Product> {};

TEST_P(NxrtGemmEpilogue, MatchesTheProductAndThenThePass) {
  const Product &p = GetParam();
  auto a = values(p.batch * p.m * p.k, 0.5f);
  auto b = values(p.batch * p.k * p.n, 0.25f);
  auto c = values(p.batch * p.m * p.n, 1.0f);
  // Distinct per column, so a part given another part's columns shows.
  std::vector<float> bias(p.n * p.biasStride);
  for (size_t i = 0; i < bias.size(); ++i)
    bias[i] = static_cast<float>(i % 13) - 6.5f;
  View vc = p.columnMajorC ? View{p.m * p.n, 1, p.m} : View{p.m * p.n, p.n, 1};
  auto expected = reference(p, a, b, c, vc, bias);
  callParts(p, a, b, c, vc, bias);
  ASSERT_EQ(c.size(), expected.size());
  for (size_t i = 0; i < c.size(); ++i)
    EXPECT_NEAR(c[i], expected[i], 1e-4f) << "element " << i;
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, NxrtGemmEpilogue,
    ::testing::Values(
        Product{"BiasAndRelu", 1, 24, 40, 16, 1},
        Product{"BiasOnly", 1, 24, 40, 16, 1, false, 1, true, false},
        Product{"ReluOnly", 1, 24, 40, 16, 1, false, 1, false, true},
        // The epilogue follows the sum into the old C, as the pass would.
        Product{"Accumulating", 1, 24, 40, 16, 1, false, 1, true, true, true},
        // Each batch's C gets the same bias.
        Product{"Batches", 3, 20, 12, 8, 1},
        // Rows cut into parts, across batch boundaries.
        Product{"RowParts", 3, 40, 20, 6, 2},
        // Few rows: the parts take columns, and the bias from their first.
        Product{"ColumnParts", 1, 5, 100, 7, 3},
        // A strided bias (a column of a matrix, a view with gaps).
        Product{"StridedBias", 1, 16, 33, 5, 2, false, 3},
        // C column-major: the loop, element by element.
        Product{"ColumnMajorC", 2, 20, 18, 5, 3, true}),
    [](const ::testing::TestParamInfo<Product> &info) {
      return std::string(info.param.name);
    });

// maximum(x, +0.0) as arith.maximumf: a NaN stays a NaN, -0.0 becomes +0.0
// and a negative value +0.0.
TEST(NxrtGemmEpilogueRelu, KeepsNaNAndTurnsNegativeZeroPositive) {
  // C = old C + A B with k = 1: -0.0 + (-1 * 0) = -0.0, NaN, and -2.
  std::vector<float> a = {-1.0f, std::nanf(""), 1.0f};
  std::vector<float> b = {0.0f};
  std::vector<float> c = {-0.0f, 0.0f, -2.0f};
  nxrt_gemm_part_epilogue_f32(0, 1, 1, 3, 1, 1, a.data(), 0, 1, 1, b.data(), 0,
                              1, 1, c.data(), 0, 1, 1, /*accumulate=*/1,
                              /*bias=*/nullptr, 0, /*relu=*/1);
  EXPECT_EQ(c[0], 0.0f);
  EXPECT_FALSE(std::signbit(c[0]));
  EXPECT_TRUE(std::isnan(c[1]));
  EXPECT_EQ(c[2], 0.0f);
  EXPECT_FALSE(std::signbit(c[2]));
}

// Without bias and ReLU it is nxrt_gemm_part_f32.
TEST(NxrtGemmEpilogueRelu, EmptyEpilogueIsThePlainProduct) {
  int64_t m = 6, n = 5, k = 4;
  auto a = values(m * k, 0.5f), b = values(k * n, 0.25f);
  std::vector<float> plain(m * n, 1.0f), fused(m * n, 1.0f);
  nxrt_gemm_part_f32(0, 1, 1, m, n, k, a.data(), 0, k, 1, b.data(), 0, n, 1,
                     plain.data(), 0, n, 1, /*accumulate=*/1);
  nxrt_gemm_part_epilogue_f32(0, 1, 1, m, n, k, a.data(), 0, k, 1, b.data(), 0,
                              n, 1, fused.data(), 0, n, 1, /*accumulate=*/1,
                              nullptr, 0, 0);
  EXPECT_EQ(fused, plain);
}

} // namespace

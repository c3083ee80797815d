//===- GemmBf16Test.cpp - products of bf16 into f32 -----------------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// nxrt_gemm_bf16_f32 and its parts against sums in double of the exact
// products. Built into nxrt-tests, where a CPU with bf16 instructions runs
// oneDNN's bf16 kernels, and into nxrt-gemm-avx2-tests, whose
// DNNL_MAX_CPU_ISA=AVX2 makes every CPU widen the operands to f32.
//
//===----------------------------------------------------------------------===//

#include "nxrt/nxrt.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

namespace {

/// An operand's element strides: element (r, c) at r * rows + c * cols.
struct Layout {
  int64_t rows, cols;
};

float widen(uint16_t bits) {
  uint32_t word = static_cast<uint32_t>(bits) << 16;
  float value;
  std::memcpy(&value, &word, sizeof(value));
  return value;
}

/// bf16 values in (-2, 2) from a fixed sequence, every bit of their
/// mantissas in use, so that a lost bit or a shifted row changes a sum.
std::vector<uint16_t> sequence(int64_t size, uint32_t seed) {
  std::vector<uint16_t> values(size);
  uint32_t state = seed;
  for (uint16_t &value : values) {
    state = state * 1664525u + 1013904223u;
    float x = static_cast<float>(state >> 8) / float(1 << 22) - 2.0f;
    uint32_t word;
    std::memcpy(&word, &x, sizeof(word));
    value = static_cast<uint16_t>(word >> 16);
  }
  return values;
}

/// One product C = A B (+ C with `accumulate`) of `batch` batches, through
/// nxrt_gemm_bf16_f32 or in `parts` parts, checked against sums in double.
/// A's and B's batches are `aSize` and `bSize` elements apart; C is
/// row-major, or column-major with `columnMajorC`.
void checkProduct(int64_t batch, int64_t m, int64_t n, int64_t k, Layout a,
                  int64_t aSize, Layout b, int64_t bSize, bool accumulate,
                  int64_t parts = 0, bool columnMajorC = false) {
  std::vector<uint16_t> lhs = sequence(batch * aSize, 1);
  std::vector<uint16_t> rhs = sequence(batch * bSize, 2);
  std::vector<float> out(batch * m * n);
  for (size_t i = 0; i < out.size(); ++i)
    out[i] = accumulate ? 0.125f * static_cast<float>(i % 17) : std::nanf("");
  Layout c = columnMajorC ? Layout{1, m} : Layout{n, 1};
  std::vector<double> expected(out.size()), bound(out.size());
  for (int64_t i = 0; i < batch; ++i)
    for (int64_t r = 0; r < m; ++r)
      for (int64_t col = 0; col < n; ++col) {
        int64_t at = i * m * n + r * c.rows + col * c.cols;
        double sum = accumulate ? out[at] : 0.0, magnitude = std::fabs(sum);
        for (int64_t p = 0; p < k; ++p) {
          double term =
              double(widen(lhs[i * aSize + r * a.rows + p * a.cols])) *
              widen(rhs[i * bSize + p * b.rows + col * b.cols]);
          sum += term;
          magnitude += std::fabs(term);
        }
        expected[at] = sum;
        // Sums in f32 of exact products, in any order.
        bound[at] = (k + 1) * std::ldexp(magnitude, -24) + 1e-30;
      }
  if (parts == 0)
    nxrt_gemm_bf16_f32(batch, m, n, k, lhs.data(), aSize, a.rows, a.cols,
                       rhs.data(), bSize, b.rows, b.cols, out.data(), m * n,
                       c.rows, c.cols, accumulate);
  for (int64_t part = parts - 1; part >= 0; --part)
    nxrt_gemm_part_bf16_f32(part, parts, batch, m, n, k, lhs.data(), aSize,
                            a.rows, a.cols, rhs.data(), bSize, b.rows, b.cols,
                            out.data(), m * n, c.rows, c.cols, accumulate);
  for (size_t i = 0; i < out.size(); ++i)
    ASSERT_NEAR(out[i], expected[i], bound[i])
        << "element " << i << " of " << batch << "x" << m << "x" << n << "x"
        << k << (parts ? " in parts" : "");
}

class NxrtGemmBf16 : public ::testing::TestWithParam<bool> {
protected:
  void SetUp() override { nxrt_set_compute_threads(1); }
  bool accumulate() const { return GetParam(); }
};

TEST_P(NxrtGemmBf16, RowMajor) {
  checkProduct(1, 64, 48, 40, {40, 1}, 64 * 40, {48, 1}, 40 * 48, accumulate());
}

// The bench's product: B's rows 512 elements apart, which the f32 GEMM of
// AVX2 CPUs reads from a padded copy.
TEST_P(NxrtGemmBf16, RowsOfBAMultipleOf256Apart) {
  checkProduct(1, 512, 512, 512, {512, 1}, 512 * 512, {512, 1}, 512 * 512,
               accumulate());
}

TEST_P(NxrtGemmBf16, TransposedOperands) {
  checkProduct(1, 33, 70, 20, {1, 33}, 20 * 33, {70, 1}, 20 * 70, accumulate());
  checkProduct(1, 33, 70, 20, {20, 1}, 33 * 20, {1, 20}, 70 * 20, accumulate());
  checkProduct(1, 33, 70, 20, {1, 33}, 20 * 33, {1, 20}, 70 * 20, accumulate());
}

// Rows of A and B wider than the product reads (views of larger matrices).
TEST_P(NxrtGemmBf16, RowsWiderThanTheProduct) {
  checkProduct(1, 17, 9, 31, {64, 1}, 17 * 64, {100, 1}, 31 * 100,
               accumulate());
}

// Layouts no BLAS takes (C column-major, A's elements 2 apart) run the
// plain loop, with the same results.
TEST_P(NxrtGemmBf16, LayoutsOfThePlainLoop) {
  checkProduct(1, 12, 10, 7, {7, 1}, 12 * 7, {10, 1}, 7 * 10, accumulate(), 0,
               /*columnMajorC=*/true);
  checkProduct(1, 12, 10, 7, {14, 2}, 12 * 14, {10, 1}, 7 * 10, accumulate());
}

// Batches, whole and cut into parts across their rows and columns.
TEST_P(NxrtGemmBf16, BatchesAndParts) {
  checkProduct(5, 24, 16, 12, {12, 1}, 24 * 12, {16, 1}, 12 * 16, accumulate());
  checkProduct(5, 24, 16, 12, {12, 1}, 24 * 12, {16, 1}, 12 * 16, accumulate(),
               /*parts=*/3);
  checkProduct(1, 100, 40, 9, {9, 1}, 100 * 9, {40, 1}, 9 * 40, accumulate(),
               /*parts=*/3);
  checkProduct(1, 8, 160, 9, {9, 1}, 8 * 9, {160, 1}, 9 * 160, accumulate(),
               /*parts=*/4);
}

// A single row and a single column: a matvec and a vecmat.
TEST_P(NxrtGemmBf16, VectorProducts) {
  checkProduct(1, 1, 300, 64, {64, 1}, 64, {300, 1}, 64 * 300, accumulate());
  checkProduct(1, 300, 1, 64, {64, 1}, 300 * 64, {1, 1}, 64, accumulate());
}

INSTANTIATE_TEST_SUITE_P(Accumulate, NxrtGemmBf16, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool> &info) {
                           return info.param ? "Accumulate" : "Overwrite";
                         });

// A NaN or infinity in an operand reaches the sums it is part of.
TEST(NxrtGemmBf16Special, NaNAndInfinityPropagate) {
  nxrt_set_compute_threads(1);
  constexpr int64_t kSide = 32;
  std::vector<uint16_t> a(kSide * kSide, 0x3f80), b(kSide * kSide, 0x3f80);
  a[3 * kSide + 5] = 0x7fc0; // NaN at row 3
  b[7 * kSide + 9] = 0x7f80; // +inf in column 9
  std::vector<float> c(kSide * kSide, 0.0f);
  nxrt_gemm_bf16_f32(1, kSide, kSide, kSide, a.data(), 0, kSide, 1, b.data(), 0,
                     kSide, 1, c.data(), 0, kSide, 1, 0);
  for (int64_t r = 0; r < kSide; ++r)
    for (int64_t col = 0; col < kSide; ++col) {
      float value = c[r * kSide + col];
      if (r == 3)
        EXPECT_TRUE(std::isnan(value)) << r << ", " << col;
      else if (col == 9)
        EXPECT_EQ(value, INFINITY) << r << ", " << col;
      else
        EXPECT_EQ(value, float(kSide)) << r << ", " << col;
    }
}

} // namespace

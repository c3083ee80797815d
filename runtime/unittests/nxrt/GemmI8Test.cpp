//===- GemmI8Test.cpp - products of i8 into i32 ---------------------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// nxrt_gemm_i8_i32 and its parts against sums in int64 taken modulo 2^32:
// every element must be exact, wrapping included, whatever the layout and
// however long the reduction. Built into nxrt-tests, where a CPU with
// AVX-512 VNNI or AMX runs oneDNN's int8 kernels, and into
// nxrt-gemm-avx2-tests (DNNL_MAX_CPU_ISA=AVX2), where every CPU runs the
// f32 GEMM, which reads B from a padded copy.
//
//===----------------------------------------------------------------------===//

#include "nxrt/nxrt.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace {

/// An operand's element strides: element (r, c) at r * rows + c * cols.
struct Layout {
  int64_t rows, cols;
};

/// i8 values over their whole range, from a fixed sequence.
std::vector<int8_t> sequence(int64_t size, uint32_t seed) {
  std::vector<int8_t> values(size);
  uint32_t state = seed;
  for (int8_t &value : values) {
    state = state * 1664525u + 1013904223u;
    value = static_cast<int8_t>(state >> 24);
  }
  return values;
}

/// The i32 that wraps `sum`, as compiled code's arith.addi does.
int32_t wrapped(int64_t sum) {
  return static_cast<int32_t>(static_cast<uint32_t>(sum));
}

/// One product C = A B (+ C with `accumulate`) of `batch` batches, through
/// nxrt_gemm_i8_i32 or in `parts` parts, checked element for element.
void checkProduct(int64_t batch, int64_t m, int64_t n, int64_t k, Layout a,
                  int64_t aSize, Layout b, int64_t bSize, bool accumulate,
                  int64_t parts = 0, bool columnMajorC = false,
                  std::vector<int8_t> lhs = {}, std::vector<int8_t> rhs = {}) {
  if (lhs.empty())
    lhs = sequence(batch * aSize, 1);
  if (rhs.empty())
    rhs = sequence(batch * bSize, 2);
  std::vector<int32_t> out(batch * m * n);
  for (size_t i = 0; i < out.size(); ++i)
    out[i] = accumulate ? INT32_MAX - static_cast<int32_t>(i % 5) : -7;
  Layout c = columnMajorC ? Layout{1, m} : Layout{n, 1};
  std::vector<int32_t> expected(out.size());
  for (int64_t i = 0; i < batch; ++i)
    for (int64_t r = 0; r < m; ++r)
      for (int64_t col = 0; col < n; ++col) {
        int64_t at = i * m * n + r * c.rows + col * c.cols;
        int64_t sum = accumulate ? out[at] : 0;
        for (int64_t p = 0; p < k; ++p)
          sum += int64_t(lhs[i * aSize + r * a.rows + p * a.cols]) *
                 rhs[i * bSize + p * b.rows + col * b.cols];
        expected[at] = wrapped(sum);
      }
  if (parts == 0)
    nxrt_gemm_i8_i32(batch, m, n, k, lhs.data(), aSize, a.rows, a.cols,
                     rhs.data(), bSize, b.rows, b.cols, out.data(), m * n,
                     c.rows, c.cols, accumulate);
  for (int64_t part = parts - 1; part >= 0; --part)
    nxrt_gemm_part_i8_i32(part, parts, batch, m, n, k, lhs.data(), aSize,
                          a.rows, a.cols, rhs.data(), bSize, b.rows, b.cols,
                          out.data(), m * n, c.rows, c.cols, accumulate);
  for (size_t i = 0; i < out.size(); ++i)
    ASSERT_EQ(out[i], expected[i])
        << "element " << i << " of " << batch << "x" << m << "x" << n << "x"
        << k << (parts ? " in parts" : "");
}

class NxrtGemmI8 : public ::testing::TestWithParam<bool> {
protected:
  void SetUp() override { nxrt_set_compute_threads(1); }
  bool accumulate() const { return GetParam(); }
};

TEST_P(NxrtGemmI8, RowMajor) {
  checkProduct(1, 64, 48, 40, {40, 1}, 64 * 40, {48, 1}, 40 * 48, accumulate());
}

// The bench's product: B's rows 512 elements apart.
TEST_P(NxrtGemmI8, RowsOfBAMultipleOf256Apart) {
  checkProduct(1, 512, 512, 512, {512, 1}, 512 * 512, {512, 1}, 512 * 512,
               accumulate());
}

TEST_P(NxrtGemmI8, TransposedOperands) {
  checkProduct(1, 33, 70, 20, {1, 33}, 20 * 33, {70, 1}, 20 * 70, accumulate());
  checkProduct(1, 33, 70, 20, {20, 1}, 33 * 20, {1, 20}, 70 * 20, accumulate());
  checkProduct(1, 33, 70, 20, {1, 33}, 20 * 33, {1, 20}, 70 * 20, accumulate());
}

// Reductions longer than one exact run of 1024 steps: 2500 steps are three
// runs, with either operand transposed.
TEST_P(NxrtGemmI8, LongReductions) {
  checkProduct(1, 20, 24, 2500, {2500, 1}, 20 * 2500, {24, 1}, 2500 * 24,
               accumulate());
  checkProduct(1, 20, 24, 2500, {1, 20}, 2500 * 20, {1, 2500}, 24 * 2500,
               accumulate());
  checkProduct(1, 20, 24, 1025, {1025, 1}, 20 * 1025, {24, 1}, 1025 * 24,
               accumulate());
}

// Sums of 127 * 127 (odd) past 2^24, which f32 cannot hold exactly: only
// runs of at most 1024 steps sum them without rounding.
TEST_P(NxrtGemmI8, SumsPastWhatF32HoldsExactly) {
  constexpr int64_t kSteps = 2500;
  std::vector<int8_t> lhs(3 * kSteps, 127), rhs(kSteps * 2, 127);
  checkProduct(1, 3, 2, kSteps, {kSteps, 1}, 3 * kSteps, {2, 1}, kSteps * 2,
               accumulate(), 0, false, lhs, rhs);
}

// Sums past i32 wrap, as compiled code's do: 140000 products of -128 and
// -128 (2^14 each) sum to 2293760000.
TEST_P(NxrtGemmI8, SumsWrap) {
  constexpr int64_t kSteps = 140000;
  std::vector<int8_t> lhs(2 * kSteps, -128), rhs(kSteps * 2, -128);
  checkProduct(1, 2, 2, kSteps, {kSteps, 1}, 2 * kSteps, {2, 1}, kSteps * 2,
               accumulate(), 0, false, lhs, rhs);
}

// Products of 127 and -128 summed in pairs: -32512 each pair, past what a
// 16-bit sum holds once int8 kernels without VNNI shift A by 128 to make it
// unsigned (255 * -128 * 2). oneDNN's VNNI and AMX kernels, and the f32
// runs, sum them in 32 bits.
TEST_P(NxrtGemmI8, PairsPastSixteenBits) {
  constexpr int64_t kSteps = 64;
  std::vector<int8_t> lhs(16 * kSteps, 127), rhs(kSteps * 16, -128);
  for (int64_t i = 0; i < kSteps * 16; i += 3)
    rhs[i] = 127;
  checkProduct(1, 16, 16, kSteps, {kSteps, 1}, 16 * kSteps, {16, 1},
               kSteps * 16, accumulate(), 0, false, lhs, rhs);
}

// Layouts no BLAS takes (C column-major, A's elements 2 apart) run the
// plain loop, which wraps too.
TEST_P(NxrtGemmI8, LayoutsOfThePlainLoop) {
  checkProduct(1, 12, 10, 7, {7, 1}, 12 * 7, {10, 1}, 7 * 10, accumulate(), 0,
               /*columnMajorC=*/true);
  checkProduct(1, 12, 10, 7, {14, 2}, 12 * 14, {10, 1}, 7 * 10, accumulate());
}

// Batches, whole and cut into parts across their rows and columns.
TEST_P(NxrtGemmI8, BatchesAndParts) {
  checkProduct(5, 24, 16, 12, {12, 1}, 24 * 12, {16, 1}, 12 * 16, accumulate());
  checkProduct(5, 24, 16, 12, {12, 1}, 24 * 12, {16, 1}, 12 * 16, accumulate(),
               /*parts=*/3);
  checkProduct(1, 100, 40, 9, {9, 1}, 100 * 9, {40, 1}, 9 * 40, accumulate(),
               /*parts=*/3);
  checkProduct(1, 8, 160, 9, {9, 1}, 8 * 9, {160, 1}, 9 * 160, accumulate(),
               /*parts=*/4);
}

INSTANTIATE_TEST_SUITE_P(Accumulate, NxrtGemmI8, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool> &info) {
                           return info.param ? "Accumulate" : "Overwrite";
                         });

} // namespace

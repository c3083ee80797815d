//===- GemmAvx2Test.cpp - f32 products on oneDNN's AVX2 sgemm -------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// ctest runs this binary with DNNL_MAX_CPU_ISA=AVX2, so that oneDNN runs its
// AVX2 sgemm on any CPU. There nxrt_gemm_f32 hands a B whose rows lie a
// multiple of 256 floats apart to oneDNN as a padded copy when oneDNN
// would read it in place (Sgemm.cpp, readsBAtConflictingStride). These
// products take that copy, and the ones around its limits do not; all
// must match a reference loop.
//
//===----------------------------------------------------------------------===//

#include "nxrt/nxrt.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

namespace {

/// An operand's element strides: element (r, c) at r * rows + c * cols.
struct Layout {
  int64_t rows, cols;
};

/// Values in [-1, 1) from a fixed sequence, so that a wrong element or a
/// shifted row of B changes a sum.
std::vector<float> sequence(int64_t size, uint32_t seed) {
  std::vector<float> values(size);
  uint32_t state = seed;
  for (float &value : values) {
    state = state * 1664525u + 1013904223u;
    value = static_cast<float>(state >> 8) / float(1 << 23) - 1.0f;
  }
  return values;
}

/// One product C = A B (+ C with `accumulate`) through nxrt_gemm_f32 (or
/// in `parts` parts), checked against sums in double.
void checkProduct(int64_t m, int64_t n, int64_t k, Layout a, Layout b,
                  int64_t bSize, bool accumulate, int64_t parts = 1) {
  std::vector<float> lhs = sequence(m * k, 1), rhs = sequence(bSize, 2);
  std::vector<float> out = sequence(m * n, 3);
  std::vector<double> expected(m * n);
  for (int64_t r = 0; r < m; ++r)
    for (int64_t c = 0; c < n; ++c) {
      double sum = accumulate ? out[r * n + c] : 0.0;
      for (int64_t p = 0; p < k; ++p)
        sum +=
            double(lhs[r * a.rows + p * a.cols]) * rhs[p * b.rows + c * b.cols];
      expected[r * n + c] = sum;
    }
  for (int64_t part = 0; part < parts; ++part)
    nxrt_gemm_part_f32(part, parts, 1, m, n, k, lhs.data(), 0, a.rows, a.cols,
                       rhs.data(), 0, b.rows, b.cols, out.data(), 0, n, 1,
                       accumulate);
  for (int64_t i = 0; i < m * n; ++i)
    ASSERT_NEAR(out[i], expected[i], 1e-4 * (1.0 + std::sqrt(double(k))))
        << "element (" << i / n << ", " << i % n << ") of " << m << "x" << n
        << "x" << k;
}

class NxrtGemmAvx2 : public ::testing::Test {
protected:
  void SetUp() override { nxrt_set_compute_threads(1); }
};

// The MLP's first layer: 256x784 by 784x512, B's rows 512 floats apart.
TEST_F(NxrtGemmAvx2, RowsOfBAMultipleOf256Apart) {
  checkProduct(256, 512, 784, {784, 1}, {512, 1}, 784 * 512, false);
  checkProduct(256, 512, 784, {784, 1}, {512, 1}, 784 * 512, true);
}

// B as 512 columns of a 1024-wide matrix: its rows are 1024 floats apart,
// and the copy takes only the product's columns.
TEST_F(NxrtGemmAvx2, ColumnsOfAWiderB) {
  checkProduct(100, 512, 300, {300, 1}, {1024, 1}, 300 * 1024, false);
  checkProduct(64, 256, 33, {33, 1}, {1024, 1}, 33 * 1024, true);
}

// A transposed (read down its columns) does not change how B is read.
TEST_F(NxrtGemmAvx2, TransposedA) {
  checkProduct(48, 256, 256, {1, 48}, {256, 1}, 256 * 256, false);
}

// The limits: 15 rows of A (no copy) and 16 (a copy), a single column, a
// reduction of one step, and the parts of a shared product, whose last
// one has fewer rows.
TEST_F(NxrtGemmAvx2, AroundTheLimits) {
  checkProduct(15, 512, 64, {64, 1}, {512, 1}, 64 * 512, false);
  checkProduct(16, 512, 64, {64, 1}, {512, 1}, 64 * 512, false);
  checkProduct(40, 1, 256, {256, 1}, {256, 1}, 256 * 256, false);
  checkProduct(40, 256, 1, {1, 1}, {256, 1}, 256, true);
  checkProduct(200, 512, 128, {128, 1}, {512, 1}, 128 * 512, false, 3);
}

// More than 2^21 floats of B are not copied (8 MiB a thread): read in
// place, the product is still right.
TEST_F(NxrtGemmAvx2, LargeBIsReadInPlace) {
  checkProduct(16, 512, 4200, {4200, 1}, {512, 1}, 4200 * 512, false);
}

} // namespace

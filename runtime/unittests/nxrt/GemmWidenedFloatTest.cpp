//===- GemmWidenedFloatTest.cpp - products of bf16 and f16 into f32 -------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// nxrt_gemm_bf16_f32, nxrt_gemm_f16_f32 and their parts against sums in
// double of the exact products. Built into nxrt-tests, where a CPU with bf16
// instructions runs oneDNN's bf16 kernels, and into nxrt-gemm-avx2-tests,
// whose DNNL_MAX_CPU_ISA=AVX2 makes every CPU widen the operands to f32.
//
//===----------------------------------------------------------------------===//

#include "nxrt/nxrt.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

namespace {

/// An operand's element strides: element (r, c) at r * rows + c * cols.
struct Layout {
  int64_t rows, cols;
};

/// bf16: the upper half of an f32's bits.
struct Bf16 {
  static constexpr const char *kName = "bf16";
  static constexpr uint16_t kOne = 0x3f80, kNaN = 0x7fc0, kInfinity = 0x7f80;
  /// Whether oneDNN may run the product on bf16 instructions.
  static constexpr bool kMayRunNatively = true;

  static double value(uint16_t bits) {
    uint32_t word = static_cast<uint32_t>(bits) << 16;
    float value;
    std::memcpy(&value, &word, sizeof(value));
    return value;
  }
  /// A value in (-2, 2) from a pseudo-random `state`, every bit of the
  /// mantissa in use.
  static uint16_t fromState(uint32_t state) {
    float x = static_cast<float>(state >> 8) / float(1 << 22) - 2.0f;
    uint32_t word;
    std::memcpy(&word, &x, sizeof(word));
    return static_cast<uint16_t>(word >> 16);
  }
  static constexpr auto kWhole = nxrt_gemm_bf16_f32;
  static constexpr auto kPart = nxrt_gemm_part_bf16_f32;
};

/// f16: IEEE half precision, its value computed here from the fields, apart
/// from how libnxrt converts it.
struct F16 {
  static constexpr const char *kName = "f16";
  static constexpr uint16_t kOne = 0x3c00, kNaN = 0x7e00, kInfinity = 0x7c00;
  /// oneDNN 2.6 has no f16 kernels for CPUs: f16 is always widened.
  static constexpr bool kMayRunNatively = false;

  static double value(uint16_t bits) {
    int exponent = (bits >> 10) & 0x1f, mantissa = bits & 0x3ff;
    double magnitude = exponent == 0x1f ? (mantissa ? NAN : INFINITY)
                       : exponent == 0
                           ? std::ldexp(mantissa, -24)
                           : std::ldexp(mantissa + 1024, exponent - 25);
    return (bits & 0x8000) ? -magnitude : magnitude;
  }
  /// A value in (-2, 2) from a pseudo-random `state`: exponents from the
  /// subnormals' up to 2^0, every bit of the mantissa in use.
  static uint16_t fromState(uint32_t state) {
    uint32_t sign = state >> 31, exponent = (state >> 16) % 16;
    return static_cast<uint16_t>(sign << 15 | exponent << 10 |
                                 ((state >> 4) & 0x3ff));
  }
  static constexpr auto kWhole = nxrt_gemm_f16_f32;
  static constexpr auto kPart = nxrt_gemm_part_f16_f32;
};

/// C = A B (+ C with `accumulate`) through T's whole product (`parts` 0) or
/// its part `part` of `parts`.
template <typename T>
void gemm(int64_t part, int64_t parts, int64_t batch, int64_t m, int64_t n,
          int64_t k, const uint16_t *a, int64_t batchA, Layout la,
          const uint16_t *b, int64_t batchB, Layout lb, float *c,
          int64_t batchC, Layout lc, bool accumulate) {
  if (parts == 0)
    T::kWhole(batch, m, n, k, a, batchA, la.rows, la.cols, b, batchB, lb.rows,
              lb.cols, c, batchC, lc.rows, lc.cols, accumulate);
  else
    T::kPart(part, parts, batch, m, n, k, a, batchA, la.rows, la.cols, b,
             batchB, lb.rows, lb.cols, c, batchC, lc.rows, lc.cols, accumulate);
}

/// Values from a fixed sequence, so that a lost bit or a shifted row
/// changes a sum.
template <typename T>
std::vector<uint16_t> sequence(int64_t size, uint32_t seed) {
  std::vector<uint16_t> values(size);
  uint32_t state = seed;
  for (uint16_t &value : values) {
    state = state * 1664525u + 1013904223u;
    value = T::fromState(state);
  }
  return values;
}

/// One product C = A B (+ C with `accumulate`) of `batch` batches, whole or
/// in `parts` parts, checked against sums in double. A's and B's batches
/// are `aSize` and `bSize` elements apart; C is row-major, or column-major
/// with `columnMajorC`.
template <typename T>
void checkProduct(int64_t batch, int64_t m, int64_t n, int64_t k, Layout a,
                  int64_t aSize, Layout b, int64_t bSize, bool accumulate,
                  int64_t parts = 0, bool columnMajorC = false) {
  std::vector<uint16_t> lhs = sequence<T>(batch * aSize, 1);
  std::vector<uint16_t> rhs = sequence<T>(batch * bSize, 2);
  std::vector<double> lhsValues(lhs.size()), rhsValues(rhs.size());
  std::transform(lhs.begin(), lhs.end(), lhsValues.begin(), T::value);
  std::transform(rhs.begin(), rhs.end(), rhsValues.begin(), T::value);
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
          double term = lhsValues[i * aSize + r * a.rows + p * a.cols] *
                        rhsValues[i * bSize + p * b.rows + col * b.cols];
          sum += term;
          magnitude += std::fabs(term);
        }
        expected[at] = sum;
        // Sums in f32 of exact products, in any order.
        bound[at] = (k + 1) * std::ldexp(magnitude, -24) + 1e-30;
      }
  // The parts last to first: none may rely on another's having run.
  for (int64_t part = std::max<int64_t>(parts - 1, 0); part >= 0; --part)
    gemm<T>(part, parts, batch, m, n, k, lhs.data(), aSize, a, rhs.data(),
            bSize, b, out.data(), m * n, c, accumulate);
  for (size_t i = 0; i < out.size(); ++i)
    ASSERT_NEAR(out[i], expected[i], bound[i])
        << T::kName << ": element " << i << " of " << batch << "x" << m << "x"
        << n << "x" << k << (parts ? " in parts" : "")
        << (accumulate ? ", accumulating" : "");
}

template <typename T> class NxrtGemmWidenedFloat : public ::testing::Test {
protected:
  void SetUp() override { nxrt_set_compute_threads(1); }
};

using ElementTypes = ::testing::Types<Bf16, F16>;
TYPED_TEST_SUITE(NxrtGemmWidenedFloat, ElementTypes);

TYPED_TEST(NxrtGemmWidenedFloat, RowMajor) {
  for (bool accumulate : {false, true})
    checkProduct<TypeParam>(1, 64, 48, 40, {40, 1}, 64 * 40, {48, 1}, 40 * 48,
                            accumulate);
}

// The bench's product: B's rows 512 elements apart, which the f32 GEMM of
// AVX2 CPUs reads from a padded copy.
TYPED_TEST(NxrtGemmWidenedFloat, RowsOfBAMultipleOf256Apart) {
  for (bool accumulate : {false, true})
    checkProduct<TypeParam>(1, 512, 512, 512, {512, 1}, 512 * 512, {512, 1},
                            512 * 512, accumulate);
}

TYPED_TEST(NxrtGemmWidenedFloat, TransposedOperands) {
  for (bool accumulate : {false, true}) {
    checkProduct<TypeParam>(1, 33, 70, 20, {1, 33}, 20 * 33, {70, 1}, 20 * 70,
                            accumulate);
    checkProduct<TypeParam>(1, 33, 70, 20, {20, 1}, 33 * 20, {1, 20}, 70 * 20,
                            accumulate);
    checkProduct<TypeParam>(1, 33, 70, 20, {1, 33}, 20 * 33, {1, 20}, 70 * 20,
                            accumulate);
  }
}

// Rows of A and B wider than the product reads (views of larger matrices).
TYPED_TEST(NxrtGemmWidenedFloat, RowsWiderThanTheProduct) {
  for (bool accumulate : {false, true})
    checkProduct<TypeParam>(1, 17, 9, 31, {64, 1}, 17 * 64, {100, 1}, 31 * 100,
                            accumulate);
}

// Layouts no BLAS takes (C column-major, A's elements 2 apart) run the
// plain loop, with the same results.
TYPED_TEST(NxrtGemmWidenedFloat, LayoutsOfThePlainLoop) {
  for (bool accumulate : {false, true}) {
    checkProduct<TypeParam>(1, 12, 10, 7, {7, 1}, 12 * 7, {10, 1}, 7 * 10,
                            accumulate, 0, /*columnMajorC=*/true);
    checkProduct<TypeParam>(1, 12, 10, 7, {14, 2}, 12 * 14, {10, 1}, 7 * 10,
                            accumulate);
  }
}

// Batches, whole and cut into parts across their rows and columns.
TYPED_TEST(NxrtGemmWidenedFloat, BatchesAndParts) {
  for (bool accumulate : {false, true}) {
    checkProduct<TypeParam>(5, 24, 16, 12, {12, 1}, 24 * 12, {16, 1}, 12 * 16,
                            accumulate);
    checkProduct<TypeParam>(5, 24, 16, 12, {12, 1}, 24 * 12, {16, 1}, 12 * 16,
                            accumulate, /*parts=*/3);
    checkProduct<TypeParam>(1, 100, 40, 9, {9, 1}, 100 * 9, {40, 1}, 9 * 40,
                            accumulate, /*parts=*/3);
    checkProduct<TypeParam>(1, 8, 160, 9, {9, 1}, 8 * 9, {160, 1}, 9 * 160,
                            accumulate, /*parts=*/4);
  }
}

// A single row and a single column: a matvec and a vecmat.
TYPED_TEST(NxrtGemmWidenedFloat, VectorProducts) {
  for (bool accumulate : {false, true}) {
    checkProduct<TypeParam>(1, 1, 300, 64, {64, 1}, 64, {300, 1}, 64 * 300,
                            accumulate);
    checkProduct<TypeParam>(1, 300, 1, 64, {64, 1}, 300 * 64, {1, 1}, 64,
                            accumulate);
  }
}

// A NaN or infinity in an operand reaches the sums it is part of.
TYPED_TEST(NxrtGemmWidenedFloat, NaNAndInfinityPropagate) {
  constexpr int64_t kSide = 32;
  std::vector<uint16_t> a(kSide * kSide, TypeParam::kOne);
  std::vector<uint16_t> b(kSide * kSide, TypeParam::kOne);
  a[3 * kSide + 5] = TypeParam::kNaN;      // row 3
  b[7 * kSide + 9] = TypeParam::kInfinity; // column 9
  std::vector<float> c(kSide * kSide, 0.0f);
  gemm<TypeParam>(0, 0, 1, kSide, kSide, kSide, a.data(), 0, {kSide, 1},
                  b.data(), 0, {kSide, 1}, c.data(), 0, {kSide, 1}, false);
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

// Every one of the 65536 values, times one: exactly its value (a NaN stays
// a NaN), once through the widening of the library's path (B's row
// contiguous) and once through the plain loop's (B's elements 2 apart).
// On CPUs with bf16 instructions the library's path is oneDNN's bf16
// kernel, whose instructions (VDPBF16PS, AMX) read a subnormal operand as
// a zero: there, and only there, a subnormal may come back as a zero.
TYPED_TEST(NxrtGemmWidenedFloat, EveryValueWidensExactly) {
  constexpr int64_t kValues = 1 << 16;
  std::vector<uint16_t> one = {TypeParam::kOne};
  std::vector<uint16_t> values(kValues), spread(2 * kValues, TypeParam::kOne);
  for (int64_t i = 0; i < kValues; ++i) {
    values[i] = static_cast<uint16_t>(i);
    spread[2 * i] = static_cast<uint16_t>(i);
  }
  for (int64_t stride : {1, 2}) {
    const uint16_t *b = stride == 1 ? values.data() : spread.data();
    std::vector<float> c(kValues, -1.0f);
    gemm<TypeParam>(0, 0, 1, 1, kValues, 1, one.data(), 0, {1, 1}, b, 0,
                    {stride * kValues, stride}, c.data(), 0, {kValues, 1},
                    false);
    for (int64_t i = 0; i < kValues; ++i) {
      double expected = TypeParam::value(static_cast<uint16_t>(i));
      bool subnormal =
          std::fpclassify(static_cast<float>(expected)) == FP_SUBNORMAL;
      if (std::isnan(expected))
        ASSERT_TRUE(std::isnan(c[i])) << std::hex << i << ", stride " << stride;
      else if (subnormal && stride == 1 && TypeParam::kMayRunNatively &&
               c[i] == 0.0f)
        continue;
      else
        ASSERT_EQ(c[i], expected) << std::hex << i << ", stride " << stride;
    }
  }
}

} // namespace

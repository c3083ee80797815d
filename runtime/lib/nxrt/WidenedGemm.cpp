//===- WidenedGemm.cpp - bf16, f16 and i8 products on the f32 GEMM --------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Widening bf16, f16 and i8 to f32 is exact, and the f32 GEMM runs at the
// CPU's full width. Where the CPU has no bf16 or exact int8 instructions
// (AVX2) the bench's 512^3 bf16 product took 3.9-4.3 ms this way, where
// nx's own register tiles of the widened values took 5.3-5.8, and the i8
// one 3.4-4.1 against 5.9-6.8 (docs/Servers.md).
//
//===----------------------------------------------------------------------===//

#include "WidenedGemm.h"

#include "OneDnnMatmul.h"
#include "Sgemm.h"
#include "ThreadBuffer.h"

#include <algorithm>
#include <type_traits>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace {

using nxrt::BFloat16;
using nxrt::Float16;
using FloatBuffer = nxrt::ThreadBuffer<float>;

/// The calling thread's buffers for the widened operands of bf16, f16 and
/// i8 products, and the sums of an i8 product's runs.
struct WideningBuffers {
  FloatBuffer a, b, sums;
  nxrt::ThreadBuffer<int32_t> total;
};

WideningBuffers &wideningBuffers() {
  thread_local WideningBuffers buffers;
  return buffers;
}

const uint16_t *bitsOf(const BFloat16 *values) {
  return reinterpret_cast<const uint16_t *>(values);
}

/// The `rows` x `cols` matrix `from`, whose rows are `leading` elements
/// apart, widened to f32 in `buffer` with rows `stride` floats apart;
/// nullptr when there is no memory for it.
template <typename In>
const float *widened(FloatBuffer &buffer, const In *from, int rows, int cols,
                     int leading, int stride) {
  float *to = buffer.get(static_cast<size_t>(rows) * stride);
  if (!to)
    return nullptr;
  for (int64_t r = 0; r < rows; ++r) {
    if constexpr (std::is_same_v<In, Float16>)
      nxrt::widenHalves(from + r * leading, to + r * stride, cols);
    else
      for (int64_t c = 0; c < cols; ++c)
        to[r * stride + c] = static_cast<float>(from[r * leading + c]);
  }
  return to;
}

/// C = op(A) op(B) + beta C of narrow float operands, both widened to f32
/// in the calling thread's buffers, on the f32 GEMM.
template <typename In>
bool gemmOfWidened(CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, int m, int n, int k,
                   const In *a, int lda, const In *b, int ldb, float beta,
                   float *c, int ldc) {
  // Each operand as it is stored: m x k or, transposed, k x m; likewise B.
  int aRows = ta == CblasNoTrans ? m : k, aCols = ta == CblasNoTrans ? k : m;
  int bRows = tb == CblasNoTrans ? k : n, bCols = tb == CblasNoTrans ? n : k;
  // The widened B's rows at the stride sgemm reads fastest.
  int strideB = tb == CblasNoTrans ? nxrt::sgemmStrideOfB(m, n, k) : bCols;
  WideningBuffers &buffers = wideningBuffers();
  const float *wideA = widened(buffers.a, a, aRows, aCols, lda, aCols);
  const float *wideB = widened(buffers.b, b, bRows, bCols, ldb, strideB);
  return wideA && wideB &&
         nxrt::sgemm(ta, tb, m, n, k, wideA, aCols, wideB, strideB, beta, c,
                     ldc);
}

/// An f16's value from its bits: sign, 5 exponent bits biased by 15, 10
/// mantissa bits.
float halfToFloat(uint16_t bits) {
  uint32_t sign = static_cast<uint32_t>(bits & 0x8000u) << 16;
  uint32_t exponent = (bits >> 10) & 0x1fu, mantissa = bits & 0x3ffu;
  if (exponent == 0) {
    // Zero or subnormal: mantissa * 2^-24, which f32 holds exactly.
    float magnitude = static_cast<float>(mantissa) * 0x1p-24f;
    return sign ? -magnitude : magnitude;
  }
  // Infinity and NaN (payload kept) at f32's largest exponent; normal
  // numbers rebiased from 15 to 127.
  uint32_t widenedExponent = exponent == 0x1fu ? 0xffu : exponent + 112;
  uint32_t word = sign | (widenedExponent << 23) | (mantissa << 13);
  float value;
  std::memcpy(&value, &word, sizeof(value));
  return value;
}

using WidenHalvesFunction = void (*)(const Float16 *, float *, int64_t);

void widenHalvesOneByOne(const Float16 *from, float *to, int64_t count) {
  for (int64_t i = 0; i < count; ++i)
    to[i] = halfToFloat(from[i].bits);
}

#if defined(__x86_64__)
/// Eight values an instruction (VCVTPH2PS), exact like halfToFloat.
__attribute__((target("avx,f16c"))) void
widenHalvesF16c(const Float16 *from, float *to, int64_t count) {
  int64_t i = 0;
  for (; i + 8 <= count; i += 8) {
    __m128i halves =
        _mm_loadu_si128(reinterpret_cast<const __m128i *>(from + i));
    _mm256_storeu_ps(to + i, _mm256_cvtph_ps(halves));
  }
  for (; i < count; ++i)
    to[i] = _cvtsh_ss(from[i].bits);
}
#endif

WidenHalvesFunction pickWidenHalves() {
#if defined(__x86_64__)
  if (__builtin_cpu_supports("f16c") && __builtin_cpu_supports("avx"))
    return widenHalvesF16c;
#endif
  return widenHalvesOneByOne;
}

/// The most steps of an i8 product's reduction whose sums f32 holds
/// exactly: every product of two i8 is at most 2^14 in magnitude, so the
/// sums of 1024 of them are integers of at most 2^24.
constexpr int kExactI8Steps = 1024;

/// Adds the m x n matrix `from` (rows `ldf` apart) to `to` (rows `ldt`
/// apart), or writes it over `to` with `overwrite`: the sums of a run of an
/// i8 product (f32 holding whole numbers of at most 2^24 in magnitude), or
/// their i32 total. i32 wraps, as compiled code's arith.addi does.
template <typename T>
void addInto(const T *from, int ldf, int m, int n, bool overwrite, int32_t *to,
             int ldt) {
  for (int64_t r = 0; r < m; ++r)
    for (int64_t c = 0; c < n; ++c) {
      auto value = static_cast<int32_t>(from[r * ldf + c]);
      int32_t &sum = to[r * ldt + c];
      sum = overwrite ? value
                      : static_cast<int32_t>(static_cast<uint32_t>(sum) +
                                             static_cast<uint32_t>(value));
    }
}

} // namespace

namespace nxrt {

bool gemmBf16(CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, int m, int n, int k,
              const BFloat16 *a, int lda, const BFloat16 *b, int ldb,
              float beta, float *c, int ldc) {
  if (matmulBf16(ta == CblasTrans, tb == CblasTrans, m, n, k, bitsOf(a), lda,
                 bitsOf(b), ldb, beta != 0.0f, c, ldc))
    return true;
  return gemmOfWidened(ta, tb, m, n, k, a, lda, b, ldb, beta, c, ldc);
}

Float16::operator float() const { return halfToFloat(bits); }

void widenHalves(const Float16 *from, float *to, int64_t count) {
  static const WidenHalvesFunction function = pickWidenHalves();
  function(from, to, count);
}

bool gemmF16(CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, int m, int n, int k,
             const Float16 *a, int lda, const Float16 *b, int ldb, float beta,
             float *c, int ldc) {
  return gemmOfWidened(ta, tb, m, n, k, a, lda, b, ldb, beta, c, ldc);
}

bool gemmI8(CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, int m, int n, int k,
            const int8_t *a, int lda, const int8_t *b, int ldb, int32_t beta,
            int32_t *c, int ldc) {
  WideningBuffers &buffers = wideningBuffers();
  if (hasExactNativeI8()) {
    // oneDNN would add to C in f32 (its sum post-op): a product to add is
    // computed apart and added here, wrapping.
    int32_t *product =
        beta == 0 ? c : buffers.total.get(static_cast<size_t>(m) * n);
    int ldp = product == c ? ldc : n;
    if (product && matmulI8(ta == CblasTrans, tb == CblasTrans, m, n, k, a, lda,
                            b, ldb, product, ldp)) {
      if (product != c)
        addInto(product, ldp, m, n, false, c, ldc);
      return true;
    }
  }
  bool oneRun = k <= kExactI8Steps;
  float *sums = buffers.sums.get(static_cast<size_t>(m) * n);
  // With several runs (or C to add to), the runs are summed apart from C.
  int32_t *total =
      oneRun && beta == 0 ? c : buffers.total.get(static_cast<size_t>(m) * n);
  if (!sums || !total)
    return false;
  int ldt = total == c ? ldc : n;
  for (int first = 0; first < k; first += kExactI8Steps) {
    int steps = std::min(kExactI8Steps, k - first);
    // The run's columns of A and rows of B, each as it is stored.
    bool plainA = ta == CblasNoTrans, plainB = tb == CblasNoTrans;
    const int8_t *runA = plainA ? a + first : a + int64_t(first) * lda;
    const int8_t *runB = plainB ? b + int64_t(first) * ldb : b + first;
    int aCols = plainA ? steps : m, bCols = plainB ? n : steps;
    int strideB = plainB ? sgemmStrideOfB(m, n, steps) : bCols;
    const float *wideA =
        widened(buffers.a, runA, plainA ? m : steps, aCols, lda, aCols);
    const float *wideB =
        widened(buffers.b, runB, plainB ? steps : n, bCols, ldb, strideB);
    if (!wideA || !wideB ||
        !sgemm(ta, tb, m, n, steps, wideA, aCols, wideB, strideB, 0.0f, sums,
               n))
      return false;
    addInto(sums, n, m, n, first == 0, total, ldt);
  }
  if (total != c)
    addInto(total, ldt, m, n, beta == 0, c, ldc);
  return true;
}

WideningSizes getWideningSizes(nxrt_dtype_t dtype, int64_t aFloats,
                               int64_t bFloats, int64_t cElements) {
  auto count = [](int64_t size) {
    return static_cast<size_t>(std::max<int64_t>(size, 0));
  };
  size_t a = count(aFloats), b = count(bFloats), c = count(cElements);
  switch (dtype) {
  case NXRT_BF16:
    return hasNativeBf16() ? WideningSizes{} : WideningSizes{a, b, 0, 0};
  case NXRT_F16:
    return {a, b, 0, 0};
  case NXRT_I8:
    return hasExactNativeI8() ? WideningSizes{0, 0, 0, c}
                              : WideningSizes{a, b, c, c};
  default:
    return {};
  }
}

void reserveWideningBuffers(const WideningSizes &sizes) {
  WideningBuffers &buffers = wideningBuffers();
  buffers.a.reserve(sizes.aFloats);
  buffers.b.reserve(sizes.bFloats);
  buffers.sums.reserve(sizes.sums);
  buffers.total.reserve(sizes.total);
}

} // namespace nxrt

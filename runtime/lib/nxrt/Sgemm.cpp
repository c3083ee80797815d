//===- Sgemm.cpp - f32 products on oneDNN's sgemm -------------------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// oneDNN's sgemm picks its kernels by the instruction sets the CPU reports
// when it runs. On CPUs without AVX-512, it reads a small product's B in
// place, and a B whose rows lie a multiple of 1 KiB apart goes to it as a
// padded copy instead (readsBAtConflictingStride).
//
//===----------------------------------------------------------------------===//

#include "Sgemm.h"

#include "ThreadBuffer.h"

#include <oneapi/dnnl/dnnl.h>

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace {

char transposeFlag(CBLAS_TRANSPOSE transpose) {
  return transpose == CblasTrans ? 'T' : 'N';
}

/// The row stride of a padded copy of B's `n` columns: whole cache lines
/// plus one, never a multiple of 256 floats.
int64_t paddedStride(int n) {
  int64_t stride = (int64_t(n) + 15) / 16 * 16 + 16;
  return stride % 256 == 0 ? stride + 16 : stride;
}

/// The most floats a padded copy of B takes: larger ones cost more than the
/// conflicts they avoid.
constexpr int64_t kMaxCopiedFloats = int64_t(1) << 21;

/// The calling thread's buffer for padded copies of B.
nxrt::ThreadBuffer<float> &paddedRowsBuffer() {
  thread_local nxrt::ThreadBuffer<float> buffer;
  return buffer;
}

/// A copy of the k x n matrix `b`, whose rows are `ldb` floats apart, in
/// the calling thread's buffer with rows paddedStride(n) apart; nullptr
/// when there is no memory for it.
const float *paddedRows(const float *b, int k, int n, int ldb) {
  int64_t stride = paddedStride(n);
  float *copy = paddedRowsBuffer().get(static_cast<size_t>(k) * stride);
  if (!copy)
    return nullptr;
  for (int64_t row = 0; row < k; ++row)
    std::memcpy(copy + row * stride, b + row * ldb,
                static_cast<size_t>(n) * sizeof(float));
  return copy;
}

/// Whether oneDNN runs the sgemm of its AVX and AVX2 kernels: on a CPU with
/// AVX but without AVX-512 (or with DNNL_MAX_CPU_ISA set between the two).
/// Without AVX, it packs every operand.
bool hasAvx2SgemmOnly() {
  static const bool avx2Only = [] {
    auto isa = static_cast<unsigned>(dnnl_get_effective_cpu_isa());
    auto avx = static_cast<unsigned>(dnnl_cpu_isa_avx);
    auto avx512 = static_cast<unsigned>(dnnl_cpu_isa_avx512_core);
    return (isa & avx) == avx && (isa & avx512) != avx512;
  }();
  return avx2Only;
}

/// Whether dnnl_sgemm would read a row-major B of `ldb` floats a row in
/// place at a stride that puts its rows in the same cache sets. oneDNN
/// 2.6's AVX2 sgemm multiplies a product of fewer than about 264 rows or
/// columns (1/m + 1/n >= 0.0038, its gemm_driver.cpp) with kernels that
/// read B where it lies instead of packing it. Rows a multiple of 256 floats
/// apart (1 KiB; a 512-wide layer's weights are 2 KiB a row) then share cache
/// sets: on an AMD Zen 3, a 256x784 by 784x512 product took 3.4 ms so and 2.3
/// ms with B's rows 528 floats apart, 512^3 4.5 ms and 2.9 ms. Its AVX-512 path
/// packs such a B itself. From 16 rows of A on, a padded copy of B costs less
/// than it saves (8 rows: as much).
bool readsBAtConflictingStride(int m, int n, int k, int ldb) {
  constexpr int kConflictingStride = 256, kMinRows = 16;
  constexpr double kNoCopyThreshold = 0.0038;
  return m >= kMinRows && n > 1 && ldb % kConflictingStride == 0 &&
         1.0 / m + 1.0 / n >= kNoCopyThreshold &&
         int64_t(k) * paddedStride(n) <= kMaxCopiedFloats && hasAvx2SgemmOnly();
}

} // namespace

namespace nxrt {

bool sgemm(CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, int m, int n, int k,
           const float *a, int lda, const float *b, int ldb, float beta,
           float *c, int ldc) {
  if (tb == CblasNoTrans && readsBAtConflictingStride(m, n, k, ldb))
    if (const float *padded = paddedRows(b, k, n, ldb))
      return dnnl_sgemm(transposeFlag(ta), 'N', m, n, k, 1.0f, a, lda, padded,
                        paddedStride(n), beta, c, ldc) == dnnl_success;
  return dnnl_sgemm(transposeFlag(ta), transposeFlag(tb), m, n, k, 1.0f, a, lda,
                    b, ldb, beta, c, ldc) == dnnl_success;
}

void reservePaddedRows(size_t floats) {
  if (hasAvx2SgemmOnly())
    paddedRowsBuffer().reserve(
        std::min(floats, static_cast<size_t>(kMaxCopiedFloats)));
}

int sgemmStrideOfB(int m, int n, int k) {
  return readsBAtConflictingStride(m, n, k, n)
             ? static_cast<int>(paddedStride(n))
             : n;
}

} // namespace nxrt

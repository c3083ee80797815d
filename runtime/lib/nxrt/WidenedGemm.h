//===- WidenedGemm.h - narrow products on the f32 GEMM ----------*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Products of narrow operands that compiled code hands to libnxrt: bf16 and
// f16 into f32, and i8 into i32. All widen their operands to f32, exactly,
// into buffers of the calling thread and run on oneDNN's f32 GEMM, but
// where the CPU has instructions of its own for them: bf16 then runs on
// oneDNN's bf16 kernels and i8 on its int8 ones (OneDnnMatmul.h).
//
//===----------------------------------------------------------------------===//

#ifndef NXRT_LIB_WIDENEDGEMM_H
#define NXRT_LIB_WIDENEDGEMM_H

#include "nxrt/nxrt.h"

#include <cblas.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace nxrt {

/// A bf16 element as compiled code stores it: the upper half of an f32's
/// bits. Widening it to f32 is exact.
struct BFloat16 {
  uint16_t bits;

  explicit operator float() const {
    uint32_t word = static_cast<uint32_t>(bits) << 16;
    float value;
    std::memcpy(&value, &word, sizeof(value));
    return value;
  }
};

/// An IEEE half (f16) element as compiled code stores it. Widening it to
/// f32 is exact: every f16, subnormals included, is an f32.
struct Float16 {
  uint16_t bits;

  explicit operator float() const;
};

/// Widens `count` f16 values at `from` to f32 at `to`: with the CPU's F16C
/// conversions where it has them (every x86-64-v3 CPU), else one value at a
/// time. Thread-safe.
void widenHalves(const Float16 *from, float *to, int64_t count);

/// One row-major product C = op(A) op(B) + beta C of bf16 operands into
/// f32, in BLAS's conventions, beta 1 or 0 (then C is not read), on the
/// calling thread: oneDNN's bf16 kernel where the CPU has one, else both
/// operands widened to f32 and the f32 GEMM. Returns false, before it wrote
/// C, when neither could run (no memory). Thread-safe.
bool gemmBf16(CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, int m, int n, int k,
              const BFloat16 *a, int lda, const BFloat16 *b, int ldb,
              float beta, float *c, int ldc);

/// The same for f16 operands into f32: both operands widened to f32 and the
/// f32 GEMM, on every CPU (oneDNN 2.6 has no f16 kernels for CPUs).
bool gemmF16(CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, int m, int n, int k,
             const Float16 *a, int lda, const Float16 *b, int ldb, float beta,
             float *c, int ldc);

/// The same for i8 operands into i32, as compiled code computes them
/// (sign-extended, products and sums wrapping in i32), exactly: oneDNN's
/// int8 kernel where it is exact (AVX-512 VNNI, AMX), else the f32 GEMM of
/// the widened operands over runs of the reduction short enough for f32 to
/// sum them exactly, the runs' sums added in i32. Thread-safe.
bool gemmI8(CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, int m, int n, int k,
            const int8_t *a, int lda, const int8_t *b, int ldb, int32_t beta,
            int32_t *c, int ldc);

/// The elements of each widening buffer of a thread: A's and B's floats,
/// the f32 sums of an i8 product's run and its i32 total.
struct WideningSizes {
  size_t aFloats = 0, bFloats = 0, sums = 0, total = 0;
};

/// The buffers a product of `dtype` operands (NXRT_BF16, NXRT_F16, NXRT_I8)
/// with A and B of `aFloats` and `bFloats` widened floats and C of
/// `cElements` uses on this CPU: none for bf16 on oneDNN's bf16 kernels,
/// only the total for i8 on its int8 kernels (a product added to C), none
/// for other dtypes. Negative sizes count as 0. Thread-safe.
WideningSizes getWideningSizes(nxrt_dtype_t dtype, int64_t aFloats,
                               int64_t bFloats, int64_t cElements);

/// Grows the calling thread's widening buffers to `sizes` and writes them,
/// so that its first product finds their pages mapped. A failed allocation
/// is left to that product. Thread-safe (each thread has its own).
void reserveWideningBuffers(const WideningSizes &sizes);

} // namespace nxrt

#endif // NXRT_LIB_WIDENEDGEMM_H

//===- Sgemm.h - f32 products on oneDNN's sgemm -----------------*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef NXRT_LIB_SGEMM_H
#define NXRT_LIB_SGEMM_H

#include <cblas.h>

#include <cstddef>

namespace nxrt {

/// One row-major product C = op(A) op(B) + beta C, in BLAS's conventions,
/// beta 1 or 0 (then C is not read), on oneDNN's sgemm with the calling
/// thread's OpenMP team size. Returns false when oneDNN refused it (no
/// memory for its packed panels), before it wrote C; the caller then
/// computes it itself. Thread-safe.
bool sgemm(CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, int m, int n, int k,
           const float *a, int lda, const float *b, int ldb, float beta,
           float *c, int ldc);

/// The row stride, in floats, for a fresh row-major copy of a k x n B of an
/// m-row product that sgemm reads as it is: n, or a padded stride where
/// oneDNN's AVX2 kernels would read rows n floats apart in place, in
/// conflicting cache sets (sgemm would copy it again). Thread-safe.
int sgemmStrideOfB(int m, int n, int k);

/// Grows the calling thread's buffer for padded copies of B to `floats`
/// (at most what any copy takes) and writes it, on CPUs whose sgemm reads
/// B in place; elsewhere does nothing. A failed allocation is left to the
/// first product. Thread-safe (each thread has its own).
void reservePaddedRows(size_t floats);

} // namespace nxrt

#endif // NXRT_LIB_SGEMM_H

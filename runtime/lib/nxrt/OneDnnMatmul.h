//===- OneDnnMatmul.h - bf16 and i8 products on oneDNN ----------*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef NXRT_LIB_ONEDNNMATMUL_H
#define NXRT_LIB_ONEDNNMATMUL_H

#include <cstdint>

namespace nxrt {

/// Whether this CPU multiplies bf16 with instructions of its own (AVX-512
/// BF16, AMX), as far as oneDNN may use them (DNNL_MAX_CPU_ISA lowers it).
/// Thread-safe.
bool hasNativeBf16();

/// Whether oneDNN's int8 kernels are exact on this CPU: with AVX-512 VNNI
/// or AMX every product of two i8 and every sum stays in 32-bit integers,
/// wrapping. Without them the kernels pair products in saturating 16-bit
/// sums. Thread-safe.
bool hasExactNativeI8();

/// C = op(A) op(B), or C += op(A) op(B) with `accumulate`, on oneDNN's bf16
/// matmul kernel, on the calling thread's OpenMP team size (libnxrt's
/// callers set one). A is m x k and B k x n after their transposition,
/// each row-major with `lda` / `ldb` elements a row before it (BLAS's
/// convention); they hold bf16 bits, C holds f32 with rows `ldc` apart.
/// Each product is exact in f32 and the sums are f32's, as in
/// linalg.matmul of bf16 into f32; only their order is the kernel's.
/// Returns false before it writes C when the CPU has no bf16 instructions
/// or oneDNN refused the product (no kernel for the layout, no memory):
/// the caller computes it another way. Thread-safe.
bool matmulBf16(bool transA, bool transB, int64_t m, int64_t n, int64_t k,
                const uint16_t *a, int64_t lda, const uint16_t *b, int64_t ldb,
                bool accumulate, float *c, int64_t ldc);

/// C = op(A) op(B) of i8 operands into i32 on oneDNN's int8 matmul kernel,
/// in the layouts of matmulBf16, exactly as compiled code computes it
/// (sign-extended, products and sums wrapping in i32). Returns false
/// before it writes C when the kernels are not exact on this CPU
/// (hasExactNativeI8) or oneDNN refused the product. Thread-safe.
bool matmulI8(bool transA, bool transB, int64_t m, int64_t n, int64_t k,
              const int8_t *a, int64_t lda, const int8_t *b, int64_t ldb,
              int32_t *c, int64_t ldc);

} // namespace nxrt

#endif // NXRT_LIB_ONEDNNMATMUL_H

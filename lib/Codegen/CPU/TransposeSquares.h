//===- TransposeSquares.h - transposes as networks of shuffles -*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// nx-vectorize-linalg cuts a transposing copy into squares of vectors. The
// LLVM lowering of vector.transpose has a shuffle network for squares of
// 16 32-bit lanes (AVX-512); any other square it lowers element by
// element, and for eight lanes (AVX2) LLVM rebuilt that from about 100
// instructions per square with spills, where three rounds of eight
// two-input shuffles do.
//
//===----------------------------------------------------------------------===//

#ifndef NX_LIB_CODEGEN_CPU_TRANSPOSESQUARES_H
#define NX_LIB_CODEGEN_CPU_TRANSPOSESQUARES_H

#include "mlir/IR/PatternMatch.h"

namespace mlir::nx {

/// Adds the patterns that cut a vector.transpose of a block wider than its
/// vectors into squares of `vectorBits` per side (vector unrolling), and
/// that rewrite a transposed square of eight 32-bit lanes as 24 two-input
/// vector.shuffle ops, each of which x86 runs as one instruction
/// (UNPCKLPS/UNPCKHPS, SHUFPS, VPERM2F128).
void populateTransposeSquarePatterns(RewritePatternSet &patterns,
                                     int64_t vectorBits);

} // namespace mlir::nx

#endif // NX_LIB_CODEGEN_CPU_TRANSPOSESQUARES_H

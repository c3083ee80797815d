//===- ReciprocalDivisors.h - divide once per divisor -----------*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef NX_CODEGEN_CPU_RECIPROCALDIVISORS_H
#define NX_CODEGEN_CPU_RECIPROCALDIVISORS_H

#include <cstdint>

namespace mlir {
class RewritePatternSet;
namespace nx {

/// The pattern of nx-reciprocal-divisors: a linalg.generic on tensors whose
/// f32 input only divides (`arith.divf` by its block argument) and whose
/// every element serves at least eight points (its map drops loops of that
/// many points, or a dynamic one) reads the input's reciprocals instead,
/// computed first by a generic of the input's shape, and multiplies.
/// `rewritten`, if not null, counts the inputs rewritten.
void populateReciprocalDivisorPatterns(RewritePatternSet &patterns,
                                       int64_t *rewritten);

} // namespace nx
} // namespace mlir

#endif // NX_CODEGEN_CPU_RECIPROCALDIVISORS_H

//===- ReversedViews.h - reads of reversed views as shuffles ----*- C++ -*-===//
//-*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef NX_CODEGEN_CPU_REVERSEDVIEWS_H
#define NX_CODEGEN_CPU_REVERSEDVIEWS_H

namespace mlir {
class RewritePatternSet;
namespace nx {

/// A 1-D `vector.transfer_read` or `vector.transfer_write` (in bounds,
/// unmasked, along the innermost dimension) of a buffer whose innermost
/// stride is -1, a reversed view of nx-reversed-views, becomes an access of
/// the same elements in memory order and a `vector.shuffle` that reverses
/// them: one vector load or store and one permutation instead of a scalar
/// access per lane. The view in memory order of a view of negated strides
/// of a buffer is that buffer, so streamed stores still recognize it as an
/// output.
void populateReversedRowPatterns(RewritePatternSet &patterns);

} // namespace nx
} // namespace mlir

#endif // NX_CODEGEN_CPU_REVERSEDVIEWS_H

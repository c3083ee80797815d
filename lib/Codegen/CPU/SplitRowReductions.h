//===- SplitRowReductions.h - split row reductions in registers -*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// nx-split-reductions turns a reduction along the rows' contiguous dimension
// into a fill of partial results, a reduction over steps of `width` elements
// into them, and a short reduction of each row's partial results. On
// buffers, vectorized op by op, the partial results would go through memory
// at every row's start and end. nx-vectorize-linalg recognizes the three and
// emits them as one loop per row whose accumulators stay in registers.
//
//===----------------------------------------------------------------------===//

#ifndef NX_LIB_CODEGEN_CPU_SPLITROWREDUCTIONS_H
#define NX_LIB_CODEGEN_CPU_SPLITROWREDUCTIONS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"

#include <optional>

namespace mlir::nx {

/// A split row reduction on buffers, in one block, its rows indexed by one
/// or more leading loops:
///   fill    the partial results (rows x width) with the combiner's neutral
///           element;
///   partial reduces rows x steps x width into them (loops: the rows'
///           parallel ones, reduction, parallel);
///   final   reduces each row of them into the output (rows), with the same
///           combiner.
/// The partial results' buffer is an allocation nothing else reads.
struct SplitRowReduction {
  linalg::FillOp fill;
  linalg::LinalgOp partial;
  linalg::LinalgOp final;
  memref::AllocOp buffer;
};

/// The split row reduction whose short final reduction is `final`, if it is
/// one: static steps and width, a combiner of one operation that
/// vector.reduction has a kind for, and partial results read only by it.
std::optional<SplitRowReduction> matchSplitRowReduction(linalg::LinalgOp final);

/// Replaces `reduction` by a loop over its rows, each reducing its row in
/// `width / lanes` vector accumulators that start from the fill's value,
/// then combining them and their lanes into the output element
/// (vector.reduction); erases the partial results' buffer. Fails, changing
/// nothing, when `lanes` does not divide the width or would need more than
/// eight accumulators.
LogicalResult vectorizeSplitRowReduction(RewriterBase &rewriter,
                                         SplitRowReduction reduction,
                                         int64_t lanes);

} // namespace mlir::nx

#endif // NX_LIB_CODEGEN_CPU_SPLITROWREDUCTIONS_H

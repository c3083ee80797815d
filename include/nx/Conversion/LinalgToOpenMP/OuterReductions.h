//===- OuterReductions.h - outer reductions shared by workers ---*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A reduction along its outermost loop (a column sum) leaves no parallel
// loop that owns its output. nx-linalg-to-openmp shares its rows among as
// many workers as the team has threads instead: each reduces a contiguous
// share of the rows into one row of partial results of its own, and the
// same team then combines the workers' rows into the output, each thread a
// tile of it (after the team when the output has one element).
//
//===----------------------------------------------------------------------===//

#ifndef NX_CONVERSION_LINALGTOOPENMP_OUTERREDUCTIONS_H
#define NX_CONVERSION_LINALGTOOPENMP_OUTERREDUCTIONS_H

#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Support/LLVM.h"

#include <cstdint>

namespace mlir {
class RewriterBase;
} // namespace mlir

namespace mlir::nx {

/// The OpenMP runtime's team size, which the workers of an outer reduction
/// follow when the pass has no num-threads-function.
inline constexpr StringLiteral kOpenMPMaxThreadsFunction =
    "omp_get_max_threads";

/// Rows nx-vectorize-linalg adds to a row of partial results in one pass:
/// a worker's block of rows is a multiple of them.
inline constexpr int64_t kOuterReductionRowsPerPass = 4;

/// Rows of a block of an outer reduction, or of a tile of a split row
/// reduction, while they still make kEnoughWorkers blocks or tiles:
/// nx-vectorize-linalg reads one row of each quarter of them at once, and
/// each quarter is then a sequential stream of four rows, not one. 2048x2048
/// column sums in C, two threads on AMD Zen 3: 1.15x a four-stream read of
/// the input, against 1.25-1.35x with blocks of four adjacent rows.
inline constexpr int64_t kStreamedRows = 16;

/// Blocks or tiles a reduction should keep for its threads: one per thread
/// of a 16-core host.
inline constexpr int64_t kEnoughWorkers = 16;

/// Whether `op`, on buffers, is a single reduction along `sharedLoop` (its
/// outermost loop of an extent other than 1) whose innermost loop is
/// parallel, with static sizes, at least `minWork` iteration points, one
/// output that no input is a view of, and one combiner with a neutral
/// element (a sum, a product, a maximum): what rewriteOuterReduction takes.
/// Tiling-safety of its indices is the caller's to check.
bool isSplittableOuterReduction(linalg::LinalgOp op, unsigned sharedLoop,
                                int64_t minWork);

/// Replaces `op` (isSplittableOuterReduction) by an OpenMP team whose
/// workers, one per thread (the team size is `numThreadsFunction`'s result,
/// a func.func returning i32 that must be declared), each fill one row of
/// a fresh buffer of partial results with the combiner's neutral element
/// and reduce a contiguous share of `op`'s rows into it, in blocks of a
/// static number of rows; then the partial rows are combined into `op`'s
/// output. The combination changes the order of the combiner's operations.
LogicalResult rewriteOuterReduction(linalg::LinalgOp op, unsigned sharedLoop,
                                    StringRef numThreadsFunction,
                                    RewriterBase &rewriter);

} // namespace mlir::nx

#endif // NX_CONVERSION_LINALGTOOPENMP_OUTERREDUCTIONS_H

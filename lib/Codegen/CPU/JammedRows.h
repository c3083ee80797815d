//===- JammedRows.h - several rows per pass of a reduction ------*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A reduction over an outer or middle loop, tiled along its innermost one,
// keeps a long row of accumulators in memory and combines one input row into
// it per pass. nx-vectorize-linalg jams several rows into each pass, so that
// every accumulator is read and written once per pass rather than once per
// row:
//
//   adjacent  rows r, r+1, r+2, r+3: each accumulator still combines the
//             rows in their order, so any combiner may take it;
//   segments  rows r, r+n/4, r+n/2, r+3n/4 of n: four distant rows, each
//             segment read in order. The rows combine in another order, so
//             only combiners that may reassociate take it.
//
// Segments are what memory-bound reductions want: each segment is one
// sequential stream that hardware prefetchers follow, and four of them keep
// more cache misses in flight than one. Adjacent rows of 1 KiB (a maximum
// over the middle axis of 64x256x256) are not: each pass reads the same
// page at four places and no stream is sequential.
//
//===----------------------------------------------------------------------===//

#ifndef NX_LIB_CODEGEN_CPU_JAMMEDROWS_H
#define NX_LIB_CODEGEN_CPU_JAMMEDROWS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::nx {

/// How the input rows of a reduction over an outer loop are jammed.
enum class RowJam {
  /// One row per pass.
  None,
  /// Consecutive rows, combined in order.
  Adjacent,
  /// One row of each of kJammedRows equal segments of the rows.
  Segments,
};

/// Rows one pass over a row of accumulators combines.
inline constexpr int64_t kJammedRows = 4;

/// Whether `combiner`, which reads a reduction's running value, gives the
/// same result whatever order the values come in: associative and
/// commutative, and allowed to reassociate (the `reassoc` flag on a
/// floating-point combiner). Integer combiners are exact in any order
/// unless overflow flags make an intermediate overflow poison.
bool mayReorderCombinations(Operation *combiner);

/// How `op`, tiled by `tileSizes`, may have its rows jammed:
///   None     unless the tile loop around the innermost one is a
///            reduction's;
///   Segments when every combiner may reassociate (a floating-point one
///            with the `reassoc` flag, which nx-reassociate-reductions sets
///            unless strict-reductions, or an associative and commutative
///            integer one);
///   Adjacent otherwise, unless a NaN-propagating maximum or minimum
///            combines: those are several dependent instructions each on
///            x86, too slow to chain in order;
///   None     then.
RowJam classifyRowJam(linalg::LinalgOp op, ArrayRef<int64_t> tileSizes);

/// Jams the rows of the reduction loop directly around `inner` (the loop
/// over a long row of accumulators) as `jam` says, kJammedRows of them per
/// pass. Takes only loops of a static trip count that kJammedRows divides;
/// returns whether it jammed.
bool jamReductionRows(RewriterBase &rewriter, scf::ForOp inner, RowJam jam);

} // namespace mlir::nx

#endif // NX_LIB_CODEGEN_CPU_JAMMEDROWS_H

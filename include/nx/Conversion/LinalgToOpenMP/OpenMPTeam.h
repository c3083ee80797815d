//===- OpenMPTeam.h - one loop shared among an OpenMP team ------*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// nx-linalg-to-openmp shares a loop nest's outermost loop among an
// OpenMP team, and nx-linalg-to-blas a large product's parts: both
// fork the same team around one worksharing loop, sized by the same
// num-threads function, and check their input the same way first.
//
//===----------------------------------------------------------------------===//

#ifndef NX_CONVERSION_LINALGTOOPENMP_OPENMPTEAM_H
#define NX_CONVERSION_LINALGTOOPENMP_OPENMPTEAM_H

#include "nx/Support/PassOptions.h"
#include "nx/Support/StaticBounds.h"

#include "mlir/IR/Value.h"
#include "mlir/Support/LLVM.h"

namespace mlir {
class Block;
class OpBuilder;
class RewriterBase;
struct Range;
namespace linalg {
class LinalgOp;
} // namespace linalg
} // namespace mlir

namespace mlir::nx {

/// What nx-linalg-to-openmp and nx-linalg-to-blas (`pass`) check
/// before they rewrite anything: their `min-work` option is at least 1, and
/// no linalg op under `root` has known sizes that put an access out of
/// bounds (verifyStaticBoundsBeforeRewrite). Errors are reported at the op.
template <typename NumericOption>
LogicalResult checkTeamPassInput(Operation *root, StringRef pass,
                                 const NumericOption &minWork) {
  if (failed(checkPassOptionAtLeast(root, pass, minWork, 1)))
    return failure();
  return verifyStaticBoundsBeforeRewrite(root);
}

/// A call of `numThreadsFunction` (see declareNumThreadsFunction): the size
/// of the team about to be forked, as an i32.
Value callNumThreadsFunction(OpBuilder &builder, Location loc,
                             StringRef numThreadsFunction);

/// Forks an OpenMP team (`omp.parallel`, with `ifExpr` and `numThreads`
/// when set) that shares the iterations of one loop from `lowerBound` to
/// `upperBound` by `step` among its threads (`omp.wsloop` around
/// `omp.loop_nest`). Returns the loop nest's body, an empty block whose one
/// argument is the induction variable, with the builder's insertion point
/// in it; the caller fills it and ends it with `omp.yield`.
Block *createTeamLoop(OpBuilder &builder, Location loc, Value ifExpr,
                      Value numThreads, Value lowerBound, Value upperBound,
                      Value step);

/// An omp.wsloop of one loop nest from `lowerBound` to `upperBound` by
/// `step` at the builder's insertion point, inside a team: the block of the
/// nest's body, empty, with the induction variable as its argument.
Block *createWorksharingLoop(OpBuilder &builder, Location loc, Value lowerBound,
                             Value upperBound, Value step);

/// The number of points of a nest of `ranges`, folded as built: a constant
/// for a static nest.
Value countPoints(ArrayRef<Range> ranges, Location loc, OpBuilder &builder);

/// `op` on `rows` rows of its loop `sharedLoop` from `firstRow`, every other
/// loop whole: the op that runs one tile of a shared loop. With
/// `lastTileMayBeShort`, a tile that would pass the loop's extent (static,
/// or read from the op's operands) ends there (its size is then dynamic);
/// without, the caller guarantees the tile is within the extent.
FailureOr<linalg::LinalgOp> tileRows(linalg::LinalgOp op, unsigned sharedLoop,
                                     OpFoldResult firstRow, int64_t rows,
                                     RewriterBase &rewriter,
                                     bool lastTileMayBeShort);

} // namespace mlir::nx

#endif // NX_CONVERSION_LINALGTOOPENMP_OPENMPTEAM_H

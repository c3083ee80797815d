//===- JammedRows.cpp - several rows per pass of a reduction --------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "JammedRows.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"

using namespace mlir;

bool nx::mayReorderCombinations(Operation *combiner) {
  if (isa<arith::AddFOp, arith::MulFOp, arith::MaximumFOp, arith::MinimumFOp,
          arith::MaxNumFOp, arith::MinNumFOp>(combiner)) {
    arith::FastMathFlagsAttr flags =
        cast<arith::ArithFastMathInterface>(combiner).getFastMathFlagsAttr();
    return flags &&
           bitEnumContainsAll(flags.getValue(), arith::FastMathFlags::reassoc);
  }
  if (auto overflow =
          dyn_cast<arith::ArithIntegerOverflowFlagsInterface>(combiner))
    if (overflow.getOverflowAttr().getValue() !=
        arith::IntegerOverflowFlags::none)
      return false;
  return isa<arith::AddIOp, arith::MulIOp, arith::MaxSIOp, arith::MinSIOp,
             arith::MaxUIOp, arith::MinUIOp, arith::AndIOp, arith::OrIOp,
             arith::XOrIOp>(combiner);
}

/// Whether every output of `op` is the yield of one combiner that reads it
/// once and may take the rows in any order (nx::mayReorderCombinations).
static bool combinesInAnyOrder(linalg::LinalgOp op) {
  Block *body = op.getBlock();
  if (!body)
    return false;
  for (BlockArgument running : op.getRegionOutputArgs()) {
    if (!running.hasOneUse())
      return false;
    Operation *combiner = *running.getUsers().begin();
    if (combiner->getBlock() != body || combiner->getNumResults() != 1 ||
        !combiner->getResult(0).hasOneUse() ||
        !isa<linalg::YieldOp>(*combiner->getResult(0).getUsers().begin()) ||
        !nx::mayReorderCombinations(combiner))
      return false;
  }
  return true;
}

/// Whether `op`'s body holds a NaN-propagating maximum or minimum.
static bool hasNaNPropagatingMaximum(linalg::LinalgOp op) {
  Block *body = op.getBlock();
  if (!body)
    return false;
  WalkResult found = body->walk([](Operation *nested) {
    return isa<arith::MaximumFOp, arith::MinimumFOp>(nested)
               ? WalkResult::interrupt()
               : WalkResult::advance();
  });
  return found.wasInterrupted();
}

nx::RowJam nx::classifyRowJam(linalg::LinalgOp op,
                              ArrayRef<int64_t> tileSizes) {
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  SmallVector<unsigned> tiledDims;
  for (auto [i, size] : llvm::enumerate(tileSizes))
    if (size != 0)
      tiledDims.push_back(i);
  if (tiledDims.size() < 2 || iterators[tiledDims[tiledDims.size() - 2]] !=
                                  utils::IteratorType::reduction)
    return RowJam::None;
  if (combinesInAnyOrder(op))
    return RowJam::Segments;
  return hasNaNPropagatingMaximum(op) ? RowJam::None : RowJam::Adjacent;
}

/// Makes `rows`, a loop of `segmentTrips * kJammedRows` iterations, run the
/// first `segmentTrips` of them, each on one row of every segment, and jams
/// those rows into the loops inside. Nested as
///   rows (segmentTrips iterations) {
///     segments (kJammedRows iterations) { body at row + segment * span }
///   }
/// the unroll-and-jam of `segments` is the pass over all four rows.
static LogicalResult jamSegments(RewriterBase &rewriter, scf::ForOp rows,
                                 int64_t segmentTrips) {
  OpBuilder::InsertionGuard guard(rewriter);
  Location loc = rows.getLoc();
  Type indexType = rows.getInductionVar().getType();
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantOp::create(rewriter, loc,
                                     rewriter.getIntegerAttr(indexType, value));
  };
  rewriter.setInsertionPoint(rows);
  Value span = arith::MulIOp::create(rewriter, loc, rows.getStep(),
                                     constant(segmentTrips));
  Value firstSegmentEnd =
      arith::AddIOp::create(rewriter, loc, rows.getLowerBound(), span);
  rewriter.modifyOpInPlace(rows, [&] { rows.setUpperBound(firstSegmentEnd); });

  Block *body = rows.getBody();
  rewriter.setInsertionPointToStart(body);
  auto segments = scf::ForOp::create(rewriter, loc, constant(0),
                                     constant(nx::kJammedRows), constant(1));
  Block *segmentBody = segments.getBody();
  segmentBody->getOperations().splice(
      segmentBody->getTerminator()->getIterator(), body->getOperations(),
      std::next(segments->getIterator()), body->getTerminator()->getIterator());

  rewriter.setInsertionPointToStart(segmentBody);
  Value offset =
      arith::MulIOp::create(rewriter, loc, segments.getInductionVar(), span);
  Value row =
      arith::AddIOp::create(rewriter, loc, rows.getInductionVar(), offset);
  rewriter.replaceUsesWithIf(rows.getInductionVar(), row, [&](OpOperand &use) {
    return use.getOwner() != row.getDefiningOp() &&
           segments->isProperAncestor(use.getOwner());
  });
  return loopUnrollJamByFactor(segments, nx::kJammedRows);
}

bool nx::jamReductionRows(RewriterBase &rewriter, scf::ForOp inner,
                          RowJam jam) {
  auto rows = dyn_cast<scf::ForOp>(inner->getParentOp());
  if (!rows || jam == RowJam::None || rows.getNumRegionIterArgs() != 0)
    return false;
  std::optional<APInt> trips = rows.getStaticTripCount();
  if (!trips || trips->ult(kJammedRows) || trips->urem(kJammedRows) != 0)
    return false;
  int64_t segmentTrips = trips->getZExtValue() / kJammedRows;
  // One pass is the whole loop: both jams read the same rows.
  if (jam == RowJam::Adjacent || segmentTrips == 1)
    return succeeded(loopUnrollJamByFactor(rows, kJammedRows));
  return succeeded(jamSegments(rewriter, rows, segmentTrips));
}

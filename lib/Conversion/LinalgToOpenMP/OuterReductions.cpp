//===- OuterReductions.cpp - outer reductions shared by workers -----------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// One row of partial results per worker, not per fixed chunk of rows: a
// worker's row stays in its core's cache while it streams its share of the
// input, the rows other threads wrote are read once, at the end, and every
// thread of a team of any size gets a share.
//
//===----------------------------------------------------------------------===//

#include "nx/Conversion/LinalgToOpenMP/OuterReductions.h"
#include "nx/Conversion/LinalgToOpenMP/OpenMPTeam.h"
#include "nx/Support/Buffers.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;

/// Iteration points a block of rows covers at least, so that the loop over
/// a worker's blocks costs little against the work in them.
static constexpr int64_t kMinPointsPerBlock = 4096;

/// The one operation that combines `op`'s running value with what it
/// computed from its inputs, when it has a neutral element; else null.
static Operation *getCombiner(linalg::LinalgOp op) {
  SmallVector<Operation *, 4> combiners;
  if (!matchReduction(op.getRegionOutputArgs(), 0, combiners) ||
      combiners.size() != 1)
    return nullptr;
  Operation *combiner = combiners.front();
  if (combiner->getNumOperands() != 2 || combiner->getNumResults() != 1 ||
      !arith::getNeutralElement(combiner))
    return nullptr;
  return combiner;
}

bool nx::isSplittableOuterReduction(linalg::LinalgOp op, unsigned sharedLoop,
                                    int64_t minWork) {
  if (!op.hasPureBufferSemantics() || op.getNumLoops() < 2 ||
      op.getNumReductionLoops() != 1 || op.getNumDpsInits() != 1 ||
      op.hasIndexSemantics() || sharedLoop >= op.getNumLoops())
    return false;
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (!linalg::isReductionIterator(iterators[sharedLoop]) ||
      !linalg::isParallelIterator(iterators.back()) ||
      llvm::any_of(ranges, ShapedType::isDynamic))
    return false;
  OpOperand *init = op.getDpsInitOperand(0);
  auto outputType = dyn_cast<MemRefType>(init->get().getType());
  if (!outputType || !outputType.hasStaticShape() ||
      !op.getMatchingIndexingMap(init).isProjectedPermutation())
    return false;
  // The output is combined with the partial results after every input has
  // been read: an input that is a view of it would be read too late.
  Value output = getRootBuffer(init->get());
  if (llvm::any_of(op.getDpsInputs(),
                   [&](Value input) { return getRootBuffer(input) == output; }))
    return false;
  int64_t points = 1;
  for (int64_t range : ranges)
    points = std::min(points * range, minWork);
  return points >= minWork && getCombiner(op);
}

/// Rows of a block: enough to cover kMinPointsPerBlock points, a multiple
/// of nx::kOuterReductionRowsPerPass, so that every pass is whole, or of
/// nx::kStreamedRows while nx::kEnoughWorkers blocks remain; at most all of
/// them.
static int64_t getRowsPerBlock(ArrayRef<int64_t> ranges, unsigned sharedLoop) {
  int64_t innerPoints = 1;
  for (int64_t range : ranges.drop_front(sharedLoop + 1))
    innerPoints = std::min(innerPoints * range, kMinPointsPerBlock);
  int64_t rows = llvm::alignTo(
      llvm::divideCeil(kMinPointsPerBlock, std::max<int64_t>(innerPoints, 1)),
      nx::kOuterReductionRowsPerPass);
  int64_t streamed = llvm::alignTo(rows, nx::kStreamedRows);
  if (ranges[sharedLoop] / streamed >= nx::kEnoughWorkers)
    rows = streamed;
  return std::min(rows, ranges[sharedLoop]);
}

/// Runs `op` on `rows` of its rows from `firstRow`, all within its extent,
/// with `row` as its output.
static LogicalResult reduceRows(linalg::LinalgOp op, unsigned sharedLoop,
                                OpFoldResult firstRow, int64_t rows, Value row,
                                RewriterBase &rewriter) {
  FailureOr<linalg::LinalgOp> tiled =
      nx::tileRows(op, sharedLoop, firstRow, rows, rewriter,
                   /*lastTileMayBeShort=*/false);
  if (failed(tiled))
    return failure();
  linalg::LinalgOp tile = *tiled;
  Value wholeOutput = tile.getDpsInits()[0];
  rewriter.modifyOpInPlace(tile,
                           [&] { tile.getDpsInitsMutable()[0].set(row); });
  if (Operation *slice = wholeOutput.getDefiningOp();
      slice && slice->use_empty())
    rewriter.eraseOp(slice);
  return success();
}

/// Worker `worker`'s row of `partial`, with the output's shape.
static Value getPartialRow(Value partial, Value worker, MemRefType outputType,
                           Location loc, RewriterBase &rewriter) {
  auto partialType = cast<MemRefType>(partial.getType());
  SmallVector<OpFoldResult> offsets(partialType.getRank(),
                                    rewriter.getIndexAttr(0));
  offsets.front() = worker;
  SmallVector<OpFoldResult> sizes{rewriter.getIndexAttr(1)};
  for (int64_t size : outputType.getShape())
    sizes.push_back(rewriter.getIndexAttr(size));
  SmallVector<OpFoldResult> strides(partialType.getRank(),
                                    rewriter.getIndexAttr(1));
  MemRefType rowType = memref::SubViewOp::inferRankReducedResultType(
      outputType.getShape(), partialType, offsets, sizes, strides);
  return memref::SubViewOp::create(rewriter, loc, rowType, partial, offsets,
                                   sizes, strides);
}

/// Fills the worker's row with `neutral` and reduces its share of the
/// blocks into it, in the team loop's body. Blocks are whole: the rows
/// after the last whole block (fewer than a block) are the last worker's.
/// Every op on rows then has a static size, which the vectorizer needs to
/// add several rows per pass.
static LogicalResult reduceShare(linalg::LinalgOp op, unsigned sharedLoop,
                                 Value partial, Value workers, Value neutral,
                                 Block *body, RewriterBase &rewriter) {
  Location loc = op.getLoc();
  auto outputType = cast<MemRefType>(op.getDpsInits()[0].getType());
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  int64_t rowsPerBlock = getRowsPerBlock(ranges, sharedLoop);
  int64_t blocks = ranges[sharedLoop] / rowsPerBlock;
  int64_t tailRows = ranges[sharedLoop] % rowsPerBlock;
  rewriter.setInsertionPointToStart(body);
  Value worker = body->getArgument(0);
  Value row = getPartialRow(partial, worker, outputType, loc, rewriter);
  linalg::FillOp::create(rewriter, loc, neutral, row);
  // Worker w takes blocks [w * blocks / workers, (w + 1) * blocks / workers):
  // contiguous, and as even as whole blocks allow.
  Value blockCount = arith::ConstantIndexOp::create(rewriter, loc, blocks);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  auto firstBlockOf = [&](Value index) {
    Value scaled = arith::MulIOp::create(rewriter, loc, index, blockCount);
    return arith::DivUIOp::create(rewriter, loc, scaled, workers);
  };
  Value first = firstBlockOf(worker);
  Value next = arith::AddIOp::create(rewriter, loc, worker, one);
  Value last = firstBlockOf(next);
  auto blockLoop = scf::ForOp::create(rewriter, loc, first, last, one);
  rewriter.setInsertionPointToStart(blockLoop.getBody());
  AffineExpr block = rewriter.getAffineDimExpr(0);
  OpFoldResult firstRow = affine::makeComposedFoldedAffineApply(
      rewriter, loc, block * rowsPerBlock,
      {OpFoldResult(blockLoop.getInductionVar())});
  if (failed(reduceRows(op, sharedLoop, firstRow, rowsPerBlock, row, rewriter)))
    return failure();
  if (tailRows != 0) {
    rewriter.setInsertionPointAfter(blockLoop);
    Value isLast = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::eq, next, workers);
    auto tail =
        scf::IfOp::create(rewriter, loc, isLast, /*withElseRegion=*/false);
    rewriter.setInsertionPointToStart(tail.thenBlock());
    if (failed(reduceRows(op, sharedLoop,
                          rewriter.getIndexAttr(blocks * rowsPerBlock),
                          tailRows, row, rewriter)))
      return failure();
  }
  rewriter.setInsertionPointToEnd(body);
  omp::YieldOp::create(rewriter, loc, ValueRange());
  return success();
}

/// Output elements one tile of the combination of the workers' rows
/// writes at least: a few cache lines of each row.
static constexpr int64_t kCombinedPerTile = 128;

/// Combines the rows of `partial` into `output` with `combiner`'s kind of
/// operation.
static linalg::LinalgOp combinePartialRows(Value partial, Value output,
                                           Operation *combiner, Location loc,
                                           RewriterBase &rewriter) {
  return linalg::ReduceOp::create(
      rewriter, loc, ValueRange{partial}, ValueRange{output},
      ArrayRef<int64_t>{0},
      [&](OpBuilder &builder, Location bodyLoc, ValueRange arguments) {
        Operation *combined =
            builder.create(bodyLoc, combiner->getName().getIdentifier(),
                           ValueRange{arguments[0], arguments[1]},
                           combiner->getResultTypes(), combiner->getAttrs());
        linalg::YieldOp::create(builder, bodyLoc, combined->getResults());
      });
}

/// The first dimension of `outputType` of a size other than 1: the one
/// the team shares when it combines the workers' rows. Nothing when the
/// output has one element.
static std::optional<unsigned> getCombinedDim(MemRefType outputType) {
  for (auto [dim, size] : llvm::enumerate(outputType.getShape()))
    if (size != 1)
      return dim;
  return std::nullopt;
}

/// Shares `combination` (combinePartialRows, in `team` after the workers'
/// loop, whose end all threads wait for) among the team's threads: a
/// worksharing loop over tiles of the output's first dimension of a size
/// other than 1, each combining every worker's row on its tile.
static LogicalResult shareCombination(linalg::LinalgOp combination,
                                      unsigned dim, RewriterBase &rewriter) {
  Location loc = combination.getLoc();
  // The combination's loops: the workers', then the output's dimensions.
  unsigned loop = dim + 1;
  SmallVector<int64_t> ranges = combination.getStaticLoopRanges();
  int64_t innerPoints = 1;
  for (int64_t range : ArrayRef(ranges).drop_front(loop + 1))
    innerPoints = std::min(innerPoints * range, kCombinedPerTile);
  int64_t perTile = std::min<int64_t>(
      llvm::divideCeil(kCombinedPerTile, innerPoints), ranges[loop]);
  rewriter.setInsertionPoint(combination);
  // Built one by one: the order of a call's arguments is the compiler's.
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value extent = arith::ConstantIndexOp::create(rewriter, loc, ranges[loop]);
  Value step = arith::ConstantIndexOp::create(rewriter, loc, perTile);
  Block *body = nx::createWorksharingLoop(rewriter, loc, zero, extent, step);
  rewriter.setInsertionPointToStart(body);
  if (failed(nx::tileRows(combination, loop, body->getArgument(0), perTile,
                          rewriter, /*lastTileMayBeShort=*/true)))
    return failure();
  omp::YieldOp::create(rewriter, loc, ValueRange());
  rewriter.eraseOp(combination);
  return success();
}

LogicalResult nx::rewriteOuterReduction(linalg::LinalgOp op,
                                        unsigned sharedLoop,
                                        StringRef numThreadsFunction,
                                        RewriterBase &rewriter) {
  Location loc = op.getLoc();
  Operation *combiner = getCombiner(op);
  Value output = op.getDpsInits()[0];
  auto outputType = cast<MemRefType>(output.getType());
  Type elementType = outputType.getElementType();
  int64_t blocks = op.getStaticLoopRanges()[sharedLoop] /
                   getRowsPerBlock(op.getStaticLoopRanges(), sharedLoop);

  // As many workers as threads, and no more than blocks. Everything is
  // built right before `op`: what follows `previous` is the rewrite's.
  Operation *previous = op->getPrevNode();
  rewriter.setInsertionPoint(op);
  Value threads = callNumThreadsFunction(rewriter, loc, numThreadsFunction);
  Value workers = arith::IndexCastOp::create(rewriter, loc,
                                             rewriter.getIndexType(), threads);
  workers = arith::MinSIOp::create(
      rewriter, loc, workers,
      arith::ConstantIndexOp::create(rewriter, loc, blocks));
  workers = arith::MaxSIOp::create(
      rewriter, loc, workers, arith::ConstantIndexOp::create(rewriter, loc, 1));
  SmallVector<int64_t> partialShape{ShapedType::kDynamic};
  llvm::append_range(partialShape, outputType.getShape());
  Value partial = memref::AllocOp::create(
      rewriter, loc, MemRefType::get(partialShape, elementType),
      ValueRange{workers}, rewriter.getI64IntegerAttr(64));
  Value neutral = arith::ConstantOp::create(
      rewriter, loc, *arith::getNeutralElement(combiner));

  // One thread per worker: a team larger than the blocks would only wait.
  Value teamSize =
      arith::IndexCastOp::create(rewriter, loc, rewriter.getI32Type(), workers);
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  Block *body = createTeamLoop(rewriter, loc, /*ifExpr=*/{}, teamSize, zero,
                               workers, one);
  // On failure, nothing of the rewrite may stay behind.
  auto undo = [&] {
    while (op->getPrevNode() != previous)
      rewriter.eraseOp(op->getPrevNode());
    return failure();
  };
  if (failed(reduceShare(op, sharedLoop, partial, workers, neutral, body,
                         rewriter)))
    return undo();
  // The workers' rows are combined by the same team, after its workers'
  // loop, unless the output has one element.
  auto team = body->getParentOp()->getParentOfType<omp::ParallelOp>();
  std::optional<unsigned> combinedDim = getCombinedDim(outputType);
  if (combinedDim)
    rewriter.setInsertionPoint(team.getRegion().front().getTerminator());
  else
    rewriter.setInsertionPoint(op);
  linalg::LinalgOp combination =
      combinePartialRows(partial, output, combiner, loc, rewriter);
  if (combinedDim &&
      failed(shareCombination(combination, *combinedDim, rewriter)))
    return undo();
  rewriter.setInsertionPoint(op);
  memref::DeallocOp::create(rewriter, loc, partial);
  rewriter.eraseOp(op);
  return success();
}

//===- ContractionTiles.cpp - register tiles of contractions --------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "ContractionTiles.h"

#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

std::optional<nx::ContractionLoops>
nx::matchContractionLoops(linalg::LinalgOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1 || !op.hasOnlyProjectedPermutations() ||
      !linalg::isaContractionOpInterface(op))
    return std::nullopt;
  AffineMap output = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (output.getNumResults() == 0)
    return std::nullopt;
  AffineExpr columns = output.getResults().back();
  AffineMap lhs = op.getMatchingIndexingMap(op.getDpsInputOperand(0));
  AffineMap rhs = op.getMatchingIndexingMap(op.getDpsInputOperand(1));
  auto readsLast = [&](AffineMap map) {
    return map.getNumResults() != 0 && map.getResults().back() == columns;
  };
  // Either input may be the one read along the columns.
  unsigned rhsOperand = 1;
  if (!readsLast(rhs)) {
    std::swap(lhs, rhs);
    rhsOperand = 0;
  }
  if (!readsLast(rhs) || lhs.getResultPosition(columns))
    return std::nullopt;
  ContractionLoops loops{cast<AffineDimExpr>(columns).getPosition(),
                         std::nullopt, rhsOperand};
  if (output.getNumResults() < 2)
    return loops;
  AffineExpr rows = output.getResult(output.getNumResults() - 2);
  if (lhs.getResultPosition(rows) && !rhs.getResultPosition(rows))
    loops.rows = cast<AffineDimExpr>(rows).getPosition();
  return loops;
}

/// Tiles `op` by `sizes` (0: not tiled), its tile loops in the order of
/// `order` (the loops' own order when empty), and erases it.
static FailureOr<scf::SCFTilingResult> tileAndErase(RewriterBase &rewriter,
                                                    linalg::LinalgOp op,
                                                    ArrayRef<int64_t> sizes,
                                                    ArrayRef<int64_t> order) {
  scf::SCFTilingOptions options;
  options.setTileSizes(getAsIndexOpFoldResult(op.getContext(), sizes));
  options.setInterchange(order);
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
      rewriter, cast<TilingInterface>(op.getOperation()), options);
  if (succeeded(tiled))
    rewriter.eraseOp(op);
  return tiled;
}

/// Tiles `op` by `sizes` (0: not tiled), its tile loops in the order of
/// `order` (the loops' dimensions, outermost first), and erases it; peels
/// the tile loop of dimension `peeled` when it was tiled, then folds the
/// tiles' constant sizes into their types. Returns the tiles: `op` itself
/// when no loop is tiled.
static FailureOr<SmallVector<linalg::LinalgOp>>
tileAndPeel(RewriterBase &rewriter, linalg::LinalgOp op,
            ArrayRef<int64_t> sizes, ArrayRef<int64_t> order,
            std::optional<unsigned> peeled,
            const FrozenRewritePatternSet &tileFolding) {
  if (llvm::all_of(sizes, [](int64_t size) { return size == 0; }))
    return SmallVector<linalg::LinalgOp>{op};
  FailureOr<scf::SCFTilingResult> tiled =
      tileAndErase(rewriter, op, sizes, order);
  if (failed(tiled))
    return failure();

  // The tile loops follow `order`, one per tiled dimension.
  SmallVector<Operation *> roots{tiled->loops.front().getOperation()};
  if (peeled && sizes[*peeled] != 0) {
    unsigned position = 0;
    for (int64_t dim : order) {
      if (dim == *peeled)
        break;
      position += sizes[dim] != 0;
    }
    auto loop = cast<scf::ForOp>(tiled->loops[position].getOperation());
    scf::ForOp partial;
    // The partial loop follows the peeled one, inside the outer tile loops.
    if (succeeded(scf::peelForLoopAndSimplifyBounds(rewriter, loop, partial)) &&
        !roots.front()->isAncestor(partial))
      roots.push_back(partial);
  }
  // The tiles are found before folding, which moves but does not replace
  // them (their operands' casts fold into them).
  SmallVector<linalg::LinalgOp> tiles;
  SmallVector<Operation *> folded;
  for (Operation *root : roots)
    root->walk([&](Operation *nested) {
      folded.push_back(nested);
      if (auto tile = dyn_cast<linalg::LinalgOp>(nested))
        tiles.push_back(tile);
    });
  GreedyRewriteConfig config;
  config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
  (void)applyOpPatternsGreedily(folded, tileFolding, config);
  return tiles;
}

/// Tile sizes with each loop whose static extent is at most its tile size
/// left untiled (0): its one tile is the whole extent.
static SmallVector<int64_t> untileShort(SmallVector<int64_t> sizes,
                                        ArrayRef<int64_t> ranges) {
  for (auto [size, range] : llvm::zip(sizes, ranges))
    if (!ShapedType::isDynamic(range) && range <= size)
      size = 0;
  return sizes;
}

/// Splits a register tile of static shape into one tile per row, in the
/// same block (a loop of one tile per row, unrolled), and appends them to
/// `tiles`; appends any other tile as it is. Vectorized whole, a tile would
/// read a column of the left-hand side into one vector and broadcast it
/// across the columns with a transpose; a row's tile broadcasts one element,
/// and every row's tile reads the same row of the right-hand side, which
/// LLVM then loads once per reduction step.
static LogicalResult splitRows(RewriterBase &rewriter, linalg::LinalgOp tile,
                               const nx::ContractionLoops &loops,
                               SmallVectorImpl<linalg::LinalgOp> &tiles) {
  SmallVector<int64_t> ranges = tile.getStaticLoopRanges();
  if (!loops.rows || tile.hasDynamicShape() || ranges[*loops.rows] == 1) {
    tiles.push_back(tile);
    return success();
  }
  SmallVector<int64_t> sizes(ranges.size(), 0);
  sizes[*loops.rows] = 1;
  FailureOr<scf::SCFTilingResult> tiled =
      tileAndErase(rewriter, tile, sizes, /*order=*/{});
  if (failed(tiled))
    return failure();
  auto rowLoop = cast<scf::ForOp>(tiled->loops.front().getOperation());
  // The unrolled copies replace the loop, between its neighbours: the
  // block may hold other tiles, still to be split.
  Block *block = rowLoop->getBlock();
  Operation *before = rowLoop->getPrevNode();
  Operation *after = rowLoop->getNextNode();
  if (failed(loopUnrollFull(rowLoop)))
    return failure();
  auto first = before ? std::next(before->getIterator()) : block->begin();
  auto last = after ? after->getIterator() : block->end();
  for (Operation &op : llvm::make_range(first, last))
    if (auto rowTile = dyn_cast<linalg::LinalgOp>(op))
      tiles.push_back(rowTile);
  return success();
}

/// Tiles `op`'s only reduction loop, when longer than `block`, into blocks
/// of `block` steps, outermost, and peels that loop: all the register tiles
/// of one block reuse the block of B's rows from the cache. Returns the
/// blocks, or `op` itself.
static FailureOr<SmallVector<linalg::LinalgOp>>
blockReduction(RewriterBase &rewriter, linalg::LinalgOp op, int64_t block,
               const FrozenRewritePatternSet &tileFolding) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  SmallVector<int64_t> sizes(ranges.size(), 0);
  SmallVector<int64_t> order;
  std::optional<unsigned> reduction;
  for (auto [dim, iterator] : llvm::enumerate(iterators))
    if (iterator == utils::IteratorType::reduction) {
      if (reduction)
        return SmallVector<linalg::LinalgOp>{op};
      reduction = dim;
    }
  sizes[*reduction] = block;
  order.push_back(*reduction);
  for (unsigned dim = 0; dim < ranges.size(); ++dim)
    if (dim != *reduction)
      order.push_back(dim);
  return tileAndPeel(rewriter, op, untileShort(sizes, ranges), order, reduction,
                     tileFolding);
}

/// Tiles `op` by `columns` of its output's columns and by one step of every
/// other parallel loop but the rows, in the loops' order, and peels the
/// column loop. Returns the tiles: rows x columns of the output each.
static FailureOr<SmallVector<linalg::LinalgOp>>
tileColumns(RewriterBase &rewriter, linalg::LinalgOp op,
            const nx::ContractionLoops &loops, int64_t columns,
            const FrozenRewritePatternSet &tileFolding) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  SmallVector<int64_t> sizes(ranges.size(), 0);
  for (unsigned dim = 0; dim < ranges.size(); ++dim)
    if (iterators[dim] == utils::IteratorType::parallel && dim != loops.rows)
      sizes[dim] = dim == loops.columns ? columns : 1;
  SmallVector<int64_t> identity =
      llvm::to_vector(llvm::seq<int64_t>(0, ranges.size()));
  return tileAndPeel(rewriter, op, untileShort(sizes, ranges), identity,
                     loops.columns, tileFolding);
}

/// Tiles `op` by `rows` of its output's rows, then by one step of each
/// reduction loop, innermost, so that a tile's accumulators are invariant
/// in the reduction loops; peels the row loop and splits each tile into
/// one per row (splitRows), appended to `tiles`.
static LogicalResult tileRows(RewriterBase &rewriter, linalg::LinalgOp op,
                              const nx::ContractionLoops &loops, int64_t rows,
                              const FrozenRewritePatternSet &tileFolding,
                              SmallVectorImpl<linalg::LinalgOp> &tiles) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  SmallVector<int64_t> sizes(ranges.size(), 0), order;
  if (loops.rows) {
    sizes[*loops.rows] = rows;
    order.push_back(*loops.rows);
  }
  for (unsigned dim = 0; dim < ranges.size(); ++dim) {
    if (iterators[dim] == utils::IteratorType::reduction) {
      sizes[dim] = 1;
      order.push_back(dim);
    } else if (dim != loops.rows) {
      order.push_back(dim);
    }
  }
  FailureOr<SmallVector<linalg::LinalgOp>> rowTiles = tileAndPeel(
      rewriter, op, untileShort(sizes, ranges), order, loops.rows, tileFolding);
  if (failed(rowTiles))
    return failure();
  // A tile that could not be split stays whole, for the loop lowering.
  for (linalg::LinalgOp rowsTile : *rowTiles)
    (void)splitRows(rewriter, rowsTile, loops, tiles);
  return success();
}

FailureOr<SmallVector<linalg::LinalgOp>>
nx::tileContraction(RewriterBase &rewriter, linalg::LinalgOp op,
                    const ContractionLoops &loops, const RegisterTile &shape,
                    const FrozenRewritePatternSet &tileFolding) {
  if (llvm::is_contained(op.getStaticLoopRanges(), 0))
    return failure();
  FailureOr<SmallVector<linalg::LinalgOp>> blocks =
      blockReduction(rewriter, op, shape.reductionBlock, tileFolding);
  if (failed(blocks))
    return failure();
  SmallVector<linalg::LinalgOp> tiles;
  for (linalg::LinalgOp block : *blocks) {
    FailureOr<SmallVector<linalg::LinalgOp>> columnTiles =
        tileColumns(rewriter, block, loops, shape.columns, tileFolding);
    // Once `op` is gone, a block or tile that could not be tiled further
    // stays a linalg op, for the loop lowering: this never fails.
    if (failed(columnTiles))
      continue;
    for (linalg::LinalgOp columnTile : *columnTiles)
      (void)tileRows(rewriter, columnTile, loops, shape.rows, tileFolding,
                     tiles);
  }
  return tiles;
}

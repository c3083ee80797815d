//===- VectorizeLinalg.cpp - linalg ops on buffers to vector code ---------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Tiles each eligible linalg op to one vector register along its innermost
// loop and runs upstream's linalg vectorizer on each tile. The innermost
// tile loop is peeled so that every tile but the last has a static shape:
// those vectorize to plain loads and stores, and only the last tile pays for
// masks.
//
//===----------------------------------------------------------------------===//

#include "nx/Codegen/CPU/Passes.h"
#include "nx/Codegen/CPU/ReversedViews.h"
#include "nx/Support/PassOptions.h"
#include "nx/Support/PassStatistics.h"
#include "nx/Support/StaticBounds.h"

#include "ContractionTiles.h"
#include "JammedRows.h"
#include "SplitRowReductions.h"
#include "StreamedStores.h"
#include "TransposeSquares.h"
#include "VectorShape.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Hoisting.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Linalg/Utils/Utils.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorTransforms.h"
#include "mlir/Dialect/Vector/Utils/VectorUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/TypeSwitch.h"

#define DEBUG_TYPE "nx-vectorize-linalg"

namespace mlir::nx {
#define GEN_PASS_DEF_NXVECTORIZELINALGPASS
#include "nx/Codegen/CPU/Passes.h.inc"
} // namespace mlir::nx

using namespace mlir;

/// Whether `op` copies a window of its input (an im2col patch, a shifted
/// slice): a plain copy whose maps may index outer dimensions by sums of
/// loops, but read and write the innermost loop as their own contiguous
/// innermost dimension and nowhere else. Upstream's vectorizer takes only
/// projected permutations; such a tile is a read and a write of one vector.
static bool isWindowCopy(linalg::LinalgOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumLoops() == 0 ||
      op.getNumDpsInputs() != 1 || op.getNumDpsInits() != 1 ||
      op.getNumParallelLoops() != op.getNumLoops() ||
      !isa<MemRefType>(op.getDpsInputOperand(0)->get().getType()))
    return false;
  Block *body = op.getBlock();
  auto yield = dyn_cast<linalg::YieldOp>(body->getTerminator());
  if (!yield || body->getOperations().size() != 1 ||
      yield.getValues().size() != 1 ||
      yield.getValues()[0] != body->getArgument(0))
    return false;
  unsigned innermost = op.getNumLoops() - 1;
  for (AffineMap map : op.getIndexingMapsArray()) {
    if (map.getNumResults() == 0 ||
        map.getResults().back() != getAffineDimExpr(innermost, op.getContext()))
      return false;
    for (AffineExpr result : map.getResults().drop_back())
      if (result.isFunctionOfDim(innermost))
        return false;
  }
  return true;
}

/// Elements of the widest operand type that fit `vectorBits`, or nothing when
/// `op` is not one this pass handles: not on buffers, no loops, a reduction
/// innermost, a map that is no projected permutation or reads the innermost
/// dimension with a stride, or an element type getVectorLanes rejects.
static std::optional<int64_t> getLanes(linalg::LinalgOp op, int64_t vectorBits,
                                       int64_t reductionVectorBits) {
  if (isWindowCopy(op))
    return nx::getVectorLanes(op, vectorBits);
  if (!op.hasPureBufferSemantics() || op.getNumLoops() == 0 ||
      !linalg::isParallelIterator(op.getIteratorTypesArray().back()) ||
      !op.hasOnlyProjectedPermutations() ||
      !nx::readsInnermostLoopContiguously(op))
    return std::nullopt;
  return nx::getVectorLanes(
      op, nx::getVectorBitsFor(op, vectorBits, reductionVectorBits));
}

/// A tile of a window copy whose views are one run of elements (every
/// dimension but the innermost of extent 1) as one vector read and write.
static LogicalResult vectorizeWindowCopyTile(RewriterBase &rewriter,
                                             linalg::LinalgOp tile) {
  Value source = tile.getDpsInputOperand(0)->get();
  Value target = tile.getDpsInitOperand(0)->get();
  auto sourceType = dyn_cast<MemRefType>(source.getType());
  auto targetType = dyn_cast<MemRefType>(target.getType());
  if (!sourceType || !targetType || !sourceType.hasStaticShape() ||
      !targetType.hasStaticShape() || sourceType.getRank() == 0 ||
      targetType.getRank() == 0)
    return failure();
  int64_t length = targetType.getShape().back();
  auto isRun = [&](MemRefType type) {
    return type.getShape().back() == length &&
           llvm::all_of(type.getShape().drop_back(),
                        [](int64_t size) { return size == 1; });
  };
  if (length == 0 || !isRun(sourceType) || !isRun(targetType))
    return failure();
  Location loc = tile.getLoc();
  rewriter.setInsertionPoint(tile);
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value padding =
      ub::PoisonOp::create(rewriter, loc, sourceType.getElementType());
  auto vectorType = VectorType::get({length}, sourceType.getElementType());
  SmallVector<Value> sourceIndices(sourceType.getRank(), zero);
  SmallVector<Value> targetIndices(targetType.getRank(), zero);
  Value run = vector::TransferReadOp::create(rewriter, loc, vectorType, source,
                                             sourceIndices, padding,
                                             ArrayRef<bool>{true});
  vector::TransferWriteOp::create(rewriter, loc, run, target, targetIndices,
                                  ArrayRef<bool>{true});
  rewriter.eraseOp(tile);
  return success();
}

/// For a transposing copy of static shape (no reductions, one output whose
/// contiguous dimension the last loop walks, inputs read contiguously along
/// either that loop or one other), the other loop; nothing otherwise or when
/// either extent is no multiple of `lanes`.
static std::optional<unsigned> getTransposedLoop(linalg::LinalgOp op,
                                                 int64_t lanes) {
  if (!op.hasPureBufferSemantics() || op.getNumLoops() < 2 ||
      op.getNumReductionLoops() != 0 || op.getNumDpsInits() != 1 ||
      !op.hasOnlyProjectedPermutations() || op.hasDynamicShape())
    return std::nullopt;
  unsigned last = op.getNumLoops() - 1;
  auto innermost = [&](OpOperand *operand) -> std::optional<unsigned> {
    AffineMap map = op.getMatchingIndexingMap(operand);
    if (map.getNumResults() == 0)
      return std::nullopt;
    return cast<AffineDimExpr>(map.getResults().back()).getPosition();
  };
  if (innermost(op.getDpsInitOperand(0)) != last)
    return std::nullopt;
  std::optional<unsigned> other;
  for (OpOperand *input : op.getDpsInputOperands()) {
    std::optional<unsigned> read = innermost(input);
    if (!read || *read == last)
      continue;
    if (other && *other != *read)
      return std::nullopt;
    other = read;
  }
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (!other || ranges[*other] % lanes != 0 || ranges[last] % lanes != 0)
    return std::nullopt;
  return other;
}

/// Leaves each loop whose static extent is no larger than its tile size
/// untiled (size 0): its one tile is the whole extent, and no loop that runs
/// once is made.
static void untileShortLoops(MutableArrayRef<int64_t> tileSizes,
                             ArrayRef<int64_t> ranges) {
  for (auto [size, range] : llvm::zip(tileSizes, ranges))
    if (range <= size)
      size = 0;
}

/// Tiles `op` by `tileSizes` (0: not tiled) into scf.for loops of tiles,
/// which replace it.
static FailureOr<scf::SCFTilingResult>
tileAndErase(RewriterBase &rewriter, linalg::LinalgOp op,
             ArrayRef<int64_t> tileSizes) {
  scf::SCFTilingOptions options;
  options.setTileSizes(getAsIndexOpFoldResult(op.getContext(), tileSizes));
  FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
      rewriter, cast<TilingInterface>(op.getOperation()), options);
  if (failed(tiled))
    return failure();
  rewriter.eraseOp(op);
  return tiled;
}

/// The outermost tile loop, or the tile itself when no loop was made.
static Operation *getOutermost(scf::SCFTilingResult &tiled) {
  return tiled.loops.empty() ? tiled.tiledOps.front()
                             : tiled.loops.front().getOperation();
}

/// Applies `patterns` to `ops` and to the ops they make, and to nothing
/// else: the pass's other candidates may be elsewhere in the same function.
static void applyToOpsAndNew(ArrayRef<Operation *> ops,
                             const FrozenRewritePatternSet &patterns) {
  GreedyRewriteConfig config;
  config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
  (void)applyOpPatternsGreedily(ops, patterns, config);
}

/// Folds the tiles' constant sizes under `root`, the outermost op of a
/// tiling, into their types (`tileFolding`, see makeTileFoldingPatterns).
/// None of the loops under it runs once (an extent no larger than its tile
/// is not tiled), so folding leaves them, and `root`, in place.
static void foldTileSizes(Operation *root,
                          const FrozenRewritePatternSet &tileFolding) {
  SmallVector<Operation *> ops;
  root->walk([&](Operation *nested) { ops.push_back(nested); });
  applyToOpsAndNew(ops, tileFolding);
}

/// Vectorizes `tile` with upstream's vectorizer and replaces it; returns
/// the ops made in its place.
static FailureOr<llvm::iterator_range<Block::iterator>>
vectorizeInPlace(RewriterBase &rewriter, linalg::LinalgOp tile) {
  Operation *before = tile->getPrevNode();
  Operation *after = tile->getNextNode();
  Block *block = tile->getBlock();
  rewriter.setInsertionPoint(tile);
  FailureOr<linalg::VectorizationResult> vectorized =
      linalg::vectorize(rewriter, tile);
  if (failed(vectorized))
    return failure();
  rewriter.replaceOp(tile, vectorized->replacements);
  auto first = before ? std::next(before->getIterator()) : block->begin();
  auto last = after ? after->getIterator() : block->end();
  return llvm::make_range(first, last);
}

/// The cache line of x86-64 cores (and of most AArch64 ones).
static constexpr int64_t kCacheLineBytes = 64;

/// Output columns of a transpose's block: `lanes`, or as many as fill a
/// cache line when a row of `lanes` elements is shorter (AVX2's eight f32
/// lanes are half a line) and the row's extent divides into them. Each
/// row of a block's output is then one whole line whose parts are stored
/// back to back. A non-temporal store of part of a line waits in a
/// write-combining buffer for the rest; squares of `lanes` columns keep
/// eight lines open at a time, and a buffer flushed before its line is
/// whole (by an interrupt, or for want of free buffers) writes a partial
/// line, which memory completes by reading it first.
static int64_t getTransposeColumns(linalg::LinalgOp op, int64_t lanes) {
  Type element = getElementTypeOrSelf(op.getDpsInitOperand(0)->get());
  int64_t lineElements =
      kCacheLineBytes / (element.getIntOrFloatBitWidth() / 8);
  int64_t outputColumns = op.getStaticLoopRanges().back();
  if (lineElements <= lanes || outputColumns % lineElements != 0)
    return lanes;
  return lineElements;
}

/// Tiles a transposing copy into blocks of `lanes` output rows by
/// getTransposeColumns columns of its two contiguous loops and vectorizes
/// each: a read of the input's rows, a `vector.transpose`, cut into
/// `lanes` x `lanes` squares (`transposeSquares`, lowered to shuffles), and
/// a write of `lanes` rows of the output.
static LogicalResult
tileAndVectorizeTranspose(RewriterBase &rewriter, linalg::LinalgOp op,
                          unsigned transposedLoop, int64_t lanes,
                          const FrozenRewritePatternSet &tileFolding,
                          const FrozenRewritePatternSet &permutationLowering,
                          const FrozenRewritePatternSet &transposeSquares) {
  if (failed(linalg::vectorizeOpPrecondition(op)))
    return failure();
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<int64_t> tileSizes(ranges.size(), 1);
  tileSizes[transposedLoop] = lanes;
  tileSizes.back() = getTransposeColumns(op, lanes);
  untileShortLoops(tileSizes, ranges);
  FailureOr<scf::SCFTilingResult> tiled = tileAndErase(rewriter, op, tileSizes);
  if (failed(tiled))
    return failure();
  Operation *root = getOutermost(*tiled);
  SmallVector<linalg::LinalgOp> tiles;
  root->walk([&](linalg::LinalgOp tile) { tiles.push_back(tile); });
  foldTileSizes(root, tileFolding);
  // Each tile becomes a transposed read and a write in its place; the
  // transposed read then becomes a read of whole rows and a transpose,
  // which the write stores. (`root` itself may be a tile, gone by then.)
  SmallVector<Operation *> transfers;
  SmallVector<vector::TransferWriteOp> writes;
  for (linalg::LinalgOp tile : tiles) {
    if (tile.hasDynamicShape())
      continue;
    FailureOr<llvm::iterator_range<Block::iterator>> made =
        vectorizeInPlace(rewriter, tile);
    if (failed(made))
      continue;
    for (Operation &op : *made) {
      if (isa<vector::TransferReadOp>(op))
        transfers.push_back(&op);
      if (auto write = dyn_cast<vector::TransferWriteOp>(op))
        writes.push_back(write);
    }
  }
  applyToOpsAndNew(transfers, permutationLowering);
  SmallVector<Operation *> transposes;
  for (vector::TransferWriteOp write : writes)
    if (auto transpose = write.getVector().getDefiningOp<vector::TransposeOp>())
      transposes.push_back(transpose);
  applyToOpsAndNew(transposes, transposeSquares);
  return success();
}

static LogicalResult
vectorizeStaticTile(RewriterBase &rewriter, linalg::LinalgOp tile,
                    SmallVectorImpl<Operation *> *made = nullptr);

/// Most output columns of a sliding-window tile (a depthwise convolution or
/// a pooling): that many vectors of channels are its accumulators.
static constexpr int64_t kWindowColumns = 8;

/// Whether `op` is a 2-D NHWC sliding window over channels that
/// tileAndVectorizeWindow takes: loops n, oh, ow, c, kh, kw, with each
/// channel its own.
static bool isChannelWindow(Operation *op) {
  return isa<linalg::DepthwiseConv2DNhwcHwcOp, linalg::PoolingNhwcMaxOp,
             linalg::PoolingNhwcMinOp, linalg::PoolingNhwcSumOp>(op);
}

/// The 1-D form of a one-row tile of a channel window: the same op over
/// one input row, one filter (or window) row and one output row.
static Operation *createOneDimensionalWindow(RewriterBase &rewriter,
                                             Location loc, Operation *tile,
                                             Value in, Value window, Value out,
                                             DenseIntElementsAttr strides,
                                             DenseIntElementsAttr dilations) {
  SmallVector<Value> inputs{in, window};
  auto build = [&](auto opTag) -> Operation * {
    using OneDimensionalOp = decltype(opTag);
    return OneDimensionalOp::create(rewriter, loc, TypeRange(), inputs,
                                    ValueRange{out}, strides, dilations);
  };
  return llvm::TypeSwitch<Operation *, Operation *>(tile)
      .Case([&](linalg::DepthwiseConv2DNhwcHwcOp) {
        return build(linalg::DepthwiseConv1DNwcWcOp());
      })
      .Case([&](linalg::PoolingNhwcMaxOp) {
        return build(linalg::PoolingNwcMaxOp());
      })
      .Case([&](linalg::PoolingNhwcMinOp) {
        return build(linalg::PoolingNwcMinOp());
      })
      .Case([&](linalg::PoolingNhwcSumOp) {
        return build(linalg::PoolingNwcSumOp());
      })
      .Default([](Operation *) { return nullptr; });
}

/// The ops next to a channel window that its tiles take over: a fill of its
/// output right before it (the -inf of a max pooling, the zeros of a sum)
/// and an elementwise op rewriting its output in place right after it (an
/// average pooling's division, a ReLU). Each would otherwise be a pass over
/// the output of its own.
struct WindowNeighbors {
  linalg::FillOp fill;
  linalg::GenericOp epilogue;
};

static WindowNeighbors getWindowNeighbors(linalg::LinalgOp op) {
  WindowNeighbors neighbors;
  Value out = op.getDpsInits()[0];
  auto fill = dyn_cast_or_null<linalg::FillOp>(op->getPrevNode());
  if (fill && fill.hasPureBufferSemantics() && fill.getDpsInits()[0] == out)
    neighbors.fill = fill;
  auto epilogue = dyn_cast_or_null<linalg::GenericOp>(op->getNextNode());
  if (epilogue && epilogue.hasPureBufferSemantics() &&
      epilogue.getNumLoops() == 4 && epilogue.getNumReductionLoops() == 0 &&
      !epilogue.hasIndexSemantics() &&
      llvm::all_of(epilogue->getOperands(),
                   [&](Value operand) { return operand == out; }) &&
      llvm::all_of(epilogue.getIndexingMapsArray(),
                   [](AffineMap map) { return map.isIdentity(); }) &&
      succeeded(linalg::vectorizeOpPrecondition(epilogue)))
    neighbors.epilogue = epilogue;
  return neighbors;
}

/// Moves `neighbors` into the tiles of a channel window: each tile fills
/// its output before its filter-row loop (`body`, or the tile when there is
/// no such loop) and applies the epilogue to it after it. Vectorized, these
/// read and write the tile as the window's accumulators are read and
/// written; once those are hoisted out of the filter-row loop, the fill
/// forwards to their first value and the epilogue takes their last one in
/// registers (vector::transferOpflowOpt), and neither touches memory.
/// `offsets` and `sizes` are the tile's in the output (n, oh, ow, c).
static void moveNeighborsIntoTile(RewriterBase &rewriter,
                                  WindowNeighbors neighbors, Operation *body,
                                  Value out, ArrayRef<OpFoldResult> offsets,
                                  ArrayRef<int64_t> sizes,
                                  SmallVectorImpl<linalg::LinalgOp> &created) {
  Location loc = body->getLoc();
  auto tileView = [&]() -> Value {
    SmallVector<OpFoldResult> strides(4, rewriter.getIndexAttr(1));
    return memref::SubViewOp::create(
        rewriter, loc, out, offsets,
        getAsIndexOpFoldResult(rewriter.getContext(), sizes), strides);
  };
  if (neighbors.fill) {
    rewriter.setInsertionPoint(body);
    created.push_back(linalg::FillOp::create(
        rewriter, loc, ValueRange{neighbors.fill.getDpsInputs()[0]},
        ValueRange{tileView()}));
  }
  if (neighbors.epilogue) {
    rewriter.setInsertionPointAfter(body);
    linalg::GenericOp epilogue = neighbors.epilogue;
    Value view = tileView();
    SmallVector<Value> inputs(epilogue.getNumDpsInputs(), view);
    auto tile = linalg::GenericOp::create(
        rewriter, loc, TypeRange(), inputs, ValueRange{view},
        epilogue.getIndexingMapsArray(), epilogue.getIteratorTypesArray());
    rewriter.cloneRegionBefore(epilogue.getRegion(), tile.getRegion(),
                               tile.getRegion().end());
    created.push_back(tile);
  }
}

/// The op of a reduction's body that combines into its output (a sum, a
/// maximum), and that op's fast-math flags. Upstream's vectorizer builds the
/// combiner of a reduction anew (a `vector.multi_reduction` of its kind, or
/// a 1-D window op's own body), without the flags the op's combiner has
/// (nx-reassociate-reductions): restoreCombinerFlags puts them back on the
/// vector combiners. Without `nsz`, LLVM orders the zeros of every vector
/// maximum with two blends and a mask: twice the instructions of the
/// comparison that propagates NaNs.
struct ReductionCombiner {
  std::optional<OperationName> name;
  arith::FastMathFlagsAttr flags;
};

/// The combiner of `op`, when it is a reduction whose body has one op of
/// that kind, with fast-math flags; otherwise none, so that no flag moves
/// to an op that did not have it.
static ReductionCombiner getReductionCombiner(linalg::LinalgOp op) {
  ReductionCombiner combiner;
  if (op.getNumReductionLoops() == 0 || op.getRegionOutputArgs().empty())
    return combiner;
  for (Operation *user : op.getRegionOutputArgs().front().getUsers())
    if (auto fastMath = dyn_cast<arith::ArithFastMathInterface>(user)) {
      combiner.name = user->getName();
      combiner.flags = fastMath.getFastMathFlagsAttr();
    }
  if (!combiner.name || !combiner.flags)
    return {};
  auto sameKind = [&](Operation &bodyOp) {
    return bodyOp.getName() == *combiner.name;
  };
  if (llvm::count_if(op.getBlock()->getOperations(), sameKind) != 1)
    return {};
  return combiner;
}

/// Replaces `reduction`, when it reduces only unit dimensions, by the
/// combination of its one element per result and its accumulator, with
/// `flags`. Upstream folds such a reduction the same way, without flags.
static void combineUnitReduction(RewriterBase &rewriter,
                                 vector::MultiDimReductionOp reduction,
                                 arith::FastMathFlagsAttr flags) {
  VectorType source = reduction.getSourceVectorType();
  for (int64_t dim : reduction.getReductionDims())
    if (source.getDimSize(dim) != 1 || source.getScalableDims()[dim])
      return;
  if (isa<vector::MaskingOpInterface>(reduction->getParentOp()))
    return;
  rewriter.setInsertionPoint(reduction);
  Location loc = reduction.getLoc();
  Type resultType = reduction.getDestType();
  Value elements;
  if (auto vectorType = dyn_cast<VectorType>(resultType)) {
    elements = vector::ShapeCastOp::create(rewriter, loc, vectorType,
                                           reduction.getSource());
  } else {
    SmallVector<int64_t> origin(source.getRank(), 0);
    elements =
        vector::ExtractOp::create(rewriter, loc, reduction.getSource(), origin);
  }
  // The accumulator first, as upstream does, but for NaN-propagating
  // maxima and minima: x86 lowers those as MAXPS, a NaN test of their
  // first operand and a select of that operand. An accumulator kept in
  // memory (an outer or middle axis) is loaded and stored back to one
  // address, and with it first LLVM folds the select of the loaded value
  // and the store into a masked store (VMASKMOVPS), which AMD's AVX2 CPUs
  // microcode: maxima over the middle axis took 2.5x as long on a Zen 3.
  // Both kinds commute, NaNs and zeros included.
  vector::CombiningKind kind = reduction.getKind();
  bool accumulatorLast = kind == vector::CombiningKind::MAXIMUMF ||
                         kind == vector::CombiningKind::MINIMUMF;
  Value first = accumulatorLast ? elements : reduction.getAcc();
  Value second = accumulatorLast ? reduction.getAcc() : elements;
  rewriter.replaceOp(reduction, vector::makeArithReduction(
                                    rewriter, loc, kind, first, second, flags));
}

/// Puts `combiner`'s flags on the vector combiners among `ops`, and on the
/// combinations that replace their reductions of unit dimensions.
static void restoreCombinerFlags(RewriterBase &rewriter,
                                 llvm::iterator_range<Block::iterator> ops,
                                 const ReductionCombiner &combiner) {
  if (!combiner.name || !combiner.flags)
    return;
  SmallVector<vector::MultiDimReductionOp> reductions;
  for (Operation &created : ops)
    created.walk([&](Operation *nested) {
      if (auto reduction = dyn_cast<vector::MultiDimReductionOp>(nested))
        reductions.push_back(reduction);
      auto vectorCombiner = dyn_cast<arith::ArithFastMathInterface>(nested);
      if (vectorCombiner && nested->getName() == *combiner.name &&
          isa<VectorType>(nested->getResult(0).getType()))
        nested->setAttr(vectorCombiner.getFastMathAttrName(), combiner.flags);
    });
  for (vector::MultiDimReductionOp reduction : reductions)
    combineUnitReduction(rewriter, reduction, combiner.flags);
}

/// Moves `neighbors` into the tiles of a channel window tiled by
/// `tileSizes` (see moveNeighborsIntoTile), around the filter-row loop
/// (dimension 4) or the tile itself; each tile loop covers one of the
/// dimensions with a tile size, in order. `ranges` are the window's loop
/// ranges and `out` its output.
static void
moveNeighborsIntoWindowTiles(RewriterBase &rewriter, WindowNeighbors neighbors,
                             scf::SCFTilingResult &tiled,
                             ArrayRef<int64_t> tileSizes,
                             ArrayRef<int64_t> ranges, Value out,
                             SmallVectorImpl<linalg::LinalgOp> &neighborTiles) {
  SmallVector<OpFoldResult> offsets(4, rewriter.getIndexAttr(0));
  SmallVector<int64_t> sizes(ranges.begin(), ranges.begin() + 4);
  Operation *body = tiled.tiledOps.front();
  unsigned loop = 0;
  for (auto [dim, size] : llvm::enumerate(tileSizes)) {
    if (size == 0)
      continue;
    auto forOp = cast<scf::ForOp>(tiled.loops[loop++].getOperation());
    if (dim < 4) {
      offsets[dim] = forOp.getInductionVar();
      sizes[dim] = size;
    } else if (dim == 4) {
      body = forOp;
    }
  }
  moveNeighborsIntoTile(rewriter, neighbors, body, out, offsets, sizes,
                        neighborTiles);
  if (neighbors.fill)
    rewriter.eraseOp(neighbors.fill);
  if (neighbors.epilogue)
    rewriter.eraseOp(neighbors.epilogue);
}

/// Replaces a tile of a channel window that covers one output row and one
/// filter row by the 1-D op on rank-reduced views, which upstream's
/// vectorizer takes (upstream's decomposition patterns take tensors only).
/// Returns null, leaving the tile, for any other tile.
static Operation *replaceByOneDimensionalWindow(RewriterBase &rewriter,
                                                linalg::LinalgOp tile) {
  auto input = cast<MemRefType>(tile.getDpsInputs()[0].getType());
  auto filter = cast<MemRefType>(tile.getDpsInputs()[1].getType());
  auto output = cast<MemRefType>(tile.getDpsInits()[0].getType());
  if (!input.hasStaticShape() || !output.hasStaticShape() ||
      !filter.hasStaticShape() || input.getDimSize(1) != 1 ||
      output.getDimSize(1) != 1 || filter.getDimSize(0) != 1)
    return nullptr;
  Location loc = tile.getLoc();
  rewriter.setInsertionPoint(tile);
  auto dropDim = [](MemRefType type, unsigned dim) {
    SmallVector<int64_t> shape(type.getShape());
    shape.erase(shape.begin() + dim);
    return shape;
  };
  Value in = memref::createCanonicalRankReducingSubViewOp(
      rewriter, loc, tile.getDpsInputs()[0], dropDim(input, 1));
  Value window = memref::createCanonicalRankReducingSubViewOp(
      rewriter, loc, tile.getDpsInputs()[1], dropDim(filter, 0));
  Value out = memref::createCanonicalRankReducingSubViewOp(
      rewriter, loc, tile.getDpsInits()[0], dropDim(output, 1));
  auto attribute = [&](StringRef name) {
    auto values = tile->getAttrOfType<DenseIntElementsAttr>(name);
    return rewriter.getI64TensorAttr(
        {values ? values.getValues<int64_t>()[1] : 1});
  };
  Operation *oneDimensional =
      createOneDimensionalWindow(rewriter, loc, tile, in, window, out,
                                 attribute("strides"), attribute("dilations"));
  rewriter.eraseOp(tile);
  return oneDimensional;
}

/// Vectorizes a one-row tile of a channel window as its 1-D op, with the
/// window's combiner flags on the vector code.
static void vectorizeWindowRow(RewriterBase &rewriter, linalg::LinalgOp tile,
                               const ReductionCombiner &combiner) {
  Operation *oneDimensional = replaceByOneDimensionalWindow(rewriter, tile);
  if (!oneDimensional)
    return;
  // The vector code replaces the 1-D op between its neighbours.
  Operation *before = oneDimensional->getPrevNode();
  Operation *after = oneDimensional->getNextNode();
  Block *block = oneDimensional->getBlock();
  if (failed(vectorizeStaticTile(rewriter,
                                 cast<linalg::LinalgOp>(oneDimensional))) ||
      !combiner.name || !combiner.flags)
    return;
  auto first = before ? std::next(before->getIterator()) : block->begin();
  auto last = after ? after->getIterator() : block->end();
  restoreCombinerFlags(rewriter, llvm::make_range(first, last), combiner);
}

/// Tiles a static NHWC channel window (depthwise convolution, max, min or
/// sum pooling) into one output row of up to kWindowColumns columns by
/// `lanes` channels per tile, with one filter row (kh) per tile loop
/// iteration; each tile, the 1-D form of the op, vectorizes into
/// `lanes`-wide multiply-adds (maxima, minima, sums) whose accumulators the
/// filter-row loop keeps in registers once hoisted.
static LogicalResult tileAndVectorizeWindow(
    RewriterBase &rewriter, linalg::LinalgOp op, int64_t lanes,
    const FrozenRewritePatternSet &tileFolding, bool &movedNeighbors) {
  if (!isChannelWindow(op) || !op.hasPureBufferSemantics() ||
      op.hasDynamicShape())
    return failure();
  // Loops: n, oh, ow, c, kh, kw.
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (ranges.size() != 6 || ranges[3] % lanes != 0)
    return failure();
  ReductionCombiner combiner = getReductionCombiner(op);
  // Tiles of equal width, so that all have the static shape the vectorizer
  // needs: the widest that divides the row.
  int64_t columns = kWindowColumns;
  while (ranges[2] % columns != 0)
    --columns;
  SmallVector<int64_t> tileSizes = {1, 1, columns, lanes, 1, 0};
  // Found before tiling, which puts its loops between the op and them.
  WindowNeighbors neighbors = getWindowNeighbors(op);
  untileShortLoops(tileSizes, ranges);
  Value out = op.getDpsInits()[0];
  FailureOr<scf::SCFTilingResult> tiled = tileAndErase(rewriter, op, tileSizes);
  if (failed(tiled))
    return failure();
  SmallVector<linalg::LinalgOp> neighborTiles;
  if (neighbors.fill || neighbors.epilogue) {
    moveNeighborsIntoWindowTiles(rewriter, neighbors, *tiled, tileSizes, ranges,
                                 out, neighborTiles);
    movedNeighbors = true;
  }
  Operation *root = getOutermost(*tiled);
  foldTileSizes(root, tileFolding);
  SmallVector<linalg::LinalgOp> rows;
  root->walk([&](linalg::LinalgOp tile) {
    if (isChannelWindow(tile))
      rows.push_back(tile);
  });
  for (linalg::LinalgOp tile : rows)
    vectorizeWindowRow(rewriter, tile, combiner);
  for (linalg::LinalgOp tile : neighborTiles)
    (void)vectorizeStaticTile(rewriter, tile);
  return success();
}

/// Whether `op` is a convolution or pooling that upstream's vectorizer
/// cannot take: it converts the operands of these ops to the output's
/// element type itself, ignoring their bodies, and handles only widening
/// within one kind. It crashed (found by fuzzing) on operands that mix
/// integer and floating-point elements (f32 and bf16 into an i64 depthwise
/// result) and on an input wider than the output (f32 into f16).
static bool isUnpromotableWindow(linalg::LinalgOp op) {
  if (!linalg::isaConvolutionOpInterface(op) || op.getNumDpsInits() != 1)
    return false;
  Type output = getElementTypeOrSelf(op.getDpsInits()[0]);
  for (OpOperand *input : op.getDpsInputOperands()) {
    // A pooling's window operand gives only its shape.
    if (!op.payloadUsesValueFromOperand(input))
      continue;
    Type element = getElementTypeOrSelf(input->get());
    if (isa<FloatType>(element) != isa<FloatType>(output) ||
        !element.isIntOrFloat() || !output.isIntOrFloat() ||
        element.getIntOrFloatBitWidth() > output.getIntOrFloatBitWidth())
      return true;
  }
  return false;
}

/// Whether `op` is a generic whose reductions are all over loops outside
/// its innermost one, which is parallel. Tiled one step at a time along
/// them, its tiles reduce over unit loops only: without those loops they
/// are elementwise ops, which upstream's vectorizer takes whatever their
/// combiner (an argmax's comparison and selections, which it does not take
/// as a reduction).
/// Its body must be arithmetic and math only (and linalg.index, and the
/// affine.apply tiling adds to it), which upstream vectorizes elementwise:
/// an op it would not vectorize for another reason stays whole for the
/// loop lowering, not tiled into scalar tiles.
static bool reducesOnlyOuterLoops(linalg::LinalgOp op) {
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  if (!isa<linalg::GenericOp>(op) || op.getNumReductionLoops() == 0 ||
      iterators.empty() || !linalg::isParallelIterator(iterators.back()))
    return false;
  return llvm::all_of(op.getBlock()->without_terminator(), [](Operation &op) {
    StringRef dialect = op.getName().getDialectNamespace();
    return isa<linalg::IndexOp, affine::AffineApplyOp>(op) ||
           dialect == arith::ArithDialect::getDialectNamespace() ||
           dialect == math::MathDialect::getDialectNamespace();
  });
}

/// The views of `tile`'s operands without the dimensions that read the
/// loops of `dropped`, and `tile`'s maps without those loops.
static void dropLoopsFromOperands(RewriterBase &rewriter, linalg::LinalgOp tile,
                                  const llvm::SmallBitVector &dropped,
                                  SmallVectorImpl<Value> &operands,
                                  SmallVectorImpl<AffineMap> &maps) {
  for (OpOperand &operand : tile->getOpOperands()) {
    AffineMap map = tile.getMatchingIndexingMap(&operand);
    llvm::SmallBitVector unitResults(map.getNumResults());
    for (auto [position, expr] : llvm::enumerate(map.getResults()))
      if (auto dim = dyn_cast<AffineDimExpr>(expr))
        unitResults[position] = dropped.test(dim.getPosition());
    Value value = operand.get();
    auto type = cast<MemRefType>(value.getType());
    if (unitResults.any()) {
      SmallVector<int64_t> shape;
      for (auto [position, size] : llvm::enumerate(type.getShape()))
        if (!unitResults.test(position))
          shape.push_back(size);
      SmallVector<OpFoldResult> offsets(type.getRank(),
                                        rewriter.getIndexAttr(0));
      SmallVector<OpFoldResult> sizes =
          getAsIndexOpFoldResult(rewriter.getContext(), type.getShape());
      SmallVector<OpFoldResult> strides(type.getRank(),
                                        rewriter.getIndexAttr(1));
      auto reduced = memref::SubViewOp::inferRankReducedResultType(
          shape, type, offsets, sizes, strides);
      value = memref::SubViewOp::create(rewriter, tile.getLoc(), reduced, value,
                                        offsets, sizes, strides);
    }
    operands.push_back(value);
    maps.push_back(compressDims(map.dropResults(unitResults), dropped));
  }
}

/// `tile`, whose reduction loops all run once, as a generic without them
/// over rank-reduced views of its operands: an elementwise op. Nothing when
/// a reduction loop runs more than once.
static linalg::GenericOp dropUnitReductions(RewriterBase &rewriter,
                                            linalg::LinalgOp tile) {
  auto generic = dyn_cast<linalg::GenericOp>(tile.getOperation());
  if (!generic || !generic.hasPureBufferSemantics() || tile.hasDynamicShape())
    return nullptr;
  SmallVector<int64_t> ranges = tile.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = tile.getIteratorTypesArray();
  llvm::SmallBitVector dropped(ranges.size());
  SmallVector<utils::IteratorType> kept;
  for (auto [loop, iterator] : llvm::enumerate(iterators)) {
    if (!linalg::isReductionIterator(iterator)) {
      kept.push_back(iterator);
      continue;
    }
    if (ranges[loop] != 1)
      return nullptr;
    dropped.set(loop);
  }
  rewriter.setInsertionPoint(tile);
  SmallVector<Value> operands;
  SmallVector<AffineMap> maps;
  dropLoopsFromOperands(rewriter, tile, dropped, operands, maps);
  int64_t inputs = tile.getNumDpsInputs();
  auto elementwise = linalg::GenericOp::create(
      rewriter, tile.getLoc(), TypeRange{},
      ArrayRef(operands).take_front(inputs),
      ArrayRef(operands).drop_front(inputs), maps, kept);
  rewriter.inlineRegionBefore(generic.getRegion(), elementwise.getRegion(),
                              elementwise.getRegion().begin());
  // A dropped loop's index is 0; the others count only the loops kept.
  SmallVector<linalg::IndexOp> indices;
  elementwise.getBlock()->walk(
      [&](linalg::IndexOp index) { indices.push_back(index); });
  for (linalg::IndexOp index : indices) {
    uint64_t loop = index.getDim();
    rewriter.setInsertionPoint(index);
    if (dropped.test(loop)) {
      rewriter.replaceOpWithNewOp<arith::ConstantIndexOp>(index, 0);
      continue;
    }
    int64_t before =
        llvm::count_if(llvm::seq<uint64_t>(0, loop),
                       [&](uint64_t l) { return dropped.test(l); });
    rewriter.modifyOpInPlace(index, [&] { index.setDim(loop - before); });
  }
  rewriter.eraseOp(tile);
  return elementwise;
}

/// Replaces a linalg op of static shape by vector code; a tile that does not
/// vectorize stays a linalg op, which the loop lowering takes. Appends the
/// ops upstream's vectorizer made to `made`, when given.
static LogicalResult vectorizeStaticTile(RewriterBase &rewriter,
                                         linalg::LinalgOp tile,
                                         SmallVectorImpl<Operation *> *made) {
  if (isWindowCopy(tile) && !tile.hasOnlyProjectedPermutations())
    return vectorizeWindowCopyTile(rewriter, tile);
  if (isUnpromotableWindow(tile))
    return failure();
  ReductionCombiner combiner = getReductionCombiner(tile);
  if (reducesOnlyOuterLoops(tile) &&
      failed(linalg::vectorizeOpPrecondition(tile)))
    if (linalg::GenericOp elementwise = dropUnitReductions(rewriter, tile))
      tile = elementwise;
  FailureOr<llvm::iterator_range<Block::iterator>> vectorOps =
      vectorizeInPlace(rewriter, tile);
  if (failed(vectorOps))
    return failure();
  restoreCombinerFlags(rewriter, *vectorOps, combiner);
  if (made)
    for (Operation &op : *vectorOps)
      made->push_back(&op);
  return success();
}

/// Vectors of output columns in a contraction's register tile, and the most
/// rows it has (fewer when the registers do not hold them).
static constexpr int64_t kContractionVectors = 2;
static constexpr int64_t kContractionRows = 8;
/// Bytes of B a block of a contraction's reduction reads per column tile:
/// L1's share, so that the register tiles of a block find them there.
static constexpr int64_t kContractionBlockBytes = 32 * 1024;

/// Tiles `op` to [1, ..., 1, lanes], peels the innermost tile loop and
/// vectorizes every tile. `tileFolding` (see makeTileFoldingPatterns) folds
/// the tiles' constant sizes into their types.
/// Sets `unrolledAccumulators` when it unrolled a short row of accumulators
/// for hoisting, `jammedRows` when it jammed rows (nx::jamReductionRows).
static LogicalResult
tileAndVectorize(RewriterBase &rewriter, linalg::LinalgOp op, int64_t lanes,
                 const FrozenRewritePatternSet &tileFolding,
                 bool &unrolledAccumulators, bool &jammedRows) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  // A dimension of static extent at most the tile size is not tiled; its
  // tile is the whole extent.
  SmallVector<int64_t> tileSizes, wholeSizes;
  for (auto [i, range] : llvm::enumerate(ranges)) {
    int64_t tile = i + 1 == ranges.size() ? lanes : 1;
    if (range == 0)
      return failure();
    bool whole = !ShapedType::isDynamic(range) && range <= tile;
    tileSizes.push_back(whole ? 0 : tile);
    wholeSizes.push_back(ShapedType::isDynamic(range) ? 1 : range);
  }
  // Whether the vectorizer takes this op at all (its body, its maps),
  // asked of the whole op before tiling: with vector sizes covering its
  // static extents, as the check requires, and masks for dynamic ones.
  // An op whose reductions are outer loops only may fail it for its
  // combiner alone; its tiles do not reduce (see reducesOnlyOuterLoops).
  bool windowCopy = isWindowCopy(op) && !op.hasOnlyProjectedPermutations();
  bool unitReductions = reducesOnlyOuterLoops(op) && !op.hasDynamicShape();
  if (!windowCopy && !unitReductions &&
      failed(linalg::vectorizeOpPrecondition(op, op.hasDynamicShape()
                                                     ? ArrayRef(wholeSizes)
                                                     : ArrayRef<int64_t>())))
    return failure();

  if (llvm::all_of(tileSizes, [](int64_t size) { return size == 0; })) {
    if (op.hasDynamicShape())
      return failure();
    return vectorizeStaticTile(rewriter, op);
  }

  // `op` is erased once tiled.
  bool reduces = op.getNumReductionLoops() != 0;
  nx::RowJam jam = nx::classifyRowJam(op, tileSizes);
  FailureOr<scf::SCFTilingResult> tiled = tileAndErase(rewriter, op, tileSizes);
  if (failed(tiled))
    return failure();
  // Full tiles in the innermost dimension's loop, the partial one (if any)
  // in a copy of it after it. A dynamic partial tile is left to the loop
  // lowering.
  auto inner = cast<scf::ForOp>(tiled->loops.back().getOperation());
  scf::ForOp partial;
  if (tileSizes.back() != 0)
    (void)scf::peelForLoopAndSimplifyBounds(rewriter, inner, partial);
  // The full tiles' sizes are constants now (and so is the partial tile's
  // when the op is static); folding them into the slices' types gives those
  // tiles a static shape. The tiles are found before that clean-up, which
  // moves but does not replace them.
  SmallVector<linalg::LinalgOp> tiles;
  SmallVector<Operation *> bodyOps;
  auto collect = [&](Operation *nested) {
    bodyOps.push_back(nested);
    if (auto tile = dyn_cast<linalg::LinalgOp>(nested))
      tiles.push_back(tile);
  };
  inner.getBody()->walk(collect);
  if (partial) {
    // A partial tile loop runs once: it becomes its body.
    bodyOps.push_back(partial);
    partial.getBody()->walk(collect);
  }
  applyToOpsAndNew(bodyOps, tileFolding);

  for (linalg::LinalgOp tile : tiles)
    if (!tile.hasDynamicShape())
      (void)vectorizeStaticTile(rewriter, tile);
  // A reduction over an outer loop reads and writes its accumulators in
  // the innermost tile loop. Unrolled, when it is short, their vectors are
  // invariant in the reduction loop, so hoisting keeps them in registers.
  // A longer row of accumulators stays in memory, read and written along
  // the rows: in blocks of four vectors with the rows inside, the input
  // would be read with a stride of a whole row, which measured twice as
  // slow for 2048x2048 column sums.
  std::optional<APInt> trips = inner.getStaticTripCount();
  if (reduces && trips && trips->ule(nx::kVectorAccumulators)) {
    if (succeeded(loopUnrollFull(inner)))
      unrolledAccumulators = true;
  } else if (reduces && nx::jamReductionRows(rewriter, inner, jam)) {
    jammedRows = true;
  }
  return success();
}

/// Whether, inside `loop`, the buffer `base` is accessed only by `read`,
/// `write` and transfers provably disjoint from `write`. Views of `base`
/// made outside the loop may exist (a later op's tiles), but none may be
/// used inside it: their accesses could overlap.
static bool accessedInLoopOnlyBy(Value base, Operation *loop,
                                 vector::TransferReadOp read,
                                 vector::TransferWriteOp write) {
  auto writeTransfer = cast<VectorTransferOpInterface>(write.getOperation());
  for (Operation *user : base.getUsers()) {
    if (auto view = dyn_cast<ViewLikeOpInterface>(user)) {
      if (loop->isAncestor(user))
        return false;
      SmallVector<Value> views(view->getResults());
      while (!views.empty())
        for (Operation *viewUser : views.pop_back_val().getUsers()) {
          if (loop->isAncestor(viewUser))
            return false;
          if (isa<ViewLikeOpInterface>(viewUser))
            views.append(viewUser->result_begin(), viewUser->result_end());
        }
      continue;
    }
    if (!loop->isAncestor(user) || user == read || user == write)
      continue;
    auto other = dyn_cast<VectorTransferOpInterface>(user);
    if (!other ||
        !vector::isDisjointTransferSet(writeTransfer, other,
                                       /*testDynamicValueUsingBounds=*/true))
      return false;
  }
  return true;
}

/// Moves an accumulator read and written at the same loop-invariant place
/// in every iteration of an `scf.for` out of it, as the loop's `iter_args`.
/// Upstream's hoistRedundantVectorTransfers does the same but gives up on a
/// buffer that has a view anywhere, which every partial-result buffer has
/// once a later op is tiled over threads. Returns whether it moved one.
static bool hoistOneAccumulator(RewriterBase &rewriter, Operation *root) {
  bool hoisted = false;
  root->walk([&](vector::TransferReadOp read) {
    auto loop = dyn_cast<scf::ForOp>(read->getParentOp());
    Value base = read.getBase();
    if (!loop || !isa<MemRefType>(base.getType()) ||
        base.getDefiningOp<ViewLikeOpInterface>() ||
        llvm::any_of(read->getOperands(), [&](Value operand) {
          return !loop.isDefinedOutsideOfLoop(operand);
        }))
      return WalkResult::advance();
    vector::TransferWriteOp write;
    for (Operation *user : base.getUsers()) {
      auto candidate = dyn_cast<vector::TransferWriteOp>(user);
      if (candidate && candidate->getBlock() == read->getBlock() &&
          read->isBeforeInBlock(candidate) &&
          candidate.getIndices() == read.getIndices() &&
          candidate.getVectorType() == read.getVectorType() &&
          candidate.getPermutationMap() == read.getPermutationMap() &&
          !candidate.getMask() && !read.getMask()) {
        if (write)
          return WalkResult::advance(); // two writes: not an accumulator
        write = candidate;
      }
    }
    if (!write || !accessedInLoopOnlyBy(base, loop, read, write))
      return WalkResult::advance();
    loop.moveOutOfLoop(read);
    rewriter.moveOpAfter(write, loop);
    auto yieldWritten = [&](OpBuilder &, Location, ArrayRef<BlockArgument>) {
      return SmallVector<Value>{write.getVector()};
    };
    FailureOr<LoopLikeOpInterface> grown =
        cast<LoopLikeOpInterface>(loop.getOperation())
            .replaceWithAdditionalYields(rewriter, read.getVector(),
                                         /*replaceInitOperandUsesInLoop=*/true,
                                         yieldWritten);
    if (failed(grown))
      return WalkResult::interrupt();
    rewriter.modifyOpInPlace(write, [&] {
      write.getValueToStoreMutable().assign((*grown)->getResults().back());
    });
    hoisted = true;
    return WalkResult::interrupt();
  });
  return hoisted;
}

/// Folds constant slice sizes into the slices' types and a loop that runs
/// once into its body.
static RewritePatternSet makeTileFoldingPatterns(MLIRContext *context) {
  RewritePatternSet patterns(context);
  affine::AffineApplyOp::getCanonicalizationPatterns(patterns, context);
  affine::AffineMinOp::getCanonicalizationPatterns(patterns, context);
  memref::SubViewOp::getCanonicalizationPatterns(patterns, context);
  memref::DimOp::getCanonicalizationPatterns(patterns, context);
  scf::ForOp::getCanonicalizationPatterns(patterns, context);
  return patterns;
}

/// Makes transfers address their buffer directly rather than through the
/// tile's subview, which lets accumulators be hoisted out of reduction
/// loops. Kept apart from the unit-dimension patterns, which make the
/// rank-reducing subviews these fold.
static RewritePatternSet makeAliasFoldingPatterns(MLIRContext *context) {
  RewritePatternSet patterns(context);
  memref::populateFoldMemRefAliasOpPatterns(patterns);
  // Reads and writes of reversed views, once they index the view directly.
  nx::populateReversedRowPatterns(patterns);
  return patterns;
}

/// Reads one element as a 0-d vector (a row tile's element of a
/// contraction's left-hand side) with memref.load and a broadcast. The LLVM
/// lowering takes 0-d reads only from buffers of unit innermost stride, and
/// a left-hand side may be a view that takes every other column.
namespace {
struct LoadZeroDimensionalRead : OpRewritePattern<vector::TransferReadOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::TransferReadOp read,
                                PatternRewriter &rewriter) const override {
    if (read.getVectorType().getRank() != 0 || read.getMask() ||
        !isa<MemRefType>(read.getBase().getType()))
      return failure();
    Value element = memref::LoadOp::create(rewriter, read.getLoc(),
                                           read.getBase(), read.getIndices());
    rewriter.replaceOpWithNewOp<vector::BroadcastOp>(read, read.getVectorType(),
                                                     element);
    return success();
  }
};
} // namespace

/// Drops the unit dimensions of vectors, so each transfer reads or writes
/// one vector register. A tile of a reduction over an outer dimension
/// reduces over a unit dimension: that becomes the combiner alone.
static RewritePatternSet makeUnitDimPatterns(MLIRContext *context) {
  RewritePatternSet patterns(context);
  vector::populateCastAwayVectorLeadingOneDimPatterns(patterns);
  vector::populateVectorTransferDropUnitDimsPatterns(patterns);
  vector::MultiDimReductionOp::getCanonicalizationPatterns(patterns, context);
  vector::ShapeCastOp::getCanonicalizationPatterns(patterns, context);
  vector::BroadcastOp::getCanonicalizationPatterns(patterns, context);
  patterns.add<LoadZeroDimensionalRead>(context);
  return patterns;
}

/// Turns the reads of a contraction tile's operands that broadcast into
/// reads and broadcasts, drops the reduction step's unit dimension, and
/// moves elementwise ops (extensions of narrow inputs) before the
/// broadcasts. Without the permutation-map lowering and the sinking, a
/// 512x512 i8 product took 51 ms instead of 3.7; without the unit-dimension
/// patterns, every row's tile keeps a transpose of B's row.
static RewritePatternSet makeContractionVectorPatterns(MLIRContext *context) {
  RewritePatternSet patterns(context);
  vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
  vector::populateDropInnerMostUnitDimsXferOpPatterns(patterns);
  vector::populateDropUnitDimWithShapeCastPatterns(patterns);
  vector::populateSinkVectorOpsPatterns(patterns);
  vector::ShapeCastOp::getCanonicalizationPatterns(patterns, context);
  vector::BroadcastOp::getCanonicalizationPatterns(patterns, context);
  vector::TransposeOp::getCanonicalizationPatterns(patterns, context);
  return patterns;
}

/// The channel windows among the pass's candidates and the fill and
/// epilogue each may take into its tiles (tileAndVectorizeWindow): those
/// wait for it.
struct WindowNeighborhoods {
  llvm::DenseMap<Operation *, WindowNeighbors> ofWindow;
  llvm::DenseSet<Operation *> waiting;
};

static WindowNeighborhoods
findWindowNeighbors(ArrayRef<linalg::LinalgOp> candidates) {
  WindowNeighborhoods windows;
  for (linalg::LinalgOp op : candidates) {
    if (!isChannelWindow(op))
      continue;
    WindowNeighbors neighbors = getWindowNeighbors(op);
    for (Operation *neighbor :
         {neighbors.fill.getOperation(), neighbors.epilogue.getOperation()})
      if (neighbor)
        windows.waiting.insert(neighbor);
    windows.ofWindow[op] = neighbors;
  }
  return windows;
}

namespace {

struct NxVectorizeLinalgPass
    : nx::impl::NxVectorizeLinalgPassBase<NxVectorizeLinalgPass> {
  using NxVectorizeLinalgPassBase::NxVectorizeLinalgPassBase;

  // Frozen once: freezing a pattern set costs more than applying it to one
  // tile, and a large program has thousands of tiles.
  LogicalResult initialize(MLIRContext *context) override {
    tileFolding = makeTileFoldingPatterns(context);
    unitDims = makeUnitDimPatterns(context);
    aliasFolding = makeAliasFoldingPatterns(context);
    RewritePatternSet permutations(context);
    vector::populateVectorTransferPermutationMapLoweringPatterns(permutations);
    permutationLowering = std::move(permutations);
    RewritePatternSet squares(context);
    nx::populateTransposeSquarePatterns(squares, vectorBits);
    transposeSquares = std::move(squares);
    contractionVectors = makeContractionVectorPatterns(context);
    return success();
  }

  /// What vectorizing the candidates did, which decides the clean-ups
  /// after it. Statistics may be compiled out (LLVM without
  /// LLVM_ENABLE_STATS): `vectorized` counts for itself.
  struct Progress {
    int64_t vectorized = 0;
    bool unrolledAccumulators = false;
    bool jammedRows = false;
    bool movedNeighbors = false;
  };

  void runOnOperation() override {
    if (failed(nx::checkVectorBitsOptions(getOperation(), getArgument(),
                                          vectorBits, reductionVectorBits)))
      return signalPassFailure();
    if (failed(nx::verifyStaticBoundsBeforeRewrite(getOperation())))
      return signalPassFailure();
    SmallVector<linalg::LinalgOp> candidates;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (op.hasPureBufferSemantics())
        candidates.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    Progress progress;
    WindowNeighborhoods windows = findWindowNeighbors(candidates);
    llvm::DenseSet<Operation *> replaced = vectorizeSplitRowReductions(
        rewriter, candidates, windows.waiting, progress);
    vectorizeCandidates(rewriter, candidates, windows, replaced, progress);
    nx::addStatistic(numVectorized, progress.vectorized);
    if (progress.vectorized == 0)
      return;
    if (failed(cleanUpAfter(progress)))
      return signalPassFailure();
  }

  /// Vectorizes `op` by the first tiling that takes it: register tiles of
  /// a contraction, vectors along its innermost loop, squares of a
  /// transpose, or rows of a channel window, which sets `tookNeighbors` when
  /// its tiles took its fill or epilogue. Returns whether one did.
  bool vectorizeOne(RewriterBase &rewriter, linalg::LinalgOp op,
                    bool &tookNeighbors, Progress &progress) {
    if (succeeded(tileAndVectorizeContraction(rewriter, op))) {
      progress.unrolledAccumulators = true;
      nx::addStatistic(numContractions);
      return true;
    }
    std::optional<int64_t> lanes =
        getLanes(op, vectorBits, reductionVectorBits);
    rewriter.setInsertionPoint(op);
    if (lanes && succeeded(tileAndVectorize(rewriter, op, *lanes, tileFolding,
                                            progress.unrolledAccumulators,
                                            progress.jammedRows)))
      return true;
    std::optional<int64_t> transposeLanes = nx::getVectorLanes(op, vectorBits);
    std::optional<unsigned> transposed =
        transposeLanes ? getTransposedLoop(op, *transposeLanes) : std::nullopt;
    if (transposed && succeeded(tileAndVectorizeTranspose(
                          rewriter, op, *transposed, *transposeLanes,
                          tileFolding, permutationLowering, transposeSquares)))
      return true;
    if (transposeLanes && isChannelWindow(op) &&
        succeeded(tileAndVectorizeWindow(rewriter, op, *transposeLanes,
                                         tileFolding, tookNeighbors))) {
      progress.unrolledAccumulators = true;
      progress.movedNeighbors |= tookNeighbors;
      return true;
    }
    return false;
  }

  /// Tiles a contraction into register tiles (nx::tileContraction) of
  /// kContractionVectors vectors of columns by as many rows as leave
  /// registers for a row of the right-hand side and a broadcast, and
  /// vectorizes each tile of static shape. Operands narrower than 32 bits
  /// count as 32-bit ones: x86 computes f16 and bf16 in f32, and products
  /// of i8 and i16 mostly sum into i32.
  LogicalResult tileAndVectorizeContraction(RewriterBase &rewriter,
                                            linalg::LinalgOp op) {
    std::optional<nx::ContractionLoops> loops = nx::matchContractionLoops(op);
    if (!loops || failed(linalg::vectorizeOpPrecondition(op)))
      return failure();
    std::optional<int64_t> lanes = nx::getVectorLanes(op, vectorBits);
    if (!lanes)
      return failure();
    int64_t widest = vectorBits / *lanes;
    int64_t columns =
        kContractionVectors * vectorBits / std::max<int64_t>(widest, 32);
    int64_t registers = vectorBits >= 512 ? 32 : 16;
    int64_t rows = std::min<int64_t>(kContractionRows,
                                     (registers - 4) / kContractionVectors);
    // B's slice of a block of the reduction: kContractionBlockBytes.
    Value rhs = op.getDpsInputs()[loops->rhs];
    int64_t rhsBytes =
        getElementTypeOrSelf(rhs.getType()).getIntOrFloatBitWidth() / 8;
    nx::RegisterTile shape{
        rows, columns,
        std::max<int64_t>(1, kContractionBlockBytes / (columns * rhsBytes))};
    rewriter.setInsertionPoint(op);
    FailureOr<SmallVector<linalg::LinalgOp>> tiles =
        nx::tileContraction(rewriter, op, *loops, shape, tileFolding);
    if (failed(tiles))
      return failure();
    // The vector code each tile became: a row's tile reads one element of
    // the left-hand side, broadcast across the columns. Elementwise ops on
    // it (an extension of i8 or bf16 inputs) move before the broadcast:
    // after it, LLVM extends every lane apart (a 512x512 product of i8 into
    // i32 took 50 ms instead of 3.7).
    SmallVector<Operation *> made;
    for (linalg::LinalgOp tile : *tiles)
      if (!tile.hasDynamicShape())
        (void)vectorizeStaticTile(rewriter, tile, &made);
    applyToOpsAndNew(made, contractionVectors);
    return success();
  }

  /// Vectorizes each split row reduction among `candidates` whose ops wait
  /// for no window as one loop per row with its accumulators in registers;
  /// op by op, its three ops would pass them through memory at each row's
  /// start and end. Returns the ops it replaced.
  llvm::DenseSet<Operation *> vectorizeSplitRowReductions(
      RewriterBase &rewriter, ArrayRef<linalg::LinalgOp> candidates,
      const llvm::DenseSet<Operation *> &waiting, Progress &progress) {
    llvm::DenseSet<Operation *> replaced;
    for (linalg::LinalgOp op : candidates) {
      if (replaced.contains(op))
        continue;
      std::optional<nx::SplitRowReduction> reduction =
          nx::matchSplitRowReduction(op);
      if (!reduction)
        continue;
      std::optional<int64_t> lanes =
          getLanes(reduction->partial, vectorBits, reductionVectorBits);
      SmallVector<Operation *> ops{reduction->fill, reduction->partial,
                                   reduction->final};
      if (!lanes || llvm::any_of(ops, [&](Operation *o) {
            return waiting.contains(o) || replaced.contains(o);
          }))
        continue;
      if (failed(nx::vectorizeSplitRowReduction(rewriter, *reduction, *lanes)))
        continue;
      replaced.insert(ops.begin(), ops.end());
      progress.vectorized += 3;
      nx::addStatistic(numRowReductions);
    }
    return replaced;
  }

  /// Vectorizes the candidates not `replaced`, each channel window's
  /// waiting neighbours with it: in its tiles, or on their own when it did
  /// not take them.
  void vectorizeCandidates(RewriterBase &rewriter,
                           ArrayRef<linalg::LinalgOp> candidates,
                           const WindowNeighborhoods &windows,
                           const llvm::DenseSet<Operation *> &replaced,
                           Progress &progress) {
    auto count = [&](bool done) {
      if (done)
        ++progress.vectorized;
      else
        nx::addStatistic(numLeft);
    };
    for (linalg::LinalgOp op : candidates) {
      if (windows.waiting.contains(op) || replaced.contains(op))
        continue;
      auto neighbors = windows.ofWindow.find(op);
      bool tookNeighbors = false;
      count(vectorizeOne(rewriter, op, tookNeighbors, progress));
      if (neighbors == windows.ofWindow.end() || tookNeighbors)
        continue;
      WindowNeighbors left = neighbors->second;
      for (Operation *neighbor :
           {left.fill.getOperation(), left.epilogue.getOperation()})
        if (neighbor)
          count(vectorizeOne(rewriter, cast<linalg::LinalgOp>(neighbor),
                             tookNeighbors, progress));
    }
  }

  /// What the tiles' vector code needs once every candidate is done: unit
  /// dimensions dropped and, where `progress` says tiles made them,
  /// accumulators hoisted into registers and transfers forwarded.
  LogicalResult cleanUpAfter(const Progress &progress) {
    cleanUpVectors();
    if (progress.unrolledAccumulators && failed(hoistAccumulators()))
      return failure();
    // The fills and epilogues moved into window tiles meet the
    // accumulators' transfers, and so do the copies of jammed rows: forward
    // them and drop the writes they overwrite.
    if (progress.movedNeighbors || progress.jammedRows) {
      IRRewriter flowRewriter(&getContext());
      vector::transferOpflowOpt(flowRewriter, getOperation());
    }
    // Last, once the tiles' writes index their buffers directly.
    if (!streamUnreadOutputs)
      return success();
    IRRewriter streamRewriter(&getContext());
    nx::addStatistic(numStreamed, nx::streamUnreadOutputWrites(streamRewriter,
                                                               getOperation()));
    return success();
  }

  /// Accumulators read and written at the same place in every iteration of
  /// a reduction loop become the loop's vector iter_args. Hoisting needs
  /// the transfers' indices to be the same values, and provably disjoint
  /// from the other accumulators' (constants, not the unrolled loop's
  /// affine.apply of its induction variable): canonicalization and CSE
  /// first.
  LogicalResult hoistAccumulators() {
    OpPassManager cleanUp(getOperation()->getName());
    cleanUp.addPass(createCanonicalizerPass());
    cleanUp.addPass(createCSEPass());
    if (failed(runPipeline(cleanUp, getOperation())))
      return failure();
    // Indices computed in the loop from values defined outside it move out
    // first, as upstream's hoisting does for itself.
    getOperation()->walk(
        [](LoopLikeOpInterface loop) { moveLoopInvariantCode(loop); });
    IRRewriter rewriter(&getContext());
    while (hoistOneAccumulator(rewriter, getOperation())) {
    }
    linalg::hoistRedundantVectorTransfers(getOperation());
    return success();
  }

  /// Drops the unit dimensions of the vector ops the tiles became.
  void cleanUpVectors() {
    SmallVector<Operation *> ops;
    getOperation()->walk([&](Operation *op) {
      if (isa_and_present<vector::VectorDialect>(op->getDialect()) ||
          llvm::any_of(op->getResultTypes(), llvm::IsaPred<VectorType>))
        ops.push_back(op);
    });
    applyToOpsAndNew(ops, unitDims);

    SmallVector<Operation *> transfers;
    getOperation()->walk([&](VectorTransferOpInterface transfer) {
      transfers.push_back(transfer);
    });
    applyToOpsAndNew(transfers, aliasFolding);
  }

  FrozenRewritePatternSet tileFolding, unitDims, aliasFolding,
      permutationLowering, transposeSquares, contractionVectors;
};

} // namespace

#undef DEBUG_TYPE

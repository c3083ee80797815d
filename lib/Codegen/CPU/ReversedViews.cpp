//===- ReversedViews.cpp - reversed accesses as views of negative stride --===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A reversal (`jnp.flip`, StableHLO's `reverse` through linalg) is a
// generic that reads its input at `c - j`. Upstream's tiling takes a slice
// to span from an index at a tile's first iteration to the one at its last,
// which a decreasing index breaks, so nx-linalg-to-openmp kept such ops on
// one thread; and the vectorizer takes only projected permutations, so they
// stayed scalar. Its loop runs backwards where that makes the inputs read
// forward, and the operands accessed at `c - j` go through views whose
// stride along that dimension is negated: the op has identity maps,
// threads share it and the vectorizer takes it like a copy. Its vector
// accesses of a view of innermost stride -1 become accesses in memory
// order and a reversing shuffle.
//
//===----------------------------------------------------------------------===//

#include "nx/Codegen/CPU/ReversedViews.h"
#include "nx/Codegen/CPU/Passes.h"
#include "nx/Support/PassStatistics.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/Support/CheckedArithmetic.h"

#define DEBUG_TYPE "nx-reversed-views"

namespace mlir::nx {
#define GEN_PASS_DEF_NXREVERSEDVIEWSPASS
#include "nx/Codegen/CPU/Passes.h.inc"
} // namespace mlir::nx

using namespace mlir;

namespace {
/// An index `last - loop` of one dimension of an operand.
struct ReversedIndex {
  unsigned dim;
  unsigned loop;
  int64_t last;
};
} // namespace

/// `expr` as `last - loop`, if it is one.
static std::optional<std::pair<unsigned, int64_t>>
matchReversed(AffineExpr expr) {
  auto sum = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!sum || sum.getKind() != AffineExprKind::Add)
    return std::nullopt;
  for (auto [scaled, offset] : {std::pair(sum.getLHS(), sum.getRHS()),
                                std::pair(sum.getRHS(), sum.getLHS())}) {
    auto product = dyn_cast<AffineBinaryOpExpr>(scaled);
    auto constant = dyn_cast<AffineConstantExpr>(offset);
    if (!product || !constant || product.getKind() != AffineExprKind::Mul)
      continue;
    auto loop = dyn_cast<AffineDimExpr>(product.getLHS());
    auto factor = dyn_cast<AffineConstantExpr>(product.getRHS());
    if (loop && factor && factor.getValue() == -1)
      return std::pair(loop.getPosition(), constant.getValue());
  }
  return std::nullopt;
}

/// The reversed indices of `operand`, an input of `op`, that a view can
/// take: the loop runs a static number of times, and `last - loop` stays
/// within the operand's static dimension.
static SmallVector<ReversedIndex> getReversedIndices(linalg::LinalgOp op,
                                                     OpOperand &operand) {
  auto type = dyn_cast<MemRefType>(operand.get().getType());
  if (!type)
    return {};
  SmallVector<int64_t> loopRanges = op.getStaticLoopRanges();
  SmallVector<ReversedIndex> reversed;
  AffineMap map = op.getMatchingIndexingMap(&operand);
  for (auto [dim, expr] : llvm::enumerate(map.getResults())) {
    std::optional<std::pair<unsigned, int64_t>> match = matchReversed(expr);
    if (!match)
      continue;
    auto [loop, last] = *match;
    int64_t extent = loopRanges[loop];
    int64_t size = type.getDimSize(dim);
    if (ShapedType::isDynamic(extent) || ShapedType::isDynamic(size) ||
        extent < 1 || last < extent - 1 || last >= size)
      continue;
    reversed.push_back({static_cast<unsigned>(dim), loop, last});
  }
  return reversed;
}

/// A view of `source` whose element at index `i` along each reversed
/// dimension is the source's at `last - i`: the offset moves to `last`, and
/// the stride and the size become the negated stride and the loop's extent.
static Value createReversedView(RewriterBase &rewriter, Location loc,
                                Value source, linalg::LinalgOp op,
                                ArrayRef<ReversedIndex> reversed) {
  auto metadata =
      memref::ExtractStridedMetadataOp::create(rewriter, loc, source);
  OpFoldResult offset = metadata.getConstifiedMixedOffset();
  SmallVector<OpFoldResult> sizes = metadata.getConstifiedMixedSizes();
  SmallVector<OpFoldResult> strides = metadata.getConstifiedMixedStrides();
  SmallVector<int64_t> loopRanges = op.getStaticLoopRanges();
  // One apply for the offset: the source's plus `last` of each reversed
  // dimension's stride.
  AffineExpr moved = rewriter.getAffineSymbolExpr(0);
  SmallVector<OpFoldResult> movedOperands{offset};
  for (const ReversedIndex &index : reversed) {
    moved =
        moved + rewriter.getAffineSymbolExpr(movedOperands.size()) * index.last;
    movedOperands.push_back(strides[index.dim]);
  }
  offset = affine::makeComposedFoldedAffineApply(
      rewriter, loc, AffineMap::get(0, movedOperands.size(), moved),
      movedOperands);
  AffineExpr stride = rewriter.getAffineSymbolExpr(0);
  for (const ReversedIndex &index : reversed) {
    strides[index.dim] = affine::makeComposedFoldedAffineApply(
        rewriter, loc, -stride, {strides[index.dim]});
    sizes[index.dim] = rewriter.getIndexAttr(loopRanges[index.loop]);
  }
  return memref::ReinterpretCastOp::create(
      rewriter, loc, metadata.getBaseBuffer(), offset, sizes, strides);
}

namespace {
/// How many inputs of a generic read decreasing and increasing addresses
/// along one of its loops.
struct LoopReads {
  int64_t backward = 0;
  int64_t forward = 0;
};
} // namespace

/// Which way `op`'s inputs walk memory along `loop`, which runs `extent`
/// times: the sign of each input's step, the sum of its dimensions'
/// strides, negated for those it reads at `extent - 1 - loop` (an input of
/// dynamic strides or a zero step counts for neither). Nothing when an
/// operand indexes the loop but as `loop` or `extent - 1 - loop` (a window's
/// `h + kh`), which the loop run backwards would turn into maps no view
/// takes, or along a dimension whose size is not `extent` (linalg takes a
/// loop's extent from the first operand indexed by the loop alone, which
/// may then be one that was reversed).
static std::optional<LoopReads> getLoopReads(linalg::GenericOp op,
                                             unsigned loop, int64_t extent) {
  LoopReads reads;
  AffineExpr forward = getAffineDimExpr(loop, op.getContext());
  for (OpOperand &operand : op->getOpOperands()) {
    // Scalar operands index no loop.
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    if (!type)
      continue;
    SmallVector<int64_t> strides;
    int64_t offset;
    bool known = succeeded(type.getStridesAndOffset(strides, offset));
    int64_t step = 0;
    for (auto [dim, expr] :
         llvm::enumerate(op.getMatchingIndexingMap(&operand).getResults())) {
      if (!expr.isFunctionOfDim(loop))
        continue;
      if (type.getDimSize(dim) != extent)
        return std::nullopt;
      std::optional<std::pair<unsigned, int64_t>> match = matchReversed(expr);
      if (expr != forward &&
          (!match || match->first != loop || match->second != extent - 1))
        return std::nullopt;
      known = known && !ShapedType::isDynamic(strides[dim]);
      // In int64: a layout may state any strides.
      std::optional<int64_t> moved;
      if (known)
        moved = expr == forward ? llvm::checkedAdd(step, strides[dim])
                                : llvm::checkedSub(step, strides[dim]);
      known = moved.has_value();
      step = moved.value_or(0);
    }
    // Outputs only need maps that views take; inputs are counted.
    if (!op.isDpsInput(&operand) || !known)
      continue;
    reads.forward += step > 0;
    reads.backward += step < 0;
  }
  return reads;
}

/// Runs `op`'s innermost loop backwards where more of its inputs walk
/// memory backwards than forwards along it (getLoopReads): hardware
/// prefetchers follow increasing addresses better (a streamed reversal
/// from memory took 1.3x the time of one that reads forward and writes
/// backwards, in C on the Zen 4 VM), so the inputs then read forward and
/// the outputs the loop indexes are written at `extent - 1 - loop`. Only
/// the innermost loop: it makes the streams a vector loop reads, where the
/// outer ones only pick the rows. Returns whether it did.
static bool reverseInnermostLoop(RewriterBase &rewriter, linalg::GenericOp op) {
  if (op.getNumLoops() == 0)
    return false;
  unsigned loop = op.getNumLoops() - 1;
  int64_t extent = op.getStaticLoopRanges()[loop];
  if (ShapedType::isDynamic(extent) || extent < 2)
    return false;
  std::optional<LoopReads> reads = getLoopReads(op, loop, extent);
  if (!reads || reads->backward <= reads->forward)
    return false;
  AffineExpr forward = rewriter.getAffineDimExpr(loop);
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  for (AffineMap &map : maps)
    map = simplifyAffineMap(
        map.replace(forward, (extent - 1) - forward, map.getNumDims(), 0));
  // The body's indices of the loop count down from extent - 1 too.
  SmallVector<linalg::IndexOp> indices;
  op.getRegion().walk([&](linalg::IndexOp index) {
    if (index.getDim() == loop)
      indices.push_back(index);
  });
  for (linalg::IndexOp index : indices) {
    rewriter.setInsertionPointAfter(index);
    Value last =
        arith::ConstantIndexOp::create(rewriter, index.getLoc(), extent - 1);
    Value backwards =
        arith::SubIOp::create(rewriter, index.getLoc(), last, index);
    rewriter.replaceAllUsesExcept(index, backwards, backwards.getDefiningOp());
  }
  rewriter.modifyOpInPlace(op, [&] {
    op.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
  });
  return true;
}

/// Reads and writes every reversed operand of `op` through its reversed
/// view. Returns the number of operands rewritten.
static int64_t reverseOperands(RewriterBase &rewriter, linalg::GenericOp op) {
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  int64_t rewritten = 0;
  for (OpOperand &operand : op->getOpOperands()) {
    SmallVector<ReversedIndex> reversed = getReversedIndices(op, operand);
    if (reversed.empty())
      continue;
    rewriter.setInsertionPoint(op);
    Value view =
        createReversedView(rewriter, op.getLoc(), operand.get(), op, reversed);
    AffineMap &map = maps[operand.getOperandNumber()];
    for (const ReversedIndex &index : reversed)
      map = map.replace(map.getResult(index.dim),
                        rewriter.getAffineDimExpr(index.loop), map.getNumDims(),
                        map.getNumSymbols());
    rewriter.modifyOpInPlace(op, [&] { operand.set(view); });
    ++rewritten;
  }
  if (rewritten == 0)
    return 0;
  rewriter.modifyOpInPlace(op, [&] {
    op.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
  });
  return rewritten;
}

/// Whether `type`'s innermost stride is -1: a view createReversedView made.
static bool isReversedRows(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  SmallVector<int64_t> strides;
  int64_t offset;
  return memref && memref.getRank() > 0 &&
         succeeded(memref.getStridesAndOffset(strides, offset)) &&
         strides.back() == -1;
}

/// Whether `vectorType` and `permutation`, `mask` and `inBounds` of a
/// transfer make it one whole 1-D vector of consecutive elements.
static bool isWholeRowTransfer(VectorType vectorType, AffineMap permutation,
                               Value mask, ArrayRef<bool> inBounds) {
  return vectorType.getRank() == 1 && !vectorType.isScalable() && !mask &&
         permutation.isMinorIdentity() &&
         llvm::all_of(inBounds, [](bool b) { return b; });
}

/// The memory of `reversed`, a memref of innermost stride -1, as a view in
/// memory order: the same sizes and outer strides, innermost stride 1, and
/// the offset where `reversed`'s rows end. A view of negated strides of a
/// memref that has exactly that layout (what createReversedView makes of an
/// identity-layout operand) gives that memref back, which nx's streamed
/// stores recognize as an output.
static Value getForwardView(RewriterBase &rewriter, Location loc,
                            Value reversed) {
  auto type = cast<MemRefType>(reversed.getType());
  if (auto cast = reversed.getDefiningOp<memref::ReinterpretCastOp>()) {
    auto source =
        cast.getSource().getDefiningOp<memref::ExtractStridedMetadataOp>();
    SmallVector<int64_t> strides, sourceStrides;
    int64_t offset, sourceOffset;
    if (source && source.getBaseBuffer() == cast.getSource() &&
        source.getSource().getType().getShape() == type.getShape() &&
        succeeded(type.getStridesAndOffset(strides, offset)) &&
        succeeded(source.getSource().getType().getStridesAndOffset(
            sourceStrides, sourceOffset))) {
      strides.back() = 1;
      // Static values only: two dynamic ones need not be the same.
      bool isStatic = type.hasStaticShape() && !ShapedType::isDynamic(offset) &&
                      !ShapedType::isDynamic(sourceOffset) &&
                      llvm::none_of(strides, ShapedType::isDynamic);
      std::optional<int64_t> start =
          isStatic ? llvm::checkedSub(offset, type.getShape().back() - 1)
                   : std::nullopt;
      if (start == sourceOffset && strides == sourceStrides)
        return source.getSource();
    }
  }
  auto metadata =
      memref::ExtractStridedMetadataOp::create(rewriter, loc, reversed);
  SmallVector<OpFoldResult> sizes = metadata.getConstifiedMixedSizes();
  SmallVector<OpFoldResult> strides = metadata.getConstifiedMixedStrides();
  strides.back() = rewriter.getIndexAttr(1);
  AffineExpr start = rewriter.getAffineSymbolExpr(0);
  AffineExpr size = rewriter.getAffineSymbolExpr(1);
  OpFoldResult offset = affine::makeComposedFoldedAffineApply(
      rewriter, loc, start - size + 1,
      {metadata.getConstifiedMixedOffset(), sizes.back()});
  return memref::ReinterpretCastOp::create(
      rewriter, loc, metadata.getBaseBuffer(), offset, sizes, strides);
}

/// The indices in the forward view of getForwardView of the first of
/// `lanes` elements that end at `indices` in the reversed view `reversed`:
/// lanes i..i+lanes-1 of a reversed row are elements size-i-lanes..size-1-i
/// of the forward one.
static SmallVector<Value> getForwardIndices(RewriterBase &rewriter,
                                            Location loc, Value reversed,
                                            ValueRange indices, int64_t lanes) {
  SmallVector<Value> forward(indices);
  OpFoldResult size =
      memref::getMixedSize(rewriter, loc, reversed, indices.size() - 1);
  AffineExpr start = rewriter.getAffineSymbolExpr(0);
  AffineExpr extent = rewriter.getAffineSymbolExpr(1);
  forward.back() = getValueOrCreateConstantIndexOp(
      rewriter, loc,
      affine::makeComposedFoldedAffineApply(
          rewriter, loc, extent - start - lanes, {indices.back(), size}));
  return forward;
}

/// `vector` with its lanes in reverse order.
static Value reverseLanes(RewriterBase &rewriter, Location loc, Value vector) {
  int64_t lanes = cast<VectorType>(vector.getType()).getNumElements();
  SmallVector<int64_t> reversedLanes(lanes);
  for (int64_t lane = 0; lane < lanes; ++lane)
    reversedLanes[lane] = lanes - 1 - lane;
  return vector::ShuffleOp::create(rewriter, loc, vector, vector,
                                   reversedLanes);
}

namespace {

/// See populateReversedRowPatterns.
struct ReadInMemoryOrder final : OpRewritePattern<vector::TransferReadOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::TransferReadOp read,
                                PatternRewriter &rewriter) const override {
    VectorType vectorType = read.getVectorType();
    if (!isReversedRows(read.getBase().getType()) ||
        !isWholeRowTransfer(vectorType, read.getPermutationMap(),
                            read.getMask(), read.getInBoundsValues()))
      return failure();
    Location loc = read.getLoc();
    Value forward = getForwardView(rewriter, loc, read.getBase());
    SmallVector<Value> indices =
        getForwardIndices(rewriter, loc, read.getBase(), read.getIndices(),
                          vectorType.getNumElements());
    Value inOrder = vector::TransferReadOp::create(
        rewriter, loc, vectorType, forward, indices, read.getPadding(),
        SmallVector<bool>(1, true));
    rewriter.replaceOp(read, reverseLanes(rewriter, loc, inOrder));
    return success();
  }
};

/// See populateReversedRowPatterns.
struct WriteInMemoryOrder final : OpRewritePattern<vector::TransferWriteOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::TransferWriteOp write,
                                PatternRewriter &rewriter) const override {
    VectorType vectorType = write.getVectorType();
    if (!isReversedRows(write.getBase().getType()) ||
        !isWholeRowTransfer(vectorType, write.getPermutationMap(),
                            write.getMask(), write.getInBoundsValues()))
      return failure();
    Location loc = write.getLoc();
    Value forward = getForwardView(rewriter, loc, write.getBase());
    SmallVector<Value> indices =
        getForwardIndices(rewriter, loc, write.getBase(), write.getIndices(),
                          vectorType.getNumElements());
    rewriter.replaceOpWithNewOp<vector::TransferWriteOp>(
        write, reverseLanes(rewriter, loc, write.getVector()), forward, indices,
        SmallVector<bool>(1, true));
    return success();
  }
};

struct NxReversedViewsPass final
    : nx::impl::NxReversedViewsPassBase<NxReversedViewsPass> {
  void runOnOperation() override {
    SmallVector<linalg::GenericOp> ops;
    // Parallel loops only: a contraction of views of negative strides would
    // reach the GEMM calls of nx-linalg-to-blas, which take none.
    getOperation()->walk([&](linalg::GenericOp op) {
      if (op.hasPureBufferSemantics() &&
          op.getNumLoops() == op.getNumParallelLoops())
        ops.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    int64_t rewritten = 0;
    for (linalg::GenericOp op : ops) {
      if (reverseInnermostLoop(rewriter, op))
        nx::addStatistic(numBackwardLoops);
      rewritten += reverseOperands(rewriter, op);
    }
    nx::addStatistic(numReversed, rewritten);
  }
};

} // namespace

void nx::populateReversedRowPatterns(RewritePatternSet &patterns) {
  patterns.add<ReadInMemoryOrder, WriteInMemoryOrder>(patterns.getContext());
}

#undef DEBUG_TYPE

//===- ReversedViews.cpp - reversed reads as views of negative stride -----===//
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
// stayed scalar. Read through a view whose stride along that dimension is
// negated, the same op has identity maps: threads share it and the
// vectorizer takes it like a copy. Its vector reads of a view of innermost
// stride -1 become reads in memory order and a reversing shuffle.
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

/// Reads every reversed input of `op` through its reversed view. Returns
/// the number of inputs rewritten.
static int64_t reverseInputs(RewriterBase &rewriter, linalg::GenericOp op) {
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  int64_t rewritten = 0;
  for (OpOperand *operand : op.getDpsInputOperands()) {
    SmallVector<ReversedIndex> reversed = getReversedIndices(op, *operand);
    if (reversed.empty())
      continue;
    rewriter.setInsertionPoint(op);
    Value view =
        createReversedView(rewriter, op.getLoc(), operand->get(), op, reversed);
    AffineMap &map = maps[operand->getOperandNumber()];
    for (const ReversedIndex &index : reversed)
      map = map.replace(map.getResult(index.dim),
                        rewriter.getAffineDimExpr(index.loop), map.getNumDims(),
                        map.getNumSymbols());
    rewriter.modifyOpInPlace(op, [&] { operand->set(view); });
    ++rewritten;
  }
  if (rewritten == 0)
    return 0;
  rewriter.modifyOpInPlace(op, [&] {
    op.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
  });
  return rewritten;
}

namespace {

/// See populateReversedReadPatterns.
struct ReadInMemoryOrder final : OpRewritePattern<vector::TransferReadOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::TransferReadOp read,
                                PatternRewriter &rewriter) const override {
    auto type = dyn_cast<MemRefType>(read.getBase().getType());
    VectorType vectorType = read.getVectorType();
    if (!type || type.getRank() == 0 || vectorType.getRank() != 1 ||
        vectorType.isScalable() || read.getMask() ||
        !read.getPermutationMap().isMinorIdentity() ||
        !llvm::all_of(read.getInBoundsValues(), [](bool b) { return b; }))
      return failure();
    SmallVector<int64_t> strides;
    int64_t offset;
    if (failed(type.getStridesAndOffset(strides, offset)) ||
        strides.back() != -1)
      return failure();
    Location loc = read.getLoc();
    int64_t lanes = vectorType.getNumElements();
    // The forward view starts where the reversed one ends.
    auto metadata =
        memref::ExtractStridedMetadataOp::create(rewriter, loc, read.getBase());
    SmallVector<OpFoldResult> sizes = metadata.getConstifiedMixedSizes();
    SmallVector<OpFoldResult> forwardStrides =
        metadata.getConstifiedMixedStrides();
    forwardStrides.back() = rewriter.getIndexAttr(1);
    AffineExpr start = rewriter.getAffineSymbolExpr(0);
    AffineExpr size = rewriter.getAffineSymbolExpr(1);
    OpFoldResult forwardOffset = affine::makeComposedFoldedAffineApply(
        rewriter, loc, start - size + 1,
        {metadata.getConstifiedMixedOffset(), sizes.back()});
    Value forward = memref::ReinterpretCastOp::create(
        rewriter, loc, metadata.getBaseBuffer(), forwardOffset, sizes,
        forwardStrides);
    // Lanes i..i+lanes-1 of the reversed view are elements
    // size-i-lanes..size-1-i of the forward one, in reverse (`start` now
    // stands for i).
    SmallVector<Value> indices(read.getIndices());
    indices.back() =
        getValueOrCreateConstantIndexOp(rewriter, loc,
                                        affine::makeComposedFoldedAffineApply(
                                            rewriter, loc, size - start - lanes,
                                            {indices.back(), sizes.back()}));
    Value inOrder = vector::TransferReadOp::create(
        rewriter, loc, vectorType, forward, indices, read.getPadding(),
        SmallVector<bool>(1, true));
    SmallVector<int64_t> reversedLanes(lanes);
    for (int64_t lane = 0; lane < lanes; ++lane)
      reversedLanes[lane] = lanes - 1 - lane;
    rewriter.replaceOpWithNewOp<vector::ShuffleOp>(read, inOrder, inOrder,
                                                   reversedLanes);
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
    for (linalg::GenericOp op : ops)
      rewritten += reverseInputs(rewriter, op);
    nx::addStatistic(numReversed, rewritten);
  }
};

} // namespace

void nx::populateReversedReadPatterns(RewritePatternSet &patterns) {
  patterns.add<ReadInMemoryOrder>(patterns.getContext());
}

#undef DEBUG_TYPE

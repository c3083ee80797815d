//===- ReciprocalDivisors.cpp - divide once per divisor, multiply after ---===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A vector division costs several times a multiplication (a 512-bit
// vdivps issues once every 8-16 cycles on Intel cores, a vmulps twice a
// cycle), and a softmax divides every element of a row by the row's sum:
// on an Intel VM the division was a quarter of a softmax kernel's samples.
// Where one divisor serves many points of a linalg.generic, it is inverted
// once, in an op of its own shape, and the generic multiplies by the
// result. `nx-vectorize-linalg` would leave the divisor a broadcast read
// inside the column loop, where LLVM does not hoist a reciprocal out.
//
//===----------------------------------------------------------------------===//

#include "nx/Codegen/CPU/ReciprocalDivisors.h"
#include "nx/Codegen/CPU/Passes.h"
#include "nx/Support/PassStatistics.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#define DEBUG_TYPE "nx-reciprocal-divisors"

namespace mlir::nx {
#define GEN_PASS_DEF_NXRECIPROCALDIVISORSPASS
#include "nx/Codegen/CPU/Passes.h.inc"
} // namespace mlir::nx

using namespace mlir;

/// The fewest points of a generic one divisor must serve: below it, the
/// reciprocal's own pass over the divisors costs more than the divisions it
/// saves.
static constexpr int64_t kMinPointsPerDivisor = 8;

/// The divisions in `op`'s body by `divisor`, or none when `divisor` has any
/// other use (a dividend's too): then the generic still needs the divisor
/// itself.
static SmallVector<arith::DivFOp> getDivisionsBy(BlockArgument divisor) {
  SmallVector<arith::DivFOp> divisions;
  for (OpOperand &use : divisor.getUses()) {
    auto division = dyn_cast<arith::DivFOp>(use.getOwner());
    if (!division || use.getOperandNumber() != 1)
      return {};
    divisions.push_back(division);
  }
  return divisions;
}

/// Whether each element `operand` reads serves at least
/// kMinPointsPerDivisor of `op`'s points: its map is a projection, and the
/// loops it drops cover that many points (a dynamic loop counts as enough).
static bool servesManyPoints(linalg::GenericOp op, OpOperand &operand) {
  AffineMap map = op.getMatchingIndexingMap(&operand);
  if (!map.isProjectedPermutation())
    return false;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  int64_t points = 1;
  for (unsigned loop = 0; loop < op.getNumLoops(); ++loop) {
    if (map.isFunctionOfDim(loop))
      continue;
    if (ShapedType::isDynamic(ranges[loop]))
      return true;
    points *= ranges[loop];
  }
  return points >= kMinPointsPerDivisor;
}

/// 1 / `divisor` in f32, elementwise: one division per element, with
/// `flags`. A scalar's reciprocal is one arith.divf; a tensor's is a
/// linalg.generic of its shape.
static Value buildReciprocal(PatternRewriter &rewriter, Location loc,
                             Value divisor, arith::FastMathFlags flags) {
  Type f32 = rewriter.getF32Type();
  Value one = arith::ConstantOp::create(rewriter, loc, f32,
                                        rewriter.getF32FloatAttr(1.0f));
  if (divisor.getType() == f32)
    return arith::DivFOp::create(rewriter, loc, one, divisor, flags);
  auto type = cast<RankedTensorType>(divisor.getType());
  SmallVector<OpFoldResult> sizes =
      tensor::getMixedSizes(rewriter, loc, divisor);
  Value empty = tensor::EmptyOp::create(rewriter, loc, sizes, f32);
  AffineMap identity = rewriter.getMultiDimIdentityMap(type.getRank());
  SmallVector<utils::IteratorType> iterators(type.getRank(),
                                             utils::IteratorType::parallel);
  auto reciprocal = linalg::GenericOp::create(
      rewriter, loc, type, divisor, empty,
      ArrayRef<AffineMap>{identity, identity}, iterators,
      [&](OpBuilder &builder, Location bodyLoc, ValueRange arguments) {
        Value inverse =
            arith::DivFOp::create(builder, bodyLoc, one, arguments[0], flags);
        linalg::YieldOp::create(builder, bodyLoc, inverse);
      });
  return reciprocal.getResult(0);
}

namespace {

/// Divides once per divisor of a generic's f32 input broadcast along some
/// of its loops, and multiplies every point by the reciprocal.
struct MultiplyByReciprocal : OpRewritePattern<linalg::GenericOp> {
  MultiplyByReciprocal(MLIRContext *context, int64_t *rewritten)
      : OpRewritePattern(context), rewritten(rewritten) {}

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics())
      return rewriter.notifyMatchFailure(op, "not on tensors");
    for (OpOperand *operand : op.getDpsInputOperands()) {
      BlockArgument divisor = op.getMatchingBlockArgument(operand);
      if (!divisor.getType().isF32() || !servesManyPoints(op, *operand))
        continue;
      SmallVector<arith::DivFOp> divisions = getDivisionsBy(divisor);
      if (divisions.empty())
        continue;
      // The divisions' common flags: what the reciprocal and the products
      // may assume of every one of them.
      arith::FastMathFlags flags = divisions.front().getFastmath();
      for (arith::DivFOp division : divisions)
        flags = flags & division.getFastmath();
      rewriter.setInsertionPoint(op);
      Value reciprocal =
          buildReciprocal(rewriter, op.getLoc(), operand->get(), flags);
      rewriter.modifyOpInPlace(op, [&] { operand->set(reciprocal); });
      for (arith::DivFOp division : divisions) {
        rewriter.setInsertionPoint(division);
        rewriter.replaceOpWithNewOp<arith::MulFOp>(
            division, division.getLhs(), divisor, division.getFastmath());
      }
      if (rewritten)
        ++*rewritten;
      return success();
    }
    return rewriter.notifyMatchFailure(
        op, "no f32 input that only divides and serves many points");
  }

  int64_t *rewritten;
};

struct NxReciprocalDivisorsPass
    : nx::impl::NxReciprocalDivisorsPassBase<NxReciprocalDivisorsPass> {
  void runOnOperation() override {
    int64_t rewritten = 0;
    RewritePatternSet patterns(&getContext());
    nx::populateReciprocalDivisorPatterns(patterns, &rewritten);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
    nx::addStatistic(numReciprocals, rewritten);
  }
};

} // namespace

void nx::populateReciprocalDivisorPatterns(RewritePatternSet &patterns,
                                           int64_t *rewritten) {
  patterns.add<MultiplyByReciprocal>(patterns.getContext(), rewritten);
}

#undef DEBUG_TYPE

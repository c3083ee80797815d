//===- FuseLinalg.cpp - elementwise fusion that never repeats work --------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Upstream's elementwise fusion and reshape propagation, each behind a
// control function: a fused producer's element must be read once per
// consumer iteration space, and reshapes must not turn reductions
// (contractions, convolutions) into generics of more loops.
//
//===----------------------------------------------------------------------===//

#include "nx/Codegen/CPU/Passes.h"
#include "nx/Support/PassStatistics.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Linalg/Utils/Utils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#define DEBUG_TYPE "nx-fuse-linalg"

namespace mlir::nx {
#define GEN_PASS_DEF_NXFUSELINALGPASS
#include "nx/Codegen/CPU/Passes.h.inc"
} // namespace mlir::nx

using namespace mlir;

/// Whether `consumer` visits each element of `operand` exactly once: its
/// indexing map is a permutation of all the consumer's loops. A producer
/// fused into such an operand is computed once per element, as before.
static bool readsEachElementOnce(OpOperand *operand) {
  auto consumer = dyn_cast<linalg::LinalgOp>(operand->getOwner());
  if (!consumer)
    return false;
  return consumer.getMatchingIndexingMap(operand).isPermutation();
}

/// Whether a reshape may move across the linalg op that owns or produces
/// `operand`: only ops without reduction loops change their loop structure
/// for it.
static bool isReshapeAcrossParallelOp(OpOperand *operand) {
  auto parallel = [](Operation *op) {
    auto linalgOp = dyn_cast_if_present<linalg::LinalgOp>(op);
    return linalgOp && linalgOp.getNumLoops() == linalgOp.getNumParallelLoops();
  };
  Operation *owner = operand->getOwner();
  Operation *producer = operand->get().getDefiningOp();
  if (isa<linalg::LinalgOp>(owner))
    return parallel(owner);
  return parallel(producer);
}

/// The most elements a constant folded through a linalg op may have.
/// Upstream's folding first builds every element of its result as an
/// APFloat or APInt (tens of bytes each) and has no limit of its own: a
/// transpose of a splat of 10^10 elements asked for hundreds of GiB. Larger
/// folds stay ops, computed when the program runs.
static constexpr int64_t kMaxFoldedElements = int64_t{1} << 20;

/// Whether upstream's constant folding may fold the linalg op that owns
/// `operand`, a constant with one use: its results are small enough.
static bool isSmallConstantFold(OpOperand *operand) {
  Operation *producer = operand->get().getDefiningOp();
  if (!producer || !producer->hasOneUse())
    return false;
  return llvm::all_of(operand->getOwner()->getResultTypes(), [](Type type) {
    auto shaped = dyn_cast<ShapedType>(type);
    return shaped && shaped.hasStaticShape() &&
           shaped.getNumElements() <= kMaxFoldedElements;
  });
}

namespace {

struct NxFuseLinalgPass : nx::impl::NxFuseLinalgPassBase<NxFuseLinalgPass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    linalg::ControlFusionFn fuseControl = [](OpOperand *operand) {
      Operation *producer = operand->get().getDefiningOp();
      return producer && producer->hasOneUse() && readsEachElementOnce(operand);
    };
    linalg::ControlFusionFn reshapeControl = [](OpOperand *operand) {
      Operation *producer = operand->get().getDefiningOp();
      return producer && producer->hasOneUse() &&
             isReshapeAcrossParallelOp(operand);
    };

    RewritePatternSet patterns(context);
    linalg::populateElementwiseOpsFusionPatterns(patterns, fuseControl);
    linalg::populateFoldReshapeOpsByExpansionPatterns(patterns, reshapeControl);
    tensor::populateBubbleUpExpandShapePatterns(patterns);
    affine::AffineApplyOp::getCanonicalizationPatterns(patterns, context);
    linalg::GenericOp::getCanonicalizationPatterns(patterns, context);
    tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, context);
    tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns, context);
    context->getLoadedDialect<linalg::LinalgDialect>()
        ->getCanonicalizationPatterns(patterns);
    linalg::populateConstantFoldLinalgOperations(patterns, isSmallConstantFold);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
    // Counted once, on the result: the driver asks the control function
    // again on every iteration.
    int64_t refused = 0;
    getOperation()->walk([&](linalg::LinalgOp consumer) {
      for (OpOperand *operand : consumer.getDpsInputOperands()) {
        auto producer = operand->get().getDefiningOp<linalg::GenericOp>();
        if (producer && producer->hasOneUse() &&
            linalg::isElementwise(producer) && !readsEachElementOnce(operand))
          ++refused;
      }
    });
    nx::addStatistic(numRefused, refused);
  }
};

} // namespace

#undef DEBUG_TYPE

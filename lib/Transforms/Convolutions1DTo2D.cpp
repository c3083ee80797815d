//===- Convolutions1DTo2D.cpp - 1-D convolutions over a height of 1 ------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The library calls and the GEMM lowering take 2-D convolutions; a 1-D one
// is a 2-D one whose image and kernel are one row high. Inserting that unit
// dimension is a reshape of each operand, which costs no copy.
//
//===----------------------------------------------------------------------===//

#include "nx/Transforms/Convolutions1DTo2D.h"

#include "nx/Support/PassStatistics.h"
#include "nx/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

#define DEBUG_TYPE "nx-convolutions-1d-to-2d"

namespace mlir::nx {
#define GEN_PASS_DEF_NXCONVOLUTIONS1DTO2DPASS
#include "nx/Transforms/Passes.h.inc"
} // namespace mlir::nx

using namespace mlir;

/// `value` (a ranked tensor) with a dimension of 1 inserted at `position`.
static Value insertUnitDim(PatternRewriter &rewriter, Location loc, Value value,
                           int64_t position) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> shape(type.getShape());
  shape.insert(shape.begin() + position, 1);
  // The unit dimension joins the group of the dimension before it, or of
  // the one after it when it comes first.
  SmallVector<ReassociationIndices> groups;
  for (int64_t dim = 0, rank = type.getRank(); dim < rank; ++dim) {
    int64_t expanded = dim < position ? dim : dim + 1;
    groups.push_back({expanded});
  }
  if (position == 0)
    groups.front().insert(groups.front().begin(), 0);
  else
    groups[position - 1].push_back(position);
  return tensor::ExpandShapeOp::create(
      rewriter, loc, RankedTensorType::get(shape, type.getElementType()), value,
      groups);
}

/// `attr` (strides or dilations of one spatial dimension) with a 1 for the
/// height in front.
static DenseIntElementsAttr withUnitHeight(PatternRewriter &rewriter,
                                           DenseIntElementsAttr attr) {
  SmallVector<int64_t> values{1};
  llvm::append_range(values, attr.getValues<int64_t>());
  return rewriter.getI64TensorAttr(values);
}

namespace {

/// `Op1D` as `Op2D` over a height of 1, inserted right before the width:
/// at `imageWidth` in the image and the result, at `kernelWidth` in the
/// kernel.
template <typename Op1D, typename Op2D>
struct Convolution1DTo2D final : OpRewritePattern<Op1D> {
  Convolution1DTo2D(MLIRContext *context, int64_t imageWidth,
                    int64_t kernelWidth)
      : OpRewritePattern<Op1D>(context), imageWidth(imageWidth),
        kernelWidth(kernelWidth) {}

  LogicalResult matchAndRewrite(Op1D op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics())
      return rewriter.notifyMatchFailure(op, "not on tensors");
    Location loc = op.getLoc();
    Value image = insertUnitDim(rewriter, loc, op.getInputs()[0], imageWidth);
    Value kernel = insertUnitDim(rewriter, loc, op.getInputs()[1], kernelWidth);
    Value init = insertUnitDim(rewriter, loc, op.getOutputs()[0], imageWidth);
    auto conv = Op2D::create(rewriter, loc, TypeRange{init.getType()},
                             ValueRange{image, kernel}, ValueRange{init},
                             withUnitHeight(rewriter, op.getStrides()),
                             withUnitHeight(rewriter, op.getDilations()));
    auto resultType = cast<RankedTensorType>(op.getResult(0).getType());
    auto expand = init.getDefiningOp<tensor::ExpandShapeOp>();
    rewriter.replaceOpWithNewOp<tensor::CollapseShapeOp>(
        op, resultType, conv.getResult(0), expand.getReassociationIndices());
    return success();
  }

  int64_t imageWidth, kernelWidth;
};

/// The 1-D convolutions of `root` that the patterns rewrite (on tensors or
/// not).
int64_t count1DConvolutions(Operation *root) {
  int64_t count = 0;
  root->walk([&](Operation *op) {
    count += isa<linalg::Conv1DNwcWcfOp, linalg::Conv1DNcwFcwOp,
                 linalg::DepthwiseConv1DNwcWcOp>(op);
  });
  return count;
}

struct NxConvolutions1DTo2DPass
    : nx::impl::NxConvolutions1DTo2DPassBase<NxConvolutions1DTo2DPass> {
  void runOnOperation() override {
    int64_t before = count1DConvolutions(getOperation());
    RewritePatternSet patterns(&getContext());
    nx::populateConvolutions1DTo2DPatterns(patterns);
    walkAndApplyPatterns(getOperation(), std::move(patterns));
    int64_t after = count1DConvolutions(getOperation());
    nx::addStatistic(numRewritten, before - after);
  }
};

} // namespace

void nx::populateConvolutions1DTo2DPatterns(RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  // NWC image, WCF kernel: the height goes before the width (1 and 0).
  patterns
      .add<Convolution1DTo2D<linalg::Conv1DNwcWcfOp, linalg::Conv2DNhwcHwcfOp>>(
          context, 1, 0);
  // NCW image, FCW kernel: before the width, last but one in both.
  patterns
      .add<Convolution1DTo2D<linalg::Conv1DNcwFcwOp, linalg::Conv2DNchwFchwOp>>(
          context, 2, 2);
  // NWC image, WC kernel.
  patterns.add<Convolution1DTo2D<linalg::DepthwiseConv1DNwcWcOp,
                                 linalg::DepthwiseConv2DNhwcHwcOp>>(context, 1,
                                                                    0);
}

#undef DEBUG_TYPE

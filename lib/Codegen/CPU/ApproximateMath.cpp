//===- ApproximateMath.cpp - vectorizable f32 math functions --------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Upstream offers the polynomial approximations as patterns only (and a
// test pass); nx-lower-to-cpu needs them as a pass.
//
//===----------------------------------------------------------------------===//

#include "nx/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Approximation.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#define DEBUG_TYPE "nx-approximate-math"

namespace mlir::nx {
#define GEN_PASS_DEF_NXAPPROXIMATEMATHPASS
#include "nx/Codegen/CPU/Passes.h.inc"
} // namespace mlir::nx

using namespace mlir;

namespace {

/// Whether the upstream approximations handle `type`: they build their
/// constants as scalars or vector splats, so a tensor operand would be
/// compared with a scalar constant.
static bool isScalarOrVector(Type type) {
  return isa<VectorType>(type) || type.isIntOrIndexOrFloat();
}

/// `x / c` for an f32 constant `c` (or a splat of one) becomes `x * (1/c)`:
/// a vector division takes several times a multiplication's throughput
/// (an average pool's division by its window cost a quarter of the pool).
/// The product is within 2 ulp of the quotient, and exact for a power of
/// two; infinities, NaNs and signed zeros come out as the division's. A
/// divisor whose reciprocal is not a normal number stays a division.
struct DivisionByConstant : OpRewritePattern<arith::DivFOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(arith::DivFOp op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!isScalarOrVector(type) || !getElementTypeOrSelf(type).isF32())
      return rewriter.notifyMatchFailure(op, "not f32");
    FloatAttr divisor;
    if (!matchPattern(op.getRhs(), m_Constant(&divisor))) {
      DenseFPElementsAttr splat;
      if (!matchPattern(op.getRhs(), m_Constant(&splat)) || !splat.isSplat())
        return rewriter.notifyMatchFailure(op, "divisor is no constant");
      divisor = FloatAttr::get(splat.getElementType(),
                               splat.getSplatValue<APFloat>());
    }
    APFloat reciprocal(1.0f);
    if (reciprocal.divide(divisor.getValue(), APFloat::rmNearestTiesToEven) &
            ~APFloat::opInexact ||
        !reciprocal.isNormal())
      return rewriter.notifyMatchFailure(op, "reciprocal is not normal");
    Attribute value = rewriter.getFloatAttr(rewriter.getF32Type(), reciprocal);
    if (auto vector = dyn_cast<VectorType>(type))
      value = SplatElementsAttr::get(vector, value);
    Value factor = arith::ConstantOp::create(rewriter, op.getLoc(),
                                             cast<TypedAttr>(value));
    rewriter.replaceOpWithNewOp<arith::MulFOp>(op, op.getLhs(), factor,
                                               op.getFastmathAttr());
    return success();
  }
};

struct NxApproximateMathPass
    : nx::impl::NxApproximateMathPassBase<NxApproximateMathPass> {
  void runOnOperation() override {
    // Math on tensors is left alone: nx-lower-to-cpu rewrites it into
    // linalg bodies on scalars (nx-fuse-elementwise) before this pass runs.
    SmallVector<Operation *> ops;
    getOperation()->walk([&](Operation *op) {
      if ((isa_and_present<math::MathDialect>(op->getDialect()) ||
           isa<arith::DivFOp>(op)) &&
          llvm::all_of(op->getOperandTypes(), isScalarOrVector) &&
          llvm::all_of(op->getResultTypes(), isScalarOrVector))
        ops.push_back(op);
    });
    RewritePatternSet patterns(&getContext());
    populateMathPolynomialApproximationPatterns(patterns);
    patterns.add<DivisionByConstant>(&getContext());
    // What the patterns create (f32 math around f16 ops, for instance) is
    // rewritten too; it has the types of the op it replaces.
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
    if (failed(applyOpPatternsGreedily(ops, std::move(patterns), config)))
      signalPassFailure();
  }
};

} // namespace

#undef DEBUG_TYPE

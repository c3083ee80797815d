//===- ApproximateMath.cpp - vectorizable f32 math functions --------------===//
//
// Upstream offers the polynomial approximations as patterns only (and a
// test pass); nx-lower-to-cpu needs them as a pass.
//
//===----------------------------------------------------------------------===//

#include "nx/Transforms/Passes.h"

#include "mlir/Dialect/Math/Transforms/Approximation.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#define DEBUG_TYPE "nx-approximate-math"

namespace mlir::nx {
#define GEN_PASS_DEF_APPROXIMATEMATHPASS
#include "nx/Transforms/Passes.h.inc"
} // namespace mlir::nx

using namespace mlir;

namespace {

struct ApproximateMathPass
    : nx::impl::ApproximateMathPassBase<ApproximateMathPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateMathPolynomialApproximationPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

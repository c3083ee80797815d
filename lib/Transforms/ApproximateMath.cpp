//===- ApproximateMath.cpp - vectorizable f32 math functions --------------===//
//
// Upstream offers the polynomial approximations as patterns only (and a
// test pass); nx-lower-to-cpu needs them as a pass.
//
//===----------------------------------------------------------------------===//

#include "nx/Transforms/Passes.h"

#include "mlir/Dialect/Math/IR/Math.h"
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

/// Whether the upstream approximations handle `type`: they build their
/// constants as scalars or vector splats, so a tensor operand would be
/// compared with a scalar constant.
static bool isScalarOrVector(Type type) {
  return isa<VectorType>(type) || type.isIntOrIndexOrFloat();
}

struct ApproximateMathPass
    : nx::impl::ApproximateMathPassBase<ApproximateMathPass> {
  void runOnOperation() override {
    // Math on tensors is left alone: nx-lower-to-cpu rewrites it into
    // linalg bodies on scalars (nx-fuse-elementwise) before this pass runs.
    SmallVector<Operation *> ops;
    getOperation()->walk([&](Operation *op) {
      if (isa_and_present<math::MathDialect>(op->getDialect()) &&
          llvm::all_of(op->getOperandTypes(), isScalarOrVector) &&
          llvm::all_of(op->getResultTypes(), isScalarOrVector))
        ops.push_back(op);
    });
    RewritePatternSet patterns(&getContext());
    populateMathPolynomialApproximationPatterns(patterns);
    // What the patterns create (f32 math around f16 ops, for instance) is
    // rewritten too; it has the types of the op it replaces.
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
    if (failed(applyOpPatternsGreedily(ops, std::move(patterns), config)))
      signalPassFailure();
  }
};

} // namespace

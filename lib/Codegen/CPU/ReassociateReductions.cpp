//===- ReassociateReductions.cpp - let linalg reductions vectorize --------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// LLVM vectorizes a floating-point reduction loop only when the combining
// instruction may reassociate; a linalg reduction's combiner is the payload
// op that reads the running value, its output's block argument. A maximum
// or minimum may also order +0 and -0 either way: NaNs still propagate.
//
//===----------------------------------------------------------------------===//

#include "nx/Codegen/CPU/Passes.h"
#include "nx/Support/PassStatistics.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

#define DEBUG_TYPE "nx-reassociate-reductions"

namespace mlir::nx {
#define GEN_PASS_DEF_NXREASSOCIATEREDUCTIONSPASS
#include "nx/Codegen/CPU/Passes.h.inc"
} // namespace mlir::nx

using namespace mlir;

/// Adds `wanted` to `op`'s fast-math flags; returns whether it had not all
/// of them.
static bool addFastMathFlags(arith::ArithFastMathInterface op,
                             arith::FastMathFlags wanted) {
  arith::FastMathFlags flags = op.getFastMathFlagsAttr()
                                   ? op.getFastMathFlagsAttr().getValue()
                                   : arith::FastMathFlags::none;
  if (bitEnumContainsAll(flags, wanted))
    return false;
  op->setAttr(op.getFastMathAttrName(),
              arith::FastMathFlagsAttr::get(op->getContext(), flags | wanted));
  return true;
}

/// The product a contraction's combiner adds, when the combiner is an
/// `arith.addf` of the running value and an `arith.mulf` of the same body.
static arith::MulFOp getContractedProduct(linalg::LinalgOp op,
                                          Operation *combiner,
                                          BlockArgument running) {
  auto add = dyn_cast<arith::AddFOp>(combiner);
  if (!add || !linalg::isaContractionOpInterface(op))
    return {};
  Value other = add.getLhs() == running ? add.getRhs() : add.getLhs();
  auto product = other.getDefiningOp<arith::MulFOp>();
  if (!product || product->getBlock() != add->getBlock())
    return {};
  return product;
}

namespace {

struct NxReassociateReductionsPass
    : nx::impl::NxReassociateReductionsPassBase<NxReassociateReductionsPass> {
  void runOnOperation() override {
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (op.getNumReductionLoops() == 0 || !op.getBlock())
        return;
      for (BlockArgument running : op.getRegionOutputArgs())
        for (Operation *user : running.getUsers())
          if (user->getBlock() == op.getBlock())
            markCombiner(op, user, running);
    });
  }

  void markCombiner(linalg::LinalgOp op, Operation *combiner,
                    BlockArgument running) {
    auto fastMath = dyn_cast<arith::ArithFastMathInterface>(combiner);
    if (!fastMath)
      return;
    // A maximum or minimum of +0 and -0 may be either: IEEE's ordered
    // zeros cost x86 a blend per step (LLVM's lowering of llvm.maximum),
    // more than the comparison itself.
    arith::FastMathFlags wanted = arith::FastMathFlags::reassoc;
    if (isa<arith::MaximumFOp, arith::MinimumFOp>(combiner))
      wanted = wanted | arith::FastMathFlags::nsz;
    // A product's multiply-add may be one fused multiply-add, as in every
    // BLAS: half the instructions of a product's register tiles.
    arith::MulFOp product = getContractedProduct(op, combiner, running);
    if (product)
      wanted = wanted | arith::FastMathFlags::contract;
    if (addFastMathFlags(fastMath, wanted))
      nx::addStatistic(numCombiners);
    if (product && addFastMathFlags(cast<arith::ArithFastMathInterface>(
                                        product.getOperation()),
                                    arith::FastMathFlags::contract))
      nx::addStatistic(numContracted);
  }
};

} // namespace

#undef DEBUG_TYPE

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

namespace {

struct NxReassociateReductionsPass
    : nx::impl::NxReassociateReductionsPassBase<NxReassociateReductionsPass> {
  void runOnOperation() override {
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (op.getNumReductionLoops() == 0)
        return;
      Block *body = op.getBlock();
      if (!body)
        return;
      for (BlockArgument running : op.getRegionOutputArgs())
        for (Operation *user : running.getUsers()) {
          auto fastMath = dyn_cast<arith::ArithFastMathInterface>(user);
          if (!fastMath || user->getBlock() != body)
            continue;
          arith::FastMathFlags flags =
              fastMath.getFastMathFlagsAttr()
                  ? fastMath.getFastMathFlagsAttr().getValue()
                  : arith::FastMathFlags::none;
          // A maximum or minimum of +0 and -0 may be either: IEEE's
          // ordered zeros cost x86 a blend per step (LLVM's lowering of
          // llvm.maximum), more than the comparison itself.
          arith::FastMathFlags wanted = arith::FastMathFlags::reassoc;
          if (isa<arith::MaximumFOp, arith::MinimumFOp>(user))
            wanted = wanted | arith::FastMathFlags::nsz;
          if (bitEnumContainsAll(flags, wanted))
            continue;
          user->setAttr(
              fastMath.getFastMathAttrName(),
              arith::FastMathFlagsAttr::get(&getContext(), flags | wanted));
          nx::addStatistic(numCombiners);
        }
    });
  }
};

} // namespace

#undef DEBUG_TYPE

//===- CollapseReductionDims.cpp - adjacent reduced dimensions as one ----===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The reductions' split and their threads take ops with one reduction loop.
// Adjacent reduced dimensions that every operand lays out together are one
// dimension in memory already: collapsing them costs no copy.
//
//===----------------------------------------------------------------------===//

#include "nx/Support/PassStatistics.h"
#include "nx/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

#define DEBUG_TYPE "nx-collapse-reduction-dims"

namespace mlir::nx {
#define GEN_PASS_DEF_NXCOLLAPSEREDUCTIONDIMSPASS
#include "nx/Transforms/Passes.h.inc"
} // namespace mlir::nx

using namespace mlir;

/// The runs of two or more adjacent reduction loops of `op` that every
/// operand reads as adjacent dimensions in the same order; empty when `op`
/// is not an op this pass rewrites.
static SmallVector<ReassociationIndices>
getCollapsibleReductionRuns(linalg::LinalgOp op) {
  if (!op.hasPureTensorSemantics() || op.getNumReductionLoops() < 2 ||
      op.hasIndexSemantics() || !op.hasOnlyProjectedPermutations() ||
      linalg::isaContractionOpInterface(op) ||
      isa<linalg::ConvolutionOpInterface>(op.getOperation()))
    return {};
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  SmallVector<ReassociationIndices> runs;
  ReassociationIndices run;
  auto closeRun = [&] {
    if (run.size() >= 2 && linalg::areDimSequencesPreserved(maps, {run}))
      runs.push_back(run);
    run.clear();
  };
  for (auto [loop, iterator] : llvm::enumerate(iterators)) {
    if (linalg::isReductionIterator(iterator))
      run.push_back(static_cast<int64_t>(loop));
    else
      closeRun();
  }
  closeRun();
  return runs;
}

namespace {

struct NxCollapseReductionDimsPass
    : nx::impl::NxCollapseReductionDimsPassBase<NxCollapseReductionDimsPass> {
  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> candidates;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (!getCollapsibleReductionRuns(op).empty())
        candidates.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : candidates) {
      SmallVector<ReassociationIndices> runs = getCollapsibleReductionRuns(op);
      rewriter.setInsertionPoint(op);
      linalg::LinalgOp generic = op;
      if (!isa<linalg::GenericOp>(op.getOperation())) {
        FailureOr<linalg::GenericOp> generalized =
            linalg::generalizeNamedOp(rewriter, op);
        if (failed(generalized))
          continue;
        generic = *generalized;
      }
      FailureOr<linalg::CollapseResult> collapsed =
          linalg::collapseOpIterationDims(generic, runs, rewriter);
      if (failed(collapsed))
        continue;
      rewriter.replaceOp(generic, collapsed->results);
      nx::addStatistic(numCollapsed);
    }
  }
};

} // namespace

#undef DEBUG_TYPE

//===- SplitReductions.cpp - innermost reductions to vector partials ------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Chooses which tensor reductions upstream's linalg::splitReduction should
// split, and by how much, so that nx-vectorize-linalg can keep the partial
// results of an innermost reduction in vector registers.
//
//===----------------------------------------------------------------------===//

#include "nx/Codegen/CPU/Passes.h"
#include "nx/Support/PassOptions.h"
#include "nx/Support/PassStatistics.h"

#include "VectorShape.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

#define DEBUG_TYPE "nx-split-reductions"

namespace mlir::nx {
#define GEN_PASS_DEF_NXSPLITREDUCTIONSPASS
#include "nx/Codegen/CPU/Passes.h.inc"
} // namespace mlir::nx

using namespace mlir;

/// The split ratio for `op`, or nothing when `op` is not an innermost,
/// contiguous, single reduction on tensors that the split would help.
static std::optional<int64_t> getSplitRatio(linalg::LinalgOp op,
                                            int64_t vectorBits,
                                            int64_t reductionVectorBits) {
  unsigned loops = op.getNumLoops();
  if (!op.hasPureTensorSemantics() || loops == 0 ||
      op.getNumReductionLoops() != 1 || op.getNumDpsInits() != 1 ||
      !linalg::isReductionIterator(op.getIteratorTypesArray().back()) ||
      op.hasIndexSemantics() || !op.hasOnlyProjectedPermutations() ||
      isa<linalg::ConvolutionOpInterface>(op.getOperation()))
    return std::nullopt;
  // Contractions go to BLAS, except dot products (one, or a batch of them:
  // no m and no n dimension), which nx-linalg-to-blas leaves: a GEMM of one
  // element has nothing to share among threads and a call's cost, where
  // split it is a vector's sum.
  if (linalg::isaContractionOpInterface(op)) {
    FailureOr<linalg::ContractionDimensions> dims =
        linalg::inferContractionDims(op);
    if (failed(dims) || !dims->m.empty() || !dims->n.empty())
      return std::nullopt;
  }
  // The split's inner part must be contiguous in memory.
  if (!nx::readsInnermostLoopContiguously(op))
    return std::nullopt;
  std::optional<int64_t> lanes = nx::getVectorLanes(
      op, nx::getVectorBitsFor(op, vectorBits, reductionVectorBits));
  // Upstream's splitReduction makes its partial results' tensor.empty of
  // static sizes only: with a dynamic extent anywhere (a row sum of a
  // dynamic number of rows), the op would not verify.
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (!lanes || llvm::any_of(ranges, ShapedType::isDynamic))
    return std::nullopt;
  int64_t extent = ranges.back();
  for (int64_t ratio : {nx::kVectorAccumulators * *lanes, *lanes})
    if (extent % ratio == 0 && extent >= 2 * ratio)
      return ratio;
  return std::nullopt;
}

namespace {

struct NxSplitReductionsPass
    : nx::impl::NxSplitReductionsPassBase<NxSplitReductionsPass> {
  using NxSplitReductionsPassBase::NxSplitReductionsPassBase;

  void runOnOperation() override {
    if (failed(nx::checkVectorBitsOptions(getOperation(), getArgument(),
                                          vectorBits, reductionVectorBits)))
      return signalPassFailure();
    SmallVector<std::pair<linalg::LinalgOp, linalg::SplitReductionOptions>>
        candidates;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (std::optional<int64_t> ratio =
              getSplitRatio(op, vectorBits, reductionVectorBits)) {
        // The partial results go innermost: after the output's own
        // dimensions.
        linalg::SplitReductionOptions split;
        split.ratio = *ratio;
        split.index = op.getRank(op.getDpsInitOperand(0));
        split.innerParallel = true;
        candidates.emplace_back(op, split);
      }
    });
    IRRewriter rewriter(&getContext());
    for (auto [op, split] : candidates) {
      // A copy for the lambda: C++17 cannot capture a structured binding.
      linalg::SplitReductionOptions options = split;
      // Fails, leaving `op` untouched, on a combiner with no neutral element.
      if (succeeded(linalg::splitReduction(
              rewriter, op, [&](linalg::LinalgOp) { return options; })))
        nx::addStatistic(numSplit);
    }
  }
};

} // namespace

#undef DEBUG_TYPE

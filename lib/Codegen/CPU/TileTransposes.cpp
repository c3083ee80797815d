//===- TileTransposes.cpp - permuting copies in cache-sized blocks --------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// An op that reads its input transposed walks one side with a stride of a
// whole row per element. In blocks of tile-size x tile-size elements, each
// cache line of either side is fetched once and used whole.
//
//===----------------------------------------------------------------------===//

#include "nx/Codegen/CPU/Passes.h"
#include "nx/Support/IndexingMaps.h"
#include "nx/Support/PassOptions.h"
#include "nx/Support/PassStatistics.h"
#include "nx/Support/StaticBounds.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/TilingInterface.h"

namespace mlir::nx {
#define GEN_PASS_DEF_NXTILETRANSPOSESPASS
#include "nx/Codegen/CPU/Passes.h.inc"
} // namespace mlir::nx

using namespace mlir;
using mlir::nx::getInnermostLoop;

/// The two loops to block when `op` is a permuting op: the one that walks
/// the output's contiguous dimension and the one that walks a transposed
/// input's. Nothing for reductions, several outputs, contiguous reads, or
/// loops shorter than a block (or dynamic).
static std::optional<std::pair<unsigned, unsigned>>
getTransposedLoops(linalg::LinalgOp op, int64_t tileSize) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInits() != 1 ||
      op.getNumReductionLoops() != 0 || !op.hasOnlyProjectedPermutations())
    return std::nullopt;
  std::optional<unsigned> written =
      getInnermostLoop(op.getMatchingIndexingMap(op.getDpsInitOperand(0)));
  if (!written)
    return std::nullopt;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  auto longEnough = [&](unsigned loop) {
    return !ShapedType::isDynamic(ranges[loop]) && ranges[loop] >= tileSize;
  };
  for (OpOperand *input : op.getDpsInputOperands()) {
    if (!isa<MemRefType>(input->get().getType()))
      continue;
    std::optional<unsigned> read =
        getInnermostLoop(op.getMatchingIndexingMap(input));
    if (read && *read != *written && longEnough(*read) && longEnough(*written))
      return std::make_pair(*read, *written);
  }
  return std::nullopt;
}

/// Tiles `op` by `sizes` (0: that loop whole), its loops of tiles in
/// `order` (empty: the op's), and replaces it; returns the op on one tile.
static FailureOr<linalg::LinalgOp>
tileAndReplace(IRRewriter &rewriter, linalg::LinalgOp op,
               ArrayRef<int64_t> sizes, ArrayRef<int64_t> order = {}) {
  scf::SCFTilingOptions options;
  options.setTileSizes(getAsIndexOpFoldResult(op.getContext(), sizes));
  options.setInterchange(order);
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTilingResult> result = scf::tileUsingSCF(
      rewriter, cast<TilingInterface>(op.getOperation()), options);
  if (failed(result))
    return failure();
  rewriter.eraseOp(op);
  return cast<linalg::LinalgOp>(result->tiledOps.front());
}

/// The sizes of the outer blocks of `op`: `outerSize` along each of the two
/// transposed `loops` that is longer and divides into them (0 otherwise:
/// that loop whole, as a partial block would have a dynamic size that
/// nx-vectorize-linalg does not take), every other loop by 1.
static SmallVector<int64_t> getOuterBlock(linalg::LinalgOp op,
                                          std::pair<unsigned, unsigned> loops,
                                          int64_t outerSize) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<int64_t> sizes(op.getNumLoops(), 1);
  for (unsigned loop : {loops.first, loops.second})
    sizes[loop] = ranges[loop] > outerSize && ranges[loop] % outerSize == 0
                      ? outerSize
                      : 0;
  return sizes;
}

/// The order of the loops of blocks in an outer block: the one that walks
/// the output's contiguous dimension (`loops.second`) outside the one that
/// walks the input's (`loops.first`). Consecutive blocks then continue
/// along the same input rows, each read for a whole outer block's width,
/// which the prefetchers follow: a 2048x2048 f32 transpose in C took
/// 1.45-1.67 ms at one thread on an Intel Xeon with AMX against 1.9-2.0
/// in the other order (see docs/Servers.md).
static SmallVector<int64_t> getBlockOrder(unsigned numLoops,
                                          std::pair<unsigned, unsigned> loops) {
  SmallVector<int64_t> order = llvm::to_vector(llvm::seq<int64_t>(numLoops));
  if (loops.first < loops.second)
    std::swap(order[loops.first], order[loops.second]);
  return order;
}

namespace {

struct NxTileTransposesPass
    : nx::impl::NxTileTransposesPassBase<NxTileTransposesPass> {
  using NxTileTransposesPassBase::NxTileTransposesPassBase;

  void runOnOperation() override {
    if (failed(nx::checkPassOptionAtLeast(getOperation(), getArgument(),
                                          tileSize, 1)) ||
        failed(nx::checkPassOptionAtLeast(getOperation(), getArgument(),
                                          outerBlockSize, tileSize)))
      return signalPassFailure();
    if (failed(nx::verifyStaticBoundsBeforeRewrite(getOperation())))
      return signalPassFailure();
    SmallVector<std::pair<linalg::LinalgOp, std::pair<unsigned, unsigned>>>
        candidates;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (auto loops = getTransposedLoops(op, tileSize))
        candidates.emplace_back(op, *loops);
    });
    IRRewriter rewriter(&getContext());
    int64_t tiled = 0;
    for (auto [op, loops] : candidates) {
      FailureOr<linalg::LinalgOp> outer = tileAndReplace(
          rewriter, op, getOuterBlock(op, loops, outerBlockSize));
      if (failed(outer))
        continue;
      ++tiled;
      // An outer block that cannot be cut further stays one block.
      SmallVector<int64_t> sizes((*outer).getNumLoops(), 0);
      sizes[loops.first] = tileSize;
      sizes[loops.second] = tileSize;
      (void)tileAndReplace(rewriter, *outer, sizes,
                           getBlockOrder(sizes.size(), loops));
    }
    nx::addStatistic(numTiled, tiled);
  }
};

} // namespace

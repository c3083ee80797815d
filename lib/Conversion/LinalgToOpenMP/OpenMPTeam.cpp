//===- OpenMPTeam.cpp - one loop shared among an OpenMP team --------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "nx/Conversion/LinalgToOpenMP/OpenMPTeam.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/TilingInterface.h"

using namespace mlir;

Value nx::callNumThreadsFunction(OpBuilder &builder, Location loc,
                                 StringRef numThreadsFunction) {
  return func::CallOp::create(builder, loc, numThreadsFunction,
                              builder.getI32Type(), ValueRange())
      .getResult(0);
}

Block *nx::createTeamLoop(OpBuilder &builder, Location loc, Value ifExpr,
                          Value numThreads, Value lowerBound, Value upperBound,
                          Value step) {
  omp::ParallelOperands parallelClauses;
  parallelClauses.ifExpr = ifExpr;
  parallelClauses.numThreads = numThreads;
  auto parallel = omp::ParallelOp::create(builder, loc, parallelClauses);
  builder.createBlock(&parallel.getRegion());
  omp::TerminatorOp::create(builder, loc);
  builder.setInsertionPointToStart(&parallel.getRegion().front());
  return createWorksharingLoop(builder, loc, lowerBound, upperBound, step);
}

Block *nx::createWorksharingLoop(OpBuilder &builder, Location loc,
                                 Value lowerBound, Value upperBound,
                                 Value step) {
  auto wsloop = omp::WsloopOp::create(builder, loc, omp::WsloopOperands());
  builder.createBlock(&wsloop.getRegion());
  omp::LoopNestOperands nestClauses;
  nestClauses.loopLowerBounds.push_back(lowerBound);
  nestClauses.loopUpperBounds.push_back(upperBound);
  nestClauses.loopSteps.push_back(step);
  auto nest = omp::LoopNestOp::create(builder, loc, nestClauses);
  return builder.createBlock(&nest.getRegion(), {}, {lowerBound.getType()},
                             {loc});
}

Value nx::countPoints(ArrayRef<Range> ranges, Location loc,
                      OpBuilder &builder) {
  Value points = arith::ConstantIndexOp::create(builder, loc, 1);
  for (const Range &range : ranges) {
    Value extent = getValueOrCreateConstantIndexOp(builder, loc, range.size);
    points = builder.createOrFold<arith::MulIOp>(loc, points, extent);
  }
  return points;
}

FailureOr<linalg::LinalgOp>
nx::tileRows(linalg::LinalgOp op, unsigned sharedLoop, OpFoldResult firstRow,
             int64_t rows, RewriterBase &rewriter, bool lastTileMayBeShort) {
  Location loc = op.getLoc();
  SmallVector<OpFoldResult> offsets, sizes;
  for (const Range &range : op.createLoopRanges(rewriter, loc)) {
    offsets.push_back(range.offset);
    sizes.push_back(range.size);
  }
  int64_t extent = op.getStaticLoopRanges()[sharedLoop];
  OpFoldResult extentValue = sizes[sharedLoop];
  offsets[sharedLoop] = firstRow;
  sizes[sharedLoop] = rewriter.getIndexAttr(rows);
  AffineExpr first = rewriter.getAffineDimExpr(0);
  AffineExpr tile = rewriter.getAffineConstantExpr(rows);
  if (lastTileMayBeShort && ShapedType::isDynamic(extent) && rows != 1) {
    // min(extent - first, rows), the extent read at run time.
    AffineExpr whole = rewriter.getAffineSymbolExpr(0);
    auto bound =
        AffineMap::get(1, 1, {whole - first, tile}, rewriter.getContext());
    sizes[sharedLoop] = affine::makeComposedFoldedAffineMin(
        rewriter, loc, bound, {firstRow, extentValue});
  } else if (lastTileMayBeShort && extent % rows != 0) {
    auto bound =
        AffineMap::get(1, 0, {extent - first, tile}, rewriter.getContext());
    sizes[sharedLoop] =
        affine::makeComposedFoldedAffineMin(rewriter, loc, bound, {firstRow});
  }
  FailureOr<TilingResult> tiled =
      cast<TilingInterface>(op.getOperation())
          .getTiledImplementation(rewriter, offsets, sizes);
  if (failed(tiled) || tiled->tiledOps.size() != 1)
    return failure();
  return cast<linalg::LinalgOp>(tiled->tiledOps.front());
}

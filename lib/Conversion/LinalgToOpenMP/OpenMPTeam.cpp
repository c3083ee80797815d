//===- OpenMPTeam.cpp - one loop shared among an OpenMP team --------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "nx/Conversion/LinalgToOpenMP/OpenMPTeam.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/IR/Builders.h"

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
  auto wsloop = omp::WsloopOp::create(builder, loc, omp::WsloopOperands());
  omp::TerminatorOp::create(builder, loc);
  builder.createBlock(&wsloop.getRegion());
  omp::LoopNestOperands nestClauses;
  nestClauses.loopLowerBounds.push_back(lowerBound);
  nestClauses.loopUpperBounds.push_back(upperBound);
  nestClauses.loopSteps.push_back(step);
  auto nest = omp::LoopNestOp::create(builder, loc, nestClauses);
  return builder.createBlock(&nest.getRegion(), {}, {lowerBound.getType()},
                             {loc});
}

//===- Epilogue.cpp - the bias and ReLU a library kernel absorbs ----------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "nx/Conversion/LinalgToBlas/Epilogue.h"
#include "nx/Support/Buffers.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;

bool nx::isPositiveZeroConstant(Value value) {
  FloatAttr constant;
  return matchPattern(value, m_Constant(&constant)) &&
         constant.getValue().isPosZero();
}

/// The next op after `op` that may touch memory, past deallocations of
/// buffers other than `outputRoot` (a bufferized program frees a product's
/// inputs right after it).
static Operation *getNextMemoryOp(Operation *op, Value outputRoot) {
  Operation *next = op->getNextNode();
  while (next && (isMemoryEffectFree(next) ||
                  (isa<memref::DeallocOp>(next) &&
                   nx::getRootBuffer(next->getOperand(0)) != outputRoot)))
    next = next->getNextNode();
  return next;
}

/// Matches the body `yield [maximumf(] [addf(result, bias)] [, +0.0)]`,
/// filling `epilogue.relu`; `resultArguments` read the kernel's output and
/// `biasArgument` (null without a bias) the bias.
static bool matchEpilogueBody(Block *body, ArrayRef<Value> resultArguments,
                              Value biasArgument, nx::Epilogue &epilogue) {
  Value value = cast<linalg::YieldOp>(body->getTerminator()).getOperand(0);
  size_t bodyOps = 1;
  auto definedInBody = [&](Value v) {
    return v.getDefiningOp() && v.getDefiningOp()->getBlock() == body;
  };
  if (auto max = value.getDefiningOp<arith::MaximumFOp>();
      max && definedInBody(value)) {
    Value lhs = max.getLhs(), rhs = max.getRhs();
    if (nx::isPositiveZeroConstant(rhs))
      value = lhs;
    else if (nx::isPositiveZeroConstant(lhs))
      value = rhs;
    else
      return false;
    epilogue.relu = true;
    ++bodyOps;
  }
  if (auto add = value.getDefiningOp<arith::AddFOp>();
      add && definedInBody(value) && biasArgument) {
    Value lhs = add.getLhs(), rhs = add.getRhs();
    if (lhs == biasArgument && llvm::is_contained(resultArguments, rhs))
      value = rhs;
    else if (rhs == biasArgument && llvm::is_contained(resultArguments, lhs))
      value = lhs;
    else
      return false;
    ++bodyOps;
  } else if (biasArgument) {
    return false;
  }
  return llvm::is_contained(resultArguments, value) &&
         body->getOperations().size() == bodyOps &&
         (epilogue.relu || biasArgument);
}

std::optional<nx::Epilogue> nx::findEpilogue(linalg::LinalgOp op,
                                             unsigned channelDim) {
  if (op.getNumDpsInits() != 1)
    return std::nullopt;
  Value output = op.getDpsInits()[0];
  auto outputType = dyn_cast<MemRefType>(output.getType());
  Value outputRoot = getRootBuffer(output);
  auto generic = dyn_cast_or_null<linalg::GenericOp>(
      getNextMemoryOp(op.getOperation(), outputRoot));
  if (!outputType || channelDim >= outputType.getRank() || !generic ||
      !generic.hasPureBufferSemantics() || generic.getNumDpsInits() != 1 ||
      generic.getDpsInitOperand(0)->get() != output ||
      generic.getNumLoops() != outputType.getRank() ||
      generic.getNumReductionLoops() != 0)
    return std::nullopt;
  // The block arguments that read the kernel's result, element for
  // element, and the one that reads the bias.
  SmallVector<Value> resultArguments;
  Epilogue epilogue{generic, nullptr, false};
  Value biasArgument;
  AffineMap channelMap = AffineMap::get(
      outputType.getRank(), 0, getAffineDimExpr(channelDim, op.getContext()));
  for (OpOperand &operand : generic->getOpOperands()) {
    AffineMap map = generic.getMatchingIndexingMap(&operand);
    BlockArgument argument = generic.getMatchingBlockArgument(&operand);
    if (operand.get() == output && map.isIdentity()) {
      resultArguments.push_back(argument);
      continue;
    }
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    if (epilogue.bias || generic.isDpsInit(&operand) || !type ||
        type.getRank() != 1 ||
        type.getElementType() != outputType.getElementType() ||
        map != channelMap || getRootBuffer(operand.get()) == outputRoot ||
        !DominanceInfo(op).properlyDominates(operand.get(), op))
      return std::nullopt;
    epilogue.bias = operand.get();
    biasArgument = argument;
  }
  if (!matchEpilogueBody(generic.getBlock(), resultArguments, biasArgument,
                         epilogue))
    return std::nullopt;
  return epilogue;
}

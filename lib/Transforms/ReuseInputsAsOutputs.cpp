//===- ReuseInputsAsOutputs.cpp - elementwise ops write over dead inputs --===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Destination-passing style lets One-Shot Bufferize reuse a buffer only
// where the IR names it as a destination; an elementwise op whose input dies
// with it can name that input.
//
//===----------------------------------------------------------------------===//

#include "nx/Support/PassStatistics.h"
#include "nx/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#define DEBUG_TYPE "nx-reuse-inputs-as-outputs"

namespace mlir::nx {
#define GEN_PASS_DEF_NXREUSEINPUTSASOUTPUTSPASS
#include "nx/Transforms/Passes.h.inc"
} // namespace mlir::nx

using namespace mlir;

/// Whether `value` is an argument of a function's entry block.
static bool isFunctionArgument(Value value) {
  auto argument = dyn_cast<BlockArgument>(value);
  return argument && argument.getOwner()->isEntryBlock() &&
         isa<FunctionOpInterface>(argument.getOwner()->getParentOp());
}

/// An input of `op` that its output `init` may be replaced by, or null.
static OpOperand *findReusableInput(linalg::GenericOp op, OpOperand &init) {
  AffineMap outputMap = op.getMatchingIndexingMap(&init);
  for (OpOperand *input : op.getDpsInputOperands()) {
    Value value = input->get();
    if (value.getType() != init.get().getType() || !value.hasOneUse() ||
        isFunctionArgument(value) ||
        op.getMatchingIndexingMap(input) != outputMap)
      continue;
    return input;
  }
  return nullptr;
}

namespace {

struct NxReuseInputsAsOutputsPass
    : nx::impl::NxReuseInputsAsOutputsPassBase<NxReuseInputsAsOutputsPass> {
  void runOnOperation() override {
    getOperation()->walk([&](linalg::GenericOp op) {
      if (!op.hasPureTensorSemantics() ||
          op.getNumParallelLoops() != op.getNumLoops())
        return;
      for (OpOperand &init : op.getDpsInitsMutable()) {
        if (!init.get().getDefiningOp<tensor::EmptyOp>() ||
            op.payloadUsesValueFromOperand(&init))
          continue;
        OpOperand *input = findReusableInput(op, init);
        if (!input)
          continue;
        // The input keeps its place among the inputs: the payload reads it
        // through its own block argument, before the write.
        init.set(input->get());
        nx::addStatistic(numReused);
      }
    });
  }
};

} // namespace

#undef DEBUG_TYPE

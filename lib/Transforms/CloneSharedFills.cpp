//===- CloneSharedFills.cpp - a fill of its own for each writer ----------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// One-Shot Bufferize resolves two writers of one filled tensor with a copy
// of the filled buffer. Filling a fresh tensor for each writer costs a fill
// instead, and leaves each writer next to the ops it can share a team with.
//
//===----------------------------------------------------------------------===//

#include "nx/Support/PassStatistics.h"
#include "nx/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"

#define DEBUG_TYPE "nx-clone-shared-fills"

namespace mlir::nx {
#define GEN_PASS_DEF_NXCLONESHAREDFILLSPASS
#include "nx/Transforms/Passes.h.inc"
} // namespace mlir::nx

using namespace mlir;

/// The uses of `fill`'s result that write into it: `outs` operands of
/// destination-style ops. When every use is one, the first in program order
/// is left out: it may keep the original.
static SmallVector<OpOperand *> getWritersToClone(linalg::FillOp fill) {
  SmallVector<OpOperand *> writers;
  int64_t uses = 0;
  for (OpOperand &use : fill.getResult(0).getUses()) {
    ++uses;
    auto destinationStyle =
        dyn_cast<DestinationStyleOpInterface>(use.getOwner());
    if (destinationStyle && destinationStyle.isDpsInit(&use))
      writers.push_back(&use);
  }
  if (uses < 2)
    return {};
  // Writers of one block in program order, so that the first keeps it.
  if (llvm::all_equal(llvm::map_range(
          writers, [](OpOperand *use) { return use->getOwner()->getBlock(); })))
    llvm::sort(writers, [](OpOperand *a, OpOperand *b) {
      return a->getOwner() != b->getOwner() &&
             a->getOwner()->isBeforeInBlock(b->getOwner());
    });
  if (static_cast<int64_t>(writers.size()) == uses)
    writers.erase(writers.begin());
  return writers;
}

namespace {

struct NxCloneSharedFillsPass
    : nx::impl::NxCloneSharedFillsPassBase<NxCloneSharedFillsPass> {
  void runOnOperation() override {
    SmallVector<linalg::FillOp> fills;
    getOperation()->walk([&](linalg::FillOp fill) {
      if (fill.hasPureTensorSemantics() &&
          fill.getOutputs()[0].getDefiningOp<tensor::EmptyOp>())
        fills.push_back(fill);
    });
    for (linalg::FillOp fill : fills) {
      auto empty = fill.getOutputs()[0].getDefiningOp<tensor::EmptyOp>();
      OpBuilder builder(fill);
      builder.setInsertionPointAfter(fill);
      for (OpOperand *writer : getWritersToClone(fill)) {
        // The empty tensor's sizes and the fill's value dominate the
        // original fill, so they dominate the clones right after it.
        Operation *ownEmpty = builder.clone(*empty);
        IRMapping mapping;
        mapping.map(empty.getResult(), ownEmpty->getResult(0));
        Operation *ownFill = builder.clone(*fill, mapping);
        writer->set(ownFill->getResult(0));
        nx::addStatistic(numCloned);
      }
    }
  }
};

} // namespace

#undef DEBUG_TYPE

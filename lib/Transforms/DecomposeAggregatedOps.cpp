//===- DecomposeAggregatedOps.cpp - linalg.softmax and kin as linalg ------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// An aggregated op (linalg.softmax) is no LinalgOp: bufferization, the
// library calls and the loop lowering pass it by. Its own definition in
// linalg ops is what every later pass knows.
//
//===----------------------------------------------------------------------===//

#include "nx/Support/PassStatistics.h"
#include "nx/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"

#define DEBUG_TYPE "nx-decompose-aggregated-ops"

namespace mlir::nx {
#define GEN_PASS_DEF_NXDECOMPOSEAGGREGATEDOPSPASS
#include "nx/Transforms/Passes.h.inc"
} // namespace mlir::nx

using namespace mlir;

/// The first element type among `op`'s operands that upstream's
/// decompositions cannot take, or null: they build exponentials, divisions
/// and infinities, which only f16, bf16, f32 and f64 have here (an i1
/// softmax crashed the decomposition; found by fuzzing).
static Type getUnsupportedElementType(Operation *op) {
  for (Type type : op->getOperandTypes()) {
    Type element = getElementTypeOrSelf(type);
    if (!isa<Float16Type, BFloat16Type, Float32Type, Float64Type>(element))
      return element;
  }
  return {};
}

namespace {

struct NxDecomposeAggregatedOpsPass
    : nx::impl::NxDecomposeAggregatedOpsPassBase<NxDecomposeAggregatedOpsPass> {
  void runOnOperation() override {
    SmallVector<linalg::AggregatedOpInterface> aggregated;
    getOperation()->walk(
        [&](linalg::AggregatedOpInterface op) { aggregated.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (linalg::AggregatedOpInterface op : aggregated) {
      // Upstream's decompositions build tensors: on buffers they would mix
      // the two in one op.
      auto destinationStyle =
          dyn_cast<DestinationStyleOpInterface>(op.getOperation());
      if (!destinationStyle || !destinationStyle.hasPureTensorSemantics()) {
        op->emitOpError() << "is decomposed into linalg ops on tensors only, "
                             "before bufferization; this one has "
                          << op->getNumOperands() << " operands, not all "
                          << "tensors";
        return signalPassFailure();
      }
      if (Type element = getUnsupportedElementType(op)) {
        op->emitOpError() << "is decomposed for f16, bf16, f32 and f64 "
                             "elements only; this one has "
                          << element;
        return signalPassFailure();
      }
      rewriter.setInsertionPoint(op);
      FailureOr<SmallVector<Value>> replacements =
          op.decomposeOperation(rewriter);
      if (failed(replacements)) {
        op->emitOpError() << "has no decomposition into linalg ops for the "
                             "CPU pipeline";
        return signalPassFailure();
      }
      rewriter.replaceOp(op, *replacements);
      nx::addStatistic(numDecomposed);
    }
  }
};

} // namespace

#undef DEBUG_TYPE

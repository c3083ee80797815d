//===- LowerTosa.cpp - the TOSA front end, only where there is TOSA -------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "nx/Support/StaticBounds.h"
#include "nx/Transforms/Passes.h"

#include "mlir/Conversion/TosaToArith/TosaToArith.h"
#include "mlir/Conversion/TosaToLinalg/TosaToLinalg.h"
#include "mlir/Conversion/TosaToTensor/TosaToTensor.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"

#define DEBUG_TYPE "nx-lower-tosa"

namespace mlir::nx {
#define GEN_PASS_DEF_NXLOWERTOSAPASS
#include "nx/Transforms/Passes.h.inc"
} // namespace mlir::nx

using namespace mlir;

static void buildTosaFrontEnd(OpPassManager &pm) {
  TosaToLinalgOptions options;
  options.disableTosaDecompositions = false;
  options.aggressiveReduceConstant = false;
  tosa::addTosaToLinalgPasses(pm, options);
  pm.addNestedPass<func::FuncOp>(createTosaToArithPass());
  pm.addNestedPass<func::FuncOp>(createTosaToTensorPass());
}

namespace {

struct NxLowerTosaPass final : nx::impl::NxLowerTosaPassBase<NxLowerTosaPass> {
  // The dialects the dynamic pipeline creates must be loaded before any
  // pass runs (multithreaded pass managers cannot load them later).
  void getDependentDialects(DialectRegistry &registry) const final {
    OpPassManager pm(ModuleOp::getOperationName());
    buildTosaFrontEnd(pm);
    pm.getDependentDialects(registry);
  }

  LogicalResult initialize(MLIRContext *) final {
    frontEnd = OpPassManager(ModuleOp::getOperationName());
    buildTosaFrontEnd(frontEnd);
    return success();
  }

  void runOnOperation() final {
    bool hasTosa =
        getOperation()
            ->walk([](Operation *op) {
              return isa_and_present<tosa::TosaDialect>(op->getDialect())
                         ? WalkResult::interrupt()
                         : WalkResult::advance();
            })
            .wasInterrupted();
    if (!hasTosa) {
      markAllAnalysesPreserved();
      return;
    }
    // The TOSA pipeline canonicalizes the whole module, which makes sizes
    // static in ops they contradict; reported first, at the user's op.
    if (failed(nx::verifyStaticBounds(getOperation())))
      return signalPassFailure();
    if (failed(runPipeline(frontEnd, getOperation())))
      signalPassFailure();
  }

  OpPassManager frontEnd{ModuleOp::getOperationName()};
};

} // namespace

#undef DEBUG_TYPE

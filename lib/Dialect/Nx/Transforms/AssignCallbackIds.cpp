//===- AssignCallbackIds.cpp - dense callback ids
//--------------------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "nx/Dialect/Nx/IR/NxOps.h"
#include "nx/Dialect/Nx/Transforms/Passes.h"
#include "nx/Support/PassStatistics.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

#define DEBUG_TYPE "nx-assign-callback-ids"

namespace mlir::nx {
#define GEN_PASS_DEF_NXASSIGNCALLBACKIDSPASS
#include "nx/Dialect/Nx/Transforms/Passes.h.inc"
} // namespace mlir::nx

using namespace mlir;
using namespace mlir::nx;

namespace {
struct AssignCallbackIdsPass final
    : nx::impl::NxAssignCallbackIdsPassBase<AssignCallbackIdsPass> {
  void runOnOperation() final {
    ModuleOp module = getOperation();
    // Sorting by name makes the ids a function of the callback names alone,
    // independent of op order, uses, and earlier passes.
    SmallVector<CallbackOp> callbacks =
        llvm::to_vector(module.getOps<CallbackOp>());
    llvm::sort(callbacks, [](CallbackOp a, CallbackOp b) {
      return a.getSymName() < b.getSymName();
    });
    Builder builder(module.getContext());
    SmallVector<NamedAttribute> ids;
    for (auto [id, callback] : llvm::enumerate(callbacks)) {
      IntegerAttr idAttr = builder.getI64IntegerAttr(id);
      callback.setIdAttr(idAttr);
      ids.emplace_back(callback.getSymNameAttr(), idAttr);
    }
    module->setAttr(NxDialect::getCallbackIdsAttrName(),
                    builder.getDictionaryAttr(ids));
    nx::addStatistic(numCallbacks, callbacks.size());
  }
};
} // namespace

#undef DEBUG_TYPE

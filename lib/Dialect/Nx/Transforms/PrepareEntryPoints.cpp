//===- PrepareEntryPoints.cpp - make public functions host-callable --------===//

#include "nx/Dialect/Nx/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#define DEBUG_TYPE "nx-prepare-entry-points"

namespace mlir::nx {
#define GEN_PASS_DEF_NXPREPAREENTRYPOINTSPASS
#include "nx/Dialect/Nx/Transforms/Passes.h.inc"
} // namespace mlir::nx

using namespace mlir;

namespace {
struct PrepareEntryPointsPass final
    : nx::impl::NxPrepareEntryPointsPassBase<PrepareEntryPointsPass> {
  void runOnOperation() final {
    Builder builder(&getContext());
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (!func.isPublic() || func.isExternal())
        continue;
      func->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                    builder.getUnitAttr());
      // The caller owns its inputs: never bufferize into them.
      for (auto [index, type] : llvm::enumerate(func.getArgumentTypes()))
        if (isa<TensorType>(type))
          func.setArgAttr(index,
                          bufferization::BufferizationDialect::kWritableAttrName,
                          builder.getBoolAttr(false));
    }
  }
};
} // namespace

//===- PrepareEntryPoints.cpp - make public functions host-callable
//--------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "nx/Dialect/Nx/Transforms/Passes.h"

#include "nx/Conversion/NxToLLVM/RuntimeSymbols.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"

#define DEBUG_TYPE "nx-prepare-entry-points"

namespace mlir::nx {
#define GEN_PASS_DEF_NXPREPAREENTRYPOINTSPASS
#include "nx/Dialect/Nx/Transforms/Passes.h.inc"
} // namespace mlir::nx

using namespace mlir;

using nx::runtime_symbols::kCInterfacePrefix;

namespace {
struct PrepareEntryPointsPass final
    : nx::impl::NxPrepareEntryPointsPassBase<PrepareEntryPointsPass> {
  void runOnOperation() final {
    Builder builder(&getContext());
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    for (auto func : module.getOps<func::FuncOp>()) {
      if (!func.isPublic() || func.isExternal())
        continue;
      // The conversion to LLVM defines the C interface under this name;
      // a symbol of the user's that has it would be redefined.
      std::string wrapper = (kCInterfacePrefix + func.getSymName()).str();
      if (Operation *user = symbols.lookup(wrapper)) {
        user->emitOpError() << "uses the name '" << wrapper
                            << "', which the C interface of public function @"
                            << func.getSymName() << " takes";
        return signalPassFailure();
      }
      func->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                    builder.getUnitAttr());
      // The caller owns its inputs: never bufferize into them.
      for (auto [index, type] : llvm::enumerate(func.getArgumentTypes()))
        if (isa<TensorType>(type))
          func.setArgAttr(
              index, bufferization::BufferizationDialect::kWritableAttrName,
              builder.getBoolAttr(false));
    }
  }
};
} // namespace

#undef DEBUG_TYPE

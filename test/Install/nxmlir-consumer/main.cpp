//===- main.cpp - a tool on the installed NxMLIR package ------------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Parses an nx module, lowers its callback to a StableHLO-style custom call
// with the installed passes and prints the result: the dialect, its passes
// and their registration all link from the package.
//
//===----------------------------------------------------------------------===//

#include "nx/Dialect/Nx/IR/NxDialect.h"
#include "nx/InitNx.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"

static const char *kModule = R"mlir(
nx.callback @twice : (tensor<4xf32>) -> tensor<4xf32>
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = nx.elixir_call @twice(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
)mlir";

int main() {
  mlir::DialectRegistry registry;
  mlir::nx::registerNxDialects(registry);
  registry.insert<mlir::func::FuncDialect>();
  mlir::nx::registerNxPasses();
  mlir::MLIRContext context(registry);
  auto module = mlir::parseSourceString<mlir::ModuleOp>(kModule, &context);
  if (!module)
    return 1;
  mlir::PassManager pm(&context, mlir::ModuleOp::getOperationName());
  if (mlir::failed(mlir::parsePassPipeline(
          "nx-assign-callback-ids,convert-nx-to-custom-call", pm,
          llvm::errs())) ||
      mlir::failed(pm.run(*module)))
    return 1;
  module->print(llvm::outs());
  // The callback must have become a custom call.
  bool lowered = false;
  module->walk([&](mlir::Operation *op) {
    lowered |= op->getName().getStringRef() == "nx.custom_call";
  });
  return lowered ? 0 : 1;
}

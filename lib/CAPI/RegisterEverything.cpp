//===- RegisterEverything.cpp - register nx with MLIR through C -----------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "nx-c/RegisterEverything.h"

#include "nx/InitNx.h"

#include "mlir/CAPI/IR.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"

void mlirNxRegisterAllDialects(MlirDialectRegistry registry) {
  mlir::DialectRegistry &dialects = *unwrap(registry);
  // nx-lower-to-cpu goes through most upstream dialects (tosa, linalg,
  // bufferization, vector, scf, openmp, llvm, ...) and their interface
  // extensions; its result is for translation to LLVM IR.
  mlir::registerAllDialects(dialects);
  mlir::registerAllExtensions(dialects);
  mlir::registerAllToLLVMIRTranslations(dialects);
  mlir::nx::registerNxDialects(dialects);
}

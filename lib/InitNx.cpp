//===- InitNx.cpp - register nx dialects and passes
//------------------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "nx/InitNx.h"

#include "nx/Codegen/CPU/Passes.h"
#include "nx/Conversion/NxToLLVM/NxToLLVM.h"
#include "nx/Conversion/Passes.h"
#include "nx/Dialect/Nx/IR/NxDialect.h"
#include "nx/Dialect/Nx/Transforms/BufferizableOpInterfaceImpl.h"
#include "nx/Dialect/Nx/Transforms/Passes.h"
#include "nx/Pipelines/Pipelines.h"
#include "nx/Support/PassStatistics.h"
#include "nx/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/DialectRegistry.h"

void mlir::nx::registerNxDialects(DialectRegistry &registry) {
  registry.insert<NxDialect, arith::ArithDialect>();
  registerBufferizableOpInterfaceExternalModels(registry);
  registerConvertNxToLLVMInterface(registry);
}

void mlir::nx::registerNxPasses() {
  registerNxDialectPasses();
  registerNxTransformsPasses();
  registerNxCodegenCPUPasses();
  registerNxConversionPasses();
  registerNxPipelines();
  registerNxPassStatistics();
}

void mlir::nx::registerNxPassStatistics() {
  static const PassStatisticDescription descriptions[] = {
#define NX_PASS_STATISTIC(ARGUMENT, NAME, DESCRIPTION)                         \
  {ARGUMENT, NAME, DESCRIPTION},
#include "nx/Conversion/PassStatistics.inc"
#define NX_PASS_STATISTIC(ARGUMENT, NAME, DESCRIPTION)                         \
  {ARGUMENT, NAME, DESCRIPTION},
#include "nx/Dialect/Nx/Transforms/PassStatistics.inc"
#define NX_PASS_STATISTIC(ARGUMENT, NAME, DESCRIPTION)                         \
  {ARGUMENT, NAME, DESCRIPTION},
#include "nx/Transforms/PassStatistics.inc"
#define NX_PASS_STATISTIC(ARGUMENT, NAME, DESCRIPTION)                         \
  {ARGUMENT, NAME, DESCRIPTION},
#include "nx/Codegen/CPU/PassStatistics.inc"
  };
  registerPassStatisticDescriptions(descriptions);
}

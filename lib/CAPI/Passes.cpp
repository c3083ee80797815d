//===- Passes.cpp - C API of the nx passes and pipelines
//-------------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "nx-c/Passes.h"

#include "nx/Codegen/CPU/Passes.h"
#include "nx/Conversion/Passes.h"
#include "nx/Dialect/Nx/Transforms/Passes.h"
#include "nx/InitNx.h"
#include "nx/Pipelines/Pipelines.h"
#include "nx/Transforms/Passes.h"

#include "mlir/CAPI/Pass.h"
#include "mlir/CAPI/Support.h"
#include "mlir/CAPI/Utils.h"

using namespace mlir;
// The generated definitions name the passes' create/register functions
// unqualified.
using namespace mlir::nx;

extern "C" {
#include "nx/Codegen/CPU/Passes.capi.cpp.inc"
#include "nx/Conversion/Passes.capi.cpp.inc"
#include "nx/Dialect/Nx/Transforms/Passes.capi.cpp.inc"
#include "nx/Transforms/Passes.capi.cpp.inc"
}

void mlirNxRegisterAllPasses(void) { registerNxPasses(); }

void mlirNxRegisterPipelines(void) { registerNxPipelines(); }

MlirLogicalResult mlirNxBuildLowerToCpuPipeline(
    MlirOpPassManager passManager, MlirStringRef options,
    MlirStringCallback errorCallback, void *userData) {
  LowerToCpuOptions pipelineOptions;
  std::string errors;
  llvm::raw_string_ostream errorStream(errors);
  if (failed(pipelineOptions.parseFromString(unwrap(options), errorStream))) {
    if (errorCallback) {
      detail::CallbackOstream stream(errorCallback, userData);
      stream << "nx-lower-to-cpu: " << errors;
    }
    return wrap(failure());
  }
  buildLowerToCpuPipeline(*unwrap(passManager), pipelineOptions);
  return wrap(success());
}

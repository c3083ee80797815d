//===- InitNx.cpp - register nx dialects and passes ------------------------===//

#include "nx/InitNx.h"

#include "nx/Conversion/NxToLLVM/NxToLLVM.h"
#include "nx/Conversion/Passes.h"
#include "nx/Dialect/Nx/IR/NxDialect.h"
#include "nx/Dialect/Nx/Transforms/BufferizableOpInterfaceImpl.h"
#include "nx/Dialect/Nx/Transforms/Passes.h"
#include "nx/Pipelines/Pipelines.h"
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
  registerNxConversionPasses();
  registerNxPipelines();
}

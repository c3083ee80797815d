//===- InitNx.cpp - register nx dialects and passes ------------------------===//

#include "nx/InitNx.h"

#include "nx/Dialect/Nx/IR/NxDialect.h"
#include "nx/Dialect/Nx/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"

void mlir::nx::registerNxDialects(DialectRegistry &registry) {
  registry.insert<NxDialect>();
}

void mlir::nx::registerNxPasses() { registerNxTransformsPasses(); }

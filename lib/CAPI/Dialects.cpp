//===- Dialects.cpp - C API of the nx dialect ------------------------------===//

#include "nx-c/Dialect/Nx.h"

#include "nx/Dialect/Nx/IR/NxDialect.h"

#include "mlir/CAPI/Registration.h"

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(NX, nx, mlir::nx::NxDialect)

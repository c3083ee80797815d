//===- NxDialect.h - nx dialect ---------------------------------*- C++ -*-===//

#ifndef NX_DIALECT_NX_IR_NXDIALECT_H
#define NX_DIALECT_NX_IR_NXDIALECT_H

#include "mlir/IR/Dialect.h"

#include "nx/Dialect/Nx/IR/NxDialect.h.inc"

#endif // NX_DIALECT_NX_IR_NXDIALECT_H

//===- NxDialect.h - nx dialect ---------------------------------*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef NX_DIALECT_NX_IR_NXDIALECT_H
#define NX_DIALECT_NX_IR_NXDIALECT_H

#include "mlir/IR/Dialect.h"

#include "nx/Dialect/Nx/IR/NxDialect.h.inc"

#endif // NX_DIALECT_NX_IR_NXDIALECT_H

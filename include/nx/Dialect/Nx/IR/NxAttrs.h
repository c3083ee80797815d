//===- NxAttrs.h - nx dialect attributes ------------------------*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef NX_DIALECT_NX_IR_NXATTRS_H
#define NX_DIALECT_NX_IR_NXATTRS_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectImplementation.h"

#define GET_ATTRDEF_CLASSES
#include "nx/Dialect/Nx/IR/NxAttrs.h.inc"

#endif // NX_DIALECT_NX_IR_NXATTRS_H

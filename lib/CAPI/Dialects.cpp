//===- Dialects.cpp - C API of the nx dialect
//------------------------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "nx-c/Dialect/Nx.h"

#include "nx/Dialect/Nx/IR/NxDialect.h"

#include "mlir/CAPI/Registration.h"

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(NX, nx, mlir::nx::NxDialect)

//===- Passes.h - nx dialect transforms -------------------------*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef NX_DIALECT_NX_TRANSFORMS_PASSES_H
#define NX_DIALECT_NX_TRANSFORMS_PASSES_H

#include "nx/Dialect/Nx/Platform.h"

#include "mlir/Pass/Pass.h"

namespace mlir::nx {

#define GEN_PASS_DECL
#include "nx/Dialect/Nx/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "nx/Dialect/Nx/Transforms/Passes.h.inc"

} // namespace mlir::nx

#endif // NX_DIALECT_NX_TRANSFORMS_PASSES_H

//===- Passes.h - transforms generic to MLIR --------------------*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Passes over upstream dialects only that make no decision for one target;
// nothing here needs the nx dialect. The CPU back end's passes are in
// nx/Codegen/CPU/Passes.h.
//
//===----------------------------------------------------------------------===//

#ifndef NX_TRANSFORMS_PASSES_H
#define NX_TRANSFORMS_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir::nx {

#define GEN_PASS_DECL
#include "nx/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "nx/Transforms/Passes.h.inc"

} // namespace mlir::nx

#endif // NX_TRANSFORMS_PASSES_H

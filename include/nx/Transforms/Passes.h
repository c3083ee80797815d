//===- Passes.h - transforms generic to MLIR --------------------*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Passes over upstream dialects only; nothing here needs the nx dialect.
//
//===----------------------------------------------------------------------===//

#ifndef NX_TRANSFORMS_PASSES_H
#define NX_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::nx {

#define GEN_PASS_DECL
#include "nx/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "nx/Transforms/Passes.h.inc"

} // namespace mlir::nx

#endif // NX_TRANSFORMS_PASSES_H

//===- Passes.h - CPU code generation passes -------------------*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The CPU back end's code generation passes, over upstream dialects only;
// nothing here needs the nx dialect.
//
//===----------------------------------------------------------------------===//

#ifndef NX_CODEGEN_CPU_PASSES_H
#define NX_CODEGEN_CPU_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir::nx {

#define GEN_PASS_DECL
#include "nx/Codegen/CPU/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "nx/Codegen/CPU/Passes.h.inc"

} // namespace mlir::nx

#endif // NX_CODEGEN_CPU_PASSES_H

//===- RuntimeFunctions.h - libnxrt functions of compiled code -*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef NX_LIB_CONVERSION_NXTOLLVM_RUNTIMEFUNCTIONS_H
#define NX_LIB_CONVERSION_NXTOLLVM_RUNTIMEFUNCTIONS_H

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::nx {

/// nxrt_conv2d_prepare_f32's parameters, all i64: nxrt_conv2d_f32's without
/// its four pointers, and whether there is a bias in place of the bias's
/// stride.
inline constexpr unsigned kConv2dPrepareParameters = 31;

/// nxrt_gemm_prepare_bf16_f32's and nxrt_gemm_prepare_i8_i32's parameters,
/// all i64: whether the product is shared among the team, then the sizes,
/// strides and accumulate flag of nxrt_gemm_bf16_f32 (its pointers left
/// out).
inline constexpr unsigned kGemmPrepareParameters = 15;

/// The declaration of libnxrt's `name` (one of RuntimeSymbols.h's
/// functions) in `module`, created at its start through `builder` on first
/// use. Fails, reporting at the clashing op, when the name is taken by
/// something else.
FailureOr<LLVM::LLVMFuncOp> lookupOrCreateRuntimeFunction(OpBuilder &builder,
                                                          ModuleOp module,
                                                          StringRef name);

/// Fails, reporting at the clashing op, when `module` has a symbol named
/// like a runtime function that is not an llvm.func of its type: the names
/// are fixed, so the declarations would clash.
LogicalResult checkRuntimeNamesAreFree(ModuleOp module);

} // namespace mlir::nx

#endif // NX_LIB_CONVERSION_NXTOLLVM_RUNTIMEFUNCTIONS_H

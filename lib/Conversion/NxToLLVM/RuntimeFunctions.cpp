//===- RuntimeFunctions.cpp - libnxrt functions compiled code calls -------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "RuntimeFunctions.h"

#include "nx/Conversion/NxToLLVM/RuntimeSymbols.h"

#include "mlir/Dialect/LLVMIR/FunctionCallUtils.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace mlir::nx;
namespace symbols = mlir::nx::runtime_symbols;

/// The libnxrt functions compiled code calls.
static constexpr StringLiteral kRuntimeFunctions[] = {
    symbols::kRunCurrent, symbols::kInvoke, symbols::kRunFailed,
    symbols::kInvokeFailed, symbols::kOutOfMemory, symbols::kProgramAddSites,
    symbols::kGemmPrepare, symbols::kThreadsPrepare, symbols::kHeapPrepare,
    symbols::kConv2dPrepareF32, symbols::kGemmPrepareWidened,
    symbols::kGemmPreparePadded, symbols::kGemmPrepareBf16F32,
    symbols::kGemmPrepareI8I32,
    // Declared later by finalize-memref-to-llvm{use-generic-functions},
    // which would rename its declaration around a clash.
    symbols::kGenericAlloc, symbols::kGenericAlignedAlloc,
    symbols::kGenericFree};

/// The LLVM type of runtime function `name`.
static LLVM::LLVMFunctionType getRuntimeFunctionType(MLIRContext *context,
                                                     StringRef name) {
  Type ptr = LLVM::LLVMPointerType::get(context);
  Type i32 = IntegerType::get(context, 32);
  Type i64 = IntegerType::get(context, 64);
  Type voidType = LLVM::LLVMVoidType::get(context);
  auto fn = [](Type result, ArrayRef<Type> params) {
    return LLVM::LLVMFunctionType::get(result, params);
  };
  if (name == symbols::kRunCurrent)
    return fn(ptr, {});
  if (name == symbols::kInvoke)
    return fn(ptr, {ptr, ptr, ptr, i64, ptr, i64});
  if (name == symbols::kRunFailed)
    return fn(i32, {ptr});
  if (name == symbols::kInvokeFailed)
    return fn(voidType, {ptr, ptr});
  if (name == symbols::kOutOfMemory)
    return fn(voidType, {ptr, i64, ptr});
  if (name == symbols::kProgramAddSites)
    return fn(ptr, {ptr, ptr});
  if (name == symbols::kGemmPrepare || name == symbols::kThreadsPrepare)
    return fn(voidType, {});
  if (name == symbols::kHeapPrepare || name == symbols::kGemmPreparePadded)
    return fn(voidType, {i64});
  if (name == symbols::kGemmPrepareWidened)
    return fn(voidType, {i32, i64, i64, i64});
  if (name == symbols::kGemmPrepareBf16F32 ||
      name == symbols::kGemmPrepareI8I32)
    return fn(voidType, SmallVector<Type>(kGemmPrepareParameters, i64));
  if (name == symbols::kConv2dPrepareF32)
    return fn(voidType, SmallVector<Type>(kConv2dPrepareParameters, i64));
  if (name == symbols::kGenericAlloc)
    return fn(ptr, {i64});
  if (name == symbols::kGenericAlignedAlloc)
    return fn(ptr, {i64, i64});
  if (name == symbols::kGenericFree)
    return fn(voidType, {ptr});
  llvm_unreachable("not a libnxrt function compiled code calls");
}

/// Fails, at the symbol, when `module` has a symbol `name` that is not
/// libnxrt's function of that name as compiled code declares it.
static LogicalResult checkRuntimeNameIsFree(ModuleOp module, StringRef name) {
  LLVM::LLVMFunctionType type =
      getRuntimeFunctionType(module.getContext(), name);
  Operation *existing = SymbolTable::lookupSymbolIn(module, name);
  if (!existing)
    return success();
  auto func = dyn_cast<LLVM::LLVMFuncOp>(existing);
  if (func && func.getFunctionType() == type)
    return success();
  InFlightDiagnostic diag = existing->emitOpError()
                            << "uses the name of libnxrt's '" << name
                            << "', which compiled code calls as " << type;
  if (func)
    diag << ", but it has type " << func.getFunctionType();
  return diag;
}

FailureOr<LLVM::LLVMFuncOp>
nx::lookupOrCreateRuntimeFunction(OpBuilder &builder, ModuleOp module,
                                  StringRef name) {
  // Under --convert-to-llvm no pass checked the names first.
  if (failed(checkRuntimeNameIsFree(module, name)))
    return failure();
  LLVM::LLVMFunctionType type =
      getRuntimeFunctionType(module.getContext(), name);
  return LLVM::lookupOrCreateFn(builder, module, name, type.getParams(),
                                type.getReturnType());
}

LogicalResult nx::checkRuntimeNamesAreFree(ModuleOp module) {
  for (StringRef name : kRuntimeFunctions)
    if (failed(checkRuntimeNameIsFree(module, name)))
      return failure();
  return success();
}

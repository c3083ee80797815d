//===- RuntimeFunctions.cpp - libnxrt functions compiled code calls -------===//

#include "RuntimeFunctions.h"

#include "nx/Conversion/NxToLLVM/RuntimeSymbols.h"

#include "mlir/Dialect/LLVMIR/FunctionCallUtils.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace mlir::nx;
namespace symbols = mlir::nx::runtime_symbols;

/// The libnxrt functions compiled code calls, with their LLVM types.
static SmallVector<std::pair<StringRef, LLVM::LLVMFunctionType>>
runtimeFunctions(MLIRContext *context) {
  Type ptr = LLVM::LLVMPointerType::get(context);
  Type i32 = IntegerType::get(context, 32);
  Type i64 = IntegerType::get(context, 64);
  Type voidType = LLVM::LLVMVoidType::get(context);
  auto fn = [](Type result, ArrayRef<Type> params) {
    return LLVM::LLVMFunctionType::get(result, params);
  };
  return {
      {symbols::kRunCurrent, fn(ptr, {})},
      {symbols::kInvoke, fn(ptr, {ptr, ptr, ptr, i64, ptr, i64})},
      {symbols::kRunFailed, fn(i32, {ptr})},
      {symbols::kInvokeFailed, fn(voidType, {ptr, ptr})},
      {symbols::kProgramAddSites, fn(ptr, {ptr, ptr})},
      // Declared later by finalize-memref-to-llvm{use-generic-functions},
      // which would rename its declaration around a clash.
      {symbols::kGenericAlloc, fn(ptr, {i64})},
      {symbols::kGenericAlignedAlloc, fn(ptr, {i64, i64})},
      {symbols::kGenericFree, fn(voidType, {ptr})},
  };
}

FailureOr<LLVM::LLVMFuncOp>
nx::lookupOrCreateRuntimeFunction(OpBuilder &builder, ModuleOp module,
                                  StringRef name) {
  for (auto [known, type] : runtimeFunctions(module.getContext()))
    if (known == name)
      return LLVM::lookupOrCreateFn(builder, module, name, type.getParams(),
                                    type.getReturnType());
  llvm_unreachable("not a libnxrt function compiled code calls");
}

LogicalResult nx::checkRuntimeNamesAreFree(ModuleOp module) {
  for (auto [name, type] : runtimeFunctions(module.getContext())) {
    Operation *existing = SymbolTable::lookupSymbolIn(module, name);
    if (!existing)
      continue;
    auto func = dyn_cast<LLVM::LLVMFuncOp>(existing);
    if (func && func.getFunctionType() == type)
      continue;
    InFlightDiagnostic diag = existing->emitOpError()
                              << "uses the name of libnxrt's '" << name
                              << "', which compiled code calls as " << type;
    if (func)
      diag << ", but it has type " << func.getFunctionType();
    return diag;
  }
  return success();
}

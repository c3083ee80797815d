//===- FailureExits.cpp - stopping a function after a failed call ---------===//

#include "FailureExits.h"

#include "RuntimeFunctions.h"

#include "nx/Conversion/NxToLLVM/RuntimeSymbols.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"

using namespace mlir;
using namespace mlir::nx;
namespace symbols = mlir::nx::runtime_symbols;

LogicalResult nx::checkInFunctionBody(Operation *call) {
  Operation *parent = call->getParentOp();
  if (!parent || isa<FunctionOpInterface>(parent))
    return success();
  return call->emitOpError()
         << "must be in the body of a function, not in a region of '"
         << parent->getName()
         << "', to stop the function when the host call fails (lower "
            "structured control flow first, e.g. convert-scf-to-cf)";
}

/// The all-zero value of `type` (a result type of a function), built from
/// its LLVM form; null when it has none.
static Value createZero(OpBuilder &builder, Location loc, Type type,
                        const LLVMTypeConverter &converter) {
  Type lowered = converter.convertType(type);
  if (!lowered || !LLVM::isCompatibleType(lowered))
    return {};
  Value zero = LLVM::ZeroOp::create(builder, loc, lowered);
  if (lowered == type)
    return zero;
  return UnrealizedConversionCastOp::create(builder, loc, type, zero)
      .getResult(0);
}

LogicalResult nx::checkCanStop(FunctionOpInterface func, Location loc,
                               const LLVMTypeConverter &converter) {
  if (!isa<func::FuncOp, LLVM::LLVMFuncOp>(func))
    return emitError(loc) << "cannot stop '" << func->getName()
                          << "' after a failed host call: only func.func "
                             "and llvm.func are supported";
  for (Type type : func.getResultTypes()) {
    if (isa<LLVM::LLVMVoidType>(type))
      continue;
    Type lowered = converter.convertType(type);
    if (!lowered || !LLVM::isCompatibleType(lowered))
      return emitError(loc) << "cannot stop @" << func.getName()
                            << " after a failed host call: its result type "
                            << type << " has no LLVM equivalent";
  }
  return success();
}

LogicalResult nx::stopIfFailed(RewriterBase &rewriter, Operation *after,
                               Value failed, Value run, Value status,
                               const LLVMTypeConverter &converter) {
  Location loc = after->getLoc();
  Block *block = after->getBlock();
  auto func = cast<FunctionOpInterface>(block->getParentOp());
  if (::mlir::failed(checkCanStop(func, loc, converter)))
    return failure();
  FailureOr<LLVM::LLVMFuncOp> invokeFailed = lookupOrCreateRuntimeFunction(
      rewriter, after->getParentOfType<ModuleOp>(), symbols::kInvokeFailed);
  if (::mlir::failed(invokeFailed))
    return failure();

  Region &body = func.getFunctionBody();
  Block *exit;
  {
    OpBuilder::InsertionGuard guard(rewriter);
    exit = rewriter.createBlock(&body, body.end());
    LLVM::CallOp::create(rewriter, loc, *invokeFailed,
                         ValueRange{run, status});
    SmallVector<Value> zeros;
    for (Type type : func.getResultTypes())
      if (!isa<LLVM::LLVMVoidType>(type))
        zeros.push_back(createZero(rewriter, loc, type, converter));
    if (isa<func::FuncOp>(func))
      func::ReturnOp::create(rewriter, loc, zeros);
    else
      LLVM::ReturnOp::create(rewriter, loc, zeros);
  }
  Block *rest = rewriter.splitBlock(block, std::next(after->getIterator()));
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToEnd(block);
  LLVM::CondBrOp::create(rewriter, loc, failed, exit, ValueRange{}, rest,
                         ValueRange{});
  return success();
}

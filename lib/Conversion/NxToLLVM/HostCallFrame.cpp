//===- HostCallFrame.cpp - what a function calling the host keeps ---------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "HostCallFrame.h"

#include "RuntimeFunctions.h"

#include "nx/Conversion/NxToLLVM/RuntimeSymbols.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

using namespace mlir;
using namespace mlir::nx;
namespace symbols = mlir::nx::runtime_symbols;

LLVM::LLVMStructType nx::getTensorViewType(MLIRContext *context) {
  Type i32 = IntegerType::get(context, 32);
  Type ptr = LLVM::LLVMPointerType::get(context);
  return LLVM::LLVMStructType::getLiteral(context, {i32, i32, ptr, ptr});
}

std::string nx::formatFileLocation(Location loc) {
  std::string result = "unknown location";
  loc->walk([&](Location inner) {
    if (auto file = dyn_cast<FileLineColLoc>(inner)) {
      result = (file.getFilename().getValue() + ":" + Twine(file.getLine()) +
                ":" + Twine(file.getColumn()))
                   .str();
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return result;
}

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

namespace {

/// The frame's ops at the start of the entry block, in order.
struct FrameOps {
  LLVM::CallOp run;
  LLVM::AllocaOp statusSlot;
  LLVM::ConstantOp numArgs;
  LLVM::AllocaOp argViews;
  LLVM::ConstantOp numResults;
  LLVM::AllocaOp resultViews;
};

} // namespace

/// The frame at the start of `entry`, if that is what stands there.
static std::optional<FrameOps> findFrame(Block &entry, StringRef runCurrent,
                                         Type viewType) {
  auto it = entry.begin();
  auto next = [&]() -> Operation * {
    return it == entry.end() ? nullptr : &*it++;
  };
  auto matchArray =
      [&](Type elementType) -> std::pair<LLVM::ConstantOp, LLVM::AllocaOp> {
    auto size = dyn_cast_if_present<LLVM::ConstantOp>(next());
    auto op = dyn_cast_if_present<LLVM::AllocaOp>(next());
    if (!size || !op || op.getArraySize() != size.getResult() ||
        op.getElemType() != elementType)
      return {};
    return {size, op};
  };
  FrameOps frame;
  frame.run = dyn_cast_if_present<LLVM::CallOp>(next());
  if (!frame.run || frame.run.getCallee() != runCurrent)
    return std::nullopt;
  frame.statusSlot =
      matchArray(LLVM::LLVMPointerType::get(entry.getParentOp()->getContext()))
          .second;
  std::tie(frame.numArgs, frame.argViews) = matchArray(viewType);
  std::tie(frame.numResults, frame.resultViews) = matchArray(viewType);
  if (!frame.statusSlot || !frame.argViews || !frame.resultViews)
    return std::nullopt;
  return frame;
}

/// Makes `count` entries fit the array `size` counts.
static void ensureCapacity(RewriterBase &rewriter, LLVM::ConstantOp size,
                           size_t count) {
  auto current = cast<IntegerAttr>(size.getValue()).getInt();
  if (static_cast<int64_t>(count) <= current)
    return;
  rewriter.modifyOpInPlace(
      size, [&] { size.setValueAttr(rewriter.getI64IntegerAttr(count)); });
}

FailureOr<HostCallFrame>
nx::getOrCreateHostCallFrame(RewriterBase &rewriter, Operation *call,
                             size_t numArgViews, size_t numResultViews,
                             const LLVMTypeConverter &converter) {
  auto func = cast<FunctionOpInterface>(call->getParentOp());
  auto module = func->getParentOfType<ModuleOp>();
  MLIRContext *context = func.getContext();
  FailureOr<LLVM::LLVMFuncOp> runCurrent =
      lookupOrCreateRuntimeFunction(rewriter, module, symbols::kRunCurrent);
  FailureOr<LLVM::LLVMFuncOp> invokeFailed =
      lookupOrCreateRuntimeFunction(rewriter, module, symbols::kInvokeFailed);
  if (failed(runCurrent) || failed(invokeFailed))
    return failure();

  OpBuilder::InsertionGuard guard(rewriter);
  Region &body = func.getFunctionBody();
  Block &entry = body.front();
  Type ptr = LLVM::LLVMPointerType::get(context);
  Type viewType = getTensorViewType(context);
  std::optional<FrameOps> frame =
      findFrame(entry, runCurrent->getName(), viewType);
  Location loc = func.getLoc();
  if (!frame) {
    rewriter.setInsertionPointToStart(&entry);
    auto makeArray = [&](Type elementType, size_t count) {
      auto size = LLVM::ConstantOp::create(rewriter, loc, rewriter.getI64Type(),
                                           rewriter.getI64IntegerAttr(count));
      return std::make_pair(
          size, LLVM::AllocaOp::create(rewriter, loc, ptr, elementType, size));
    };
    frame.emplace();
    frame->run = LLVM::CallOp::create(rewriter, loc, *runCurrent, ValueRange());
    frame->statusSlot = makeArray(ptr, 1).second;
    std::tie(frame->numArgs, frame->argViews) =
        makeArray(viewType, numArgViews);
    std::tie(frame->numResults, frame->resultViews) =
        makeArray(viewType, numResultViews);
  }
  ensureCapacity(rewriter, frame->numArgs, numArgViews);
  ensureCapacity(rewriter, frame->numResults, numResultViews);

  HostCallFrame result{frame->run.getResult(), frame->statusSlot,
                       frame->argViews, frame->resultViews, nullptr};
  // The exit is the last block; splitting blocks for calls inserts the
  // rest of each block right after it, so the exit stays last.
  Block &last = body.back();
  if (&last != &entry && !last.empty())
    if (auto load = dyn_cast<LLVM::LoadOp>(last.front()))
      if (load.getAddr() == result.statusSlot)
        result.exit = &last;
  if (result.exit)
    return result;

  result.exit = rewriter.createBlock(&body, body.end());
  Value status = LLVM::LoadOp::create(rewriter, loc, ptr, result.statusSlot);
  LLVM::CallOp::create(rewriter, loc, *invokeFailed,
                       ValueRange{result.run, status});
  SmallVector<Value> zeros;
  for (Type type : func.getResultTypes())
    if (!isa<LLVM::LLVMVoidType>(type))
      zeros.push_back(createZero(rewriter, loc, type, converter));
  if (isa<func::FuncOp>(func))
    func::ReturnOp::create(rewriter, loc, zeros);
  else
    LLVM::ReturnOp::create(rewriter, loc, zeros);
  return result;
}

void nx::stopIfFailed(RewriterBase &rewriter, Operation *after, Value failed,
                      Value status, const HostCallFrame &frame) {
  OpBuilder::InsertionGuard guard(rewriter);
  Location loc = after->getLoc();
  rewriter.setInsertionPointAfter(after);
  auto store = LLVM::StoreOp::create(rewriter, loc, status, frame.statusSlot);
  Block *block = store->getBlock();
  Block *rest = rewriter.splitBlock(block, std::next(store->getIterator()));
  rewriter.setInsertionPointToEnd(block);
  LLVM::CondBrOp::create(rewriter, loc, failed, frame.exit, ValueRange{}, rest,
                         ValueRange{});
}

LogicalResult nx::stopIfRunFailed(RewriterBase &rewriter, Operation *after,
                                  const HostCallFrame &frame) {
  OpBuilder::InsertionGuard guard(rewriter);
  auto module = after->getParentOfType<ModuleOp>();
  FailureOr<LLVM::LLVMFuncOp> runFailed =
      lookupOrCreateRuntimeFunction(rewriter, module, symbols::kRunFailed);
  if (failed(runFailed))
    return failure();
  Location loc = after->getLoc();
  rewriter.setInsertionPointAfter(after);
  Value flag =
      LLVM::CallOp::create(rewriter, loc, *runFailed, ValueRange{frame.run})
          .getResult();
  Value zero = LLVM::ConstantOp::create(rewriter, loc, rewriter.getI32Type(),
                                        rewriter.getI32IntegerAttr(0));
  Value noStatus = LLVM::ZeroOp::create(
      rewriter, loc, LLVM::LLVMPointerType::get(module.getContext()));
  auto failed =
      LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::ne, flag, zero);
  stopIfFailed(rewriter, failed, failed, noStatus, frame);
  return success();
}

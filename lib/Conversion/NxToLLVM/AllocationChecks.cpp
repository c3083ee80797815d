//===- AllocationChecks.cpp - stop compiled code at a failed allocation ---===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A heap buffer of compiled code comes from malloc, which returns NULL when
// the memory is not there: a program whose shapes are fine for the compiler
// but too big for the machine. Written through, the NULL buffer is a
// segfault that takes the host down. Each memref.alloc is therefore checked
// where it stands, before memref lowering turns it into a plain call:
//
//   %buffer = memref.alloc() : memref<100000000000xf32>
//   %address = memref.extract_aligned_pointer_as_index %buffer
//   %null = llvm.icmp "eq" %address, 0
//   llvm.cond_br %null, ^oom, ^rest
// ^oom:
//   llvm.call @nxrt_out_of_memory(%run, %bytes, "f.mlir:3:8")
//   llvm.br ^exit          // the function's exit, as for a failed call
//
// In a region the function cannot leave from (an OpenMP loop body), ^oom
// ends the region's code the way its terminator does instead, and the
// function checks nxrt_run_failed after the op that holds the region. The
// aligned pointer of a NULL allocation is NULL too, whatever the alignment.
//
//===----------------------------------------------------------------------===//

#include "AllocationChecks.h"

#include "HostCallFrame.h"
#include "RuntimeFunctions.h"

#include "nx/Conversion/NxToLLVM/RuntimeSymbols.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::nx;
namespace symbols = mlir::nx::runtime_symbols;

namespace {

/// Builds the failure blocks of one module's allocations.
class AllocationChecker {
public:
  AllocationChecker(ModuleOp module, const LLVMTypeConverter &converter,
                    LLVM::LLVMFuncOp outOfMemory)
      : module(module), converter(converter), outOfMemory(outOfMemory),
        rewriter(module.getContext()) {}

  /// Checks `alloc`; returns the op of the function body that holds it, or
  /// null when the check could not be placed.
  FailureOr<Operation *> check(memref::AllocOp alloc);

  /// Makes the function of `anchor` stop after it once its regions failed.
  LogicalResult stopAfter(Operation *anchor);

private:
  Value getLocationString(Location loc);
  Value computeByteSize(memref::AllocOp alloc);
  Operation *findRegionEnd(Region &region);

  ModuleOp module;
  const LLVMTypeConverter &converter;
  LLVM::LLVMFuncOp outOfMemory;
  IRRewriter rewriter;
  llvm::StringMap<LLVM::GlobalOp> locationStrings;
};

} // namespace

Value AllocationChecker::getLocationString(Location loc) {
  std::string text = formatFileLocation(loc);
  LLVM::GlobalOp &global = locationStrings[text];
  if (!global) {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(module.getBody());
    std::string name;
    for (size_t i = locationStrings.size() - 1;; ++i) {
      name = ("__nx_oom_location_" + Twine(i)).str();
      if (!module.lookupSymbol(name))
        break;
    }
    text.push_back('\0');
    auto type = LLVM::LLVMArrayType::get(rewriter.getI8Type(), text.size());
    global = LLVM::GlobalOp::create(
        rewriter, loc, type, /*isConstant=*/true, LLVM::Linkage::Internal, name,
        rewriter.getStringAttr(text), /*alignment=*/0);
  }
  return LLVM::AddressOfOp::create(rewriter, loc, global);
}

Value AllocationChecker::computeByteSize(memref::AllocOp alloc) {
  Location loc = alloc.getLoc();
  MemRefType type = alloc.getType();
  Type i64 = rewriter.getI64Type();
  // For the message only: the compiler bounded static shapes before.
  uint64_t staticBytes = DataLayout::closest(alloc)
                             .getTypeSize(type.getElementType())
                             .getFixedValue();
  for (int64_t dim : type.getShape())
    if (!ShapedType::isDynamic(dim))
      staticBytes =
          llvm::SaturatingMultiply(staticBytes, static_cast<uint64_t>(dim));
  Value bytes = LLVM::ConstantOp::create(
      rewriter, loc, i64,
      rewriter.getI64IntegerAttr(static_cast<int64_t>(staticBytes)));
  for (Value size : alloc.getDynamicSizes()) {
    Value asI64 = UnrealizedConversionCastOp::create(rewriter, loc, i64, size)
                      .getResult(0);
    bytes = LLVM::MulOp::create(rewriter, loc, bytes, asI64);
  }
  return bytes;
}

/// A terminator of `region` that ends it without operands, as the region's
/// code may stop early. Null when every way out carries values.
Operation *AllocationChecker::findRegionEnd(Region &region) {
  for (Block &block : region) {
    if (block.empty())
      continue;
    Operation &terminator = block.back();
    if (terminator.hasTrait<OpTrait::IsTerminator>() &&
        terminator.getNumOperands() == 0 && terminator.getNumSuccessors() == 0)
      return &terminator;
  }
  return nullptr;
}

FailureOr<Operation *> AllocationChecker::check(memref::AllocOp alloc) {
  auto func = alloc->getParentOfType<FunctionOpInterface>();
  Operation *anchor = alloc;
  while (anchor->getParentOp() != func)
    anchor = anchor->getParentOp();
  if (failed(checkCanStop(func, alloc.getLoc(), converter)))
    return failure();
  Region &region = *alloc->getParentRegion();
  Operation *regionEnd = anchor == alloc ? nullptr : findRegionEnd(region);
  if (anchor != alloc && !regionEnd)
    return static_cast<Operation *>(nullptr);
  FailureOr<HostCallFrame> frame =
      getOrCreateHostCallFrame(rewriter, anchor, 0, 0, converter);
  if (failed(frame))
    return failure();

  Location loc = alloc.getLoc();
  rewriter.setInsertionPointAfter(alloc);
  Value address =
      memref::ExtractAlignedPointerAsIndexOp::create(rewriter, loc, alloc);
  Type i64 = rewriter.getI64Type();
  Value addressI64 =
      UnrealizedConversionCastOp::create(rewriter, loc, i64, address)
          .getResult(0);
  Value zero = LLVM::ConstantOp::create(rewriter, loc, i64,
                                        rewriter.getI64IntegerAttr(0));
  auto isNull = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq,
                                     addressI64, zero);
  Block *block = isNull->getBlock();
  Block *rest = rewriter.splitBlock(block, std::next(isNull->getIterator()));
  Block *failedBlock = rewriter.createBlock(rest);
  Value bytes = computeByteSize(alloc);
  LLVM::CallOp::create(rewriter, loc, outOfMemory,
                       ValueRange{frame->run, bytes, getLocationString(loc)});
  if (anchor == alloc) {
    Value noStatus = LLVM::ZeroOp::create(
        rewriter, loc, LLVM::LLVMPointerType::get(rewriter.getContext()));
    LLVM::StoreOp::create(rewriter, loc, noStatus, frame->statusSlot);
    LLVM::BrOp::create(rewriter, loc, ValueRange{}, frame->exit);
  } else {
    rewriter.clone(*regionEnd);
  }
  rewriter.setInsertionPointToEnd(block);
  LLVM::CondBrOp::create(rewriter, loc, isNull, failedBlock, ValueRange{}, rest,
                         ValueRange{});
  return anchor == alloc ? static_cast<Operation *>(nullptr) : anchor;
}

LogicalResult AllocationChecker::stopAfter(Operation *anchor) {
  FailureOr<HostCallFrame> frame =
      getOrCreateHostCallFrame(rewriter, anchor, 0, 0, converter);
  if (failed(frame))
    return failure();
  return stopIfRunFailed(rewriter, anchor, *frame);
}

LogicalResult nx::checkHeapAllocations(ModuleOp module,
                                       const LLVMTypeConverter &converter,
                                       llvm::SetVector<Operation *> &stopping) {
  SmallVector<memref::AllocOp> allocs;
  module.walk([&](memref::AllocOp alloc) {
    if (alloc->getParentOfType<FunctionOpInterface>())
      allocs.push_back(alloc);
  });
  if (allocs.empty())
    return success();
  OpBuilder builder(module.getContext());
  FailureOr<LLVM::LLVMFuncOp> outOfMemory =
      lookupOrCreateRuntimeFunction(builder, module, symbols::kOutOfMemory);
  if (failed(outOfMemory))
    return failure();
  AllocationChecker checker(module, converter, *outOfMemory);
  // From the last to the first, so that splitting blocks moves each op once.
  llvm::SetVector<Operation *> anchors;
  for (memref::AllocOp alloc : llvm::reverse(allocs)) {
    stopping.insert(alloc->getParentOfType<FunctionOpInterface>());
    FailureOr<Operation *> anchor = checker.check(alloc);
    if (failed(anchor))
      return failure();
    if (*anchor)
      anchors.insert(*anchor);
  }
  for (Operation *anchor : anchors)
    if (failed(checker.stopAfter(anchor)))
      return failure();
  return success();
}

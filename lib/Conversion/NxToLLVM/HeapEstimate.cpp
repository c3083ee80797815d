//===- HeapEstimate.cpp - the heap memory compiled code holds -------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "HeapEstimate.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <optional>

using namespace mlir;
using namespace mlir::nx;

namespace {

/// The bytes of a static-shaped allocation, saturated; nothing for a
/// dynamic shape.
std::optional<uint64_t> getStaticBytes(memref::AllocOp alloc) {
  MemRefType type = alloc.getType();
  if (!type.hasStaticShape())
    return std::nullopt;
  uint64_t bytes = DataLayout::closest(alloc)
                       .getTypeSize(type.getElementType())
                       .getFixedValue();
  for (int64_t dim : type.getShape())
    bytes = llvm::SaturatingMultiply(bytes, static_cast<uint64_t>(dim));
  return bytes;
}

/// The value a buffer is a view of: through views and the base buffer of
/// `memref.extract_strided_metadata`, an allocation, a call's result or an
/// argument.
Value getBufferRoot(Value buffer) {
  while (Operation *def = buffer.getDefiningOp()) {
    if (auto metadata = dyn_cast<memref::ExtractStridedMetadataOp>(def))
      buffer = metadata.getSource();
    else if (auto view = dyn_cast<ViewLikeOpInterface>(def))
      buffer = view.getViewSource();
    else
      break;
  }
  return buffer;
}

/// The heap a function holds at once while it runs, and what it hands to
/// its caller: the bytes of the buffers it allocated and returns, by result.
struct FunctionHeap {
  uint64_t peak = 0;
  SmallVector<uint64_t> returned;
};

/// Heaps of the module's functions, each computed once.
class HeapEstimator {
public:
  const FunctionHeap &getHeap(FunctionOpInterface func) {
    // A recursive call finds an empty heap: its buffers are counted once.
    auto [it, inserted] = heaps.try_emplace(func);
    if (!inserted)
      return it->second;
    FunctionHeap heap = computeHeap(func);
    return heaps[func] = std::move(heap);
  }

private:
  /// Buffers held now, by the value that names them.
  struct Held {
    llvm::DenseMap<Value, uint64_t> buffers;
    uint64_t bytes = 0;
    uint64_t peak = 0;

    void add(Value buffer, uint64_t size) {
      if (!size || !buffers.try_emplace(buffer, size).second)
        return;
      bytes = llvm::SaturatingAdd(bytes, size);
      peak = std::max(peak, bytes);
    }
    void release(Value buffer) {
      if (auto it = buffers.find(getBufferRoot(buffer)); it != buffers.end()) {
        bytes -= it->second;
        buffers.erase(it);
      }
    }
  };

  void addCall(CallOpInterface call, Held &held) {
    auto callee = dyn_cast_if_present<FunctionOpInterface>(
        call.resolveCallableInTable(&symbols));
    if (!callee)
      return;
    const FunctionHeap &heap = getHeap(callee);
    held.peak = std::max(held.peak, llvm::SaturatingAdd(held.bytes, heap.peak));
    for (auto [result, bytes] : llvm::zip(call->getResults(), heap.returned))
      held.add(result, bytes);
  }

  FunctionHeap computeHeap(FunctionOpInterface func) {
    Held held;
    FunctionHeap heap;
    func->walk<WalkOrder::PreOrder>([&](Operation *op) {
      // An unregistered op has no dialect.
      if (isa_and_present<omp::OpenMPDialect>(op->getDialect()) &&
          op->getNumRegions())
        return WalkResult::skip();
      if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
        if (std::optional<uint64_t> bytes = getStaticBytes(alloc))
          held.add(alloc.getResult(), *bytes);
      } else if (auto dealloc = dyn_cast<memref::DeallocOp>(op)) {
        held.release(dealloc.getMemref());
      } else if (auto call = dyn_cast<CallOpInterface>(op)) {
        addCall(call, held);
      } else if (op->hasTrait<OpTrait::ReturnLike>() &&
                 op->getParentOp() == func.getOperation()) {
        heap.returned.resize(op->getNumOperands(), 0);
        for (auto [i, value] : llvm::enumerate(op->getOperands()))
          if (auto it = held.buffers.find(getBufferRoot(value));
              it != held.buffers.end())
            heap.returned[i] = it->second;
      }
      return WalkResult::advance();
    });
    heap.peak = held.peak;
    return heap;
  }

  SymbolTableCollection symbols;
  llvm::DenseMap<Operation *, FunctionHeap> heaps;
};

} // namespace

uint64_t mlir::nx::estimatePeakHeapBytes(ModuleOp module) {
  HeapEstimator estimator;
  uint64_t peak = 0;
  for (auto func : module.getOps<FunctionOpInterface>())
    peak = std::max(peak, estimator.getHeap(func).peak);
  return peak;
}

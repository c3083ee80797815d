//===- HoistDeallocs.cpp - free buffers after their last use --------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Ownership-based deallocation frees at block ends; for buffers whose every
// use is visible (no aliases can leave the uses we see), the end of the
// block is merely the latest correct point, and the earliest one is right
// after the last use.
//
//===----------------------------------------------------------------------===//

#include "FreshAllocation.h"
#include "nx/Support/PassStatistics.h"
#include "nx/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

#define DEBUG_TYPE "nx-hoist-deallocs"

namespace mlir::nx {
#define GEN_PASS_DEF_NXHOISTDEALLOCSPASS
#include "nx/Transforms/Passes.h.inc"
} // namespace mlir::nx

using namespace mlir;

/// Whether `user` uses `buffer` without creating anything through which the
/// buffer could be reached after `user` ran.
static bool keepsNoAlias(Operation *user, Value buffer) {
  if (user->hasTrait<OpTrait::IsTerminator>() ||
      isa<memref::ExtractAlignedPointerAsIndexOp>(user))
    return false;
  if (auto store = dyn_cast<memref::StoreOp>(user))
    if (store.getValueToStore() == buffer)
      return false;
  // A memref result may be a view; a tensor result (bufferization.to_tensor)
  // may read the buffer whenever it is used.
  return llvm::none_of(user->getResultTypes(), [](Type type) {
    return isa<BaseMemRefType, TensorType>(type);
  });
}

/// The op `dealloc` may move right after, or null if it must stay.
static Operation *getEarliestPoint(bufferization::DeallocOp dealloc) {
  if (dealloc.getMemrefs().size() != 1 || !dealloc.getRetained().empty())
    return nullptr;
  Value buffer = dealloc.getMemrefs().front();
  Block *block = dealloc->getBlock();
  if (!nx::getAllocatingOp(buffer) || buffer.getParentBlock() != block)
    return nullptr;
  Operation *last = buffer.getDefiningOp();
  for (Operation *user : buffer.getUsers()) {
    if (user == dealloc)
      continue;
    Operation *ancestor = block->findAncestorOpInBlock(*user);
    if (!ancestor || !keepsNoAlias(user, buffer))
      return nullptr;
    if (last->isBeforeInBlock(ancestor))
      last = ancestor;
  }
  if (Operation *condition = dealloc.getConditions().front().getDefiningOp())
    if (condition->getBlock() == block && last->isBeforeInBlock(condition))
      last = condition;
  return last->getNextNode() == dealloc ? nullptr : last;
}

namespace {

struct NxHoistDeallocsPass final
    : nx::impl::NxHoistDeallocsPassBase<NxHoistDeallocsPass> {
  void runOnOperation() final {
    // Every position is found before anything moves: a move invalidates the
    // block's cached op order, and the next isBeforeInBlock would renumber
    // the whole block.
    SmallVector<std::pair<Operation *, Operation *>> moves;
    getOperation()->walk([&](bufferization::DeallocOp dealloc) {
      if (Operation *point = getEarliestPoint(dealloc))
        moves.emplace_back(dealloc, point);
    });
    for (auto [dealloc, point] : moves)
      dealloc->moveAfter(point);
    nx::addStatistic(numHoisted, moves.size());
    if (moves.empty())
      markAllAnalysesPreserved();
  }
};

} // namespace

#undef DEBUG_TYPE

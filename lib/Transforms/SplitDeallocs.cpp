//===- SplitDeallocs.cpp - one bufferization.dealloc per fresh buffer -----===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// ownership-based-buffer-deallocation frees all buffers of a block with one
// bufferization.dealloc, whose simplification is quadratic in its memrefs.
// Splitting off the fresh allocations first keeps the deallocation pipeline
// linear: an allocation cannot alias a value that existed before it ran, so
// dominance (an O(1) query within a block) replaces pairwise alias analysis.
//
//===----------------------------------------------------------------------===//

#include "FreshAllocation.h"
#include "nx/Support/PassStatistics.h"
#include "nx/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/IR/Dominance.h"

#include "llvm/ADT/DenseMap.h"

#define DEBUG_TYPE "nx-split-deallocs"

namespace mlir::nx {
#define GEN_PASS_DEF_NXSPLITDEALLOCSPASS
#include "nx/Transforms/Passes.h.inc"
} // namespace mlir::nx

using namespace mlir;
using mlir::nx::getAllocatingOp;

namespace {

/// One memref split off a dealloc, with the retained values (by index in
/// the original retain list) it may alias.
struct Piece {
  Value memref;
  Value condition;
  SmallVector<unsigned> retainedIndices;
};

} // namespace

/// Splits `dealloc`; returns whether anything changed. All dominance queries
/// are answered before the IR is touched, so the block's cached op order
/// stays valid across the whole dealloc (a mutation would invalidate it and
/// make the next query renumber the block).
static bool splitDealloc(bufferization::DeallocOp dealloc,
                         DominanceInfo &domInfo) {
  ValueRange memrefs = dealloc.getMemrefs();
  ValueRange conditions = dealloc.getConditions();
  ValueRange retained = dealloc.getRetained();

  llvm::SmallDenseMap<Value, unsigned, 16> occurrences;
  for (Value memref : memrefs)
    ++occurrences[memref];
  auto isSplittable = [&](Value memref) {
    return occurrences.lookup(memref) == 1 && getAllocatingOp(memref);
  };
  // Memrefs that are not fresh allocations must all precede an allocation
  // for it to be split off (a later value might be a view of it).
  SmallVector<Value> others;
  for (Value memref : memrefs)
    if (!isSplittable(memref))
      others.push_back(memref);

  SmallVector<Piece> pieces;
  SmallVector<Value> keptMemrefs, keptConditions;
  for (auto [memref, condition] : llvm::zip_equal(memrefs, conditions)) {
    Operation *alloc = isSplittable(memref) ? getAllocatingOp(memref) : nullptr;
    if (!alloc || llvm::any_of(others, [&](Value other) {
          return !domInfo.properlyDominates(other, alloc);
        })) {
      keptMemrefs.push_back(memref);
      keptConditions.push_back(condition);
      continue;
    }
    Piece piece{memref, condition, {}};
    for (auto [index, value] : llvm::enumerate(retained))
      if (!domInfo.properlyDominates(value, alloc))
        piece.retainedIndices.push_back(index);
    pieces.push_back(std::move(piece));
  }
  bool unchanged = pieces.empty() ||
                   (keptMemrefs.empty() && pieces.size() == 1 &&
                    pieces.front().retainedIndices.size() == retained.size());
  if (unchanged)
    return false;

  OpBuilder builder(dealloc);
  Location loc = dealloc.getLoc();
  // Per retained value, the ownership results to OR together.
  SmallVector<SmallVector<Value, 2>> ownership(retained.size());
  if (!keptMemrefs.empty()) {
    auto rest = bufferization::DeallocOp::create(builder, loc, keptMemrefs,
                                                 keptConditions, retained);
    for (auto [index, result] : llvm::enumerate(rest.getUpdatedConditions()))
      ownership[index].push_back(result);
  }
  for (const Piece &piece : pieces) {
    SmallVector<Value> pieceRetained;
    for (unsigned index : piece.retainedIndices)
      pieceRetained.push_back(retained[index]);
    auto split = bufferization::DeallocOp::create(
        builder, loc, piece.memref, piece.condition, pieceRetained);
    for (auto [index, result] :
         llvm::zip_equal(piece.retainedIndices, split.getUpdatedConditions()))
      ownership[index].push_back(result);
  }

  SmallVector<Value> replacements;
  for (ArrayRef<Value> parts : ownership) {
    Value combined;
    for (Value part : parts)
      combined =
          combined ? arith::OrIOp::create(builder, loc, combined, part) : part;
    // Nothing left that could alias this retained value: no ownership.
    if (!combined)
      combined =
          arith::ConstantOp::create(builder, loc, builder.getBoolAttr(false));
    replacements.push_back(combined);
  }
  dealloc->replaceAllUsesWith(replacements);
  dealloc->erase();
  return true;
}

namespace {

struct NxSplitDeallocsPass final
    : nx::impl::NxSplitDeallocsPassBase<NxSplitDeallocsPass> {
  void runOnOperation() final {
    SmallVector<bufferization::DeallocOp> deallocs;
    getOperation()->walk(
        [&](bufferization::DeallocOp op) { deallocs.push_back(op); });
    DominanceInfo &domInfo = getAnalysis<DominanceInfo>();
    bool changed = false;
    for (bufferization::DeallocOp dealloc : deallocs)
      changed |= splitDealloc(dealloc, domInfo);
    if (!changed)
      markAllAnalysesPreserved();
  }
};

} // namespace

#undef DEBUG_TYPE

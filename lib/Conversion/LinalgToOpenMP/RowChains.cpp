//===- RowChains.cpp - a run of row-wise ops in one OpenMP team -----------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "nx/Conversion/LinalgToOpenMP/RowChains.h"
#include "nx/Conversion/LinalgToOpenMP/OpenMPTeam.h"
#include "nx/Support/Buffers.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using mlir::nx::getRootBuffer;

namespace {

/// The extent of an op's loop 0, or of a buffer's dimension 0: `size` when
/// static; otherwise dimension `dim` of `shaped`, to compare at compile
/// time (haveSameRows).
struct RowExtent {
  int64_t size;
  Value shaped;
  int64_t dim;
};

/// A run of ops that one team may share along their rows.
struct RowChain {
  /// The linalg ops, in order.
  SmallVector<linalg::LinalgOp> ops;
  /// Allocations and side-effect free ops between them, which move before
  /// the team, in order.
  SmallVector<Operation *> hoisted;
  /// Deallocations between them, which move after the team, in order.
  SmallVector<Operation *> deallocs;
  /// The extent of every op's loop 0.
  RowExtent rows;
};

} // namespace

/// The extent of `op`'s loop 0, read from the first operand dimension that
/// loop 0 indexes alone; none when no operand has one.
static std::optional<RowExtent> getRows(linalg::LinalgOp op) {
  AffineExpr row = getAffineDimExpr(0, op.getContext());
  for (OpOperand &operand : op->getOpOperands()) {
    if (!isa<ShapedType>(operand.get().getType()))
      continue;
    for (auto [position, expr] :
         llvm::enumerate(op.getMatchingIndexingMap(&operand).getResults()))
      if (expr == row)
        return RowExtent{op.getStaticLoopRanges().front(), operand.get(),
                         static_cast<int64_t>(position)};
  }
  return std::nullopt;
}

/// Whether `a` and `b` are the same number of rows: equal static sizes, or
/// dynamic ones that upstream's value bounds prove equal (the dimensions of
/// an allocation and of the buffer its sizes were read from).
static bool haveSameRows(const RowExtent &a, const RowExtent &b) {
  if (!ShapedType::isDynamic(a.size) || !ShapedType::isDynamic(b.size))
    return a.size == b.size;
  FailureOr<bool> equal =
      ValueBoundsConstraintSet::areEqual({a.shaped, a.dim}, {b.shaped, b.dim});
  return succeeded(equal) && *equal;
}

/// Whether `op` may join a chain: `rules` say so, and its loop 0 has an
/// extent other than 1, read from an operand when dynamic.
static bool mayJoin(linalg::LinalgOp op, const nx::RowChainRules &rules) {
  if (!op.hasPureBufferSemantics() || op.getNumLoops() == 0 ||
      !rules.mayJoin(op))
    return false;
  std::optional<RowExtent> rows = getRows(op);
  return rows && rows->size != 1;
}

/// Whether `view`, whose dimension 0 and its source's have the same extent,
/// maps row r of its own to row r of its source: a reshape or a cast (any
/// other dimension in the group of dimension 0 then has extent 1), or a
/// subview that keeps dimension 0 (it then has all of its rows). Not a
/// reinterpret_cast, whose strides may walk other rows (but see
/// getRowKeepingSource), nor a subview that drops dimension 0, whose rows
/// are the source's next dimension.
static bool keepsRows(Operation *view) {
  if (isa<memref::ExpandShapeOp, memref::CollapseShapeOp, memref::CastOp>(view))
    return true;
  auto subview = dyn_cast<memref::SubViewOp>(view);
  return subview && !subview.getDroppedDims().test(0);
}

/// The buffer `cast` reinterprets, when row r of `cast` lies in row r of
/// it: `cast` is a reinterpret_cast of the base of a buffer of contiguous
/// rows (an identity layout) with the same rows and row stride, whose row 0
/// stays within the buffer's row 0 (nx-reversed-views's views of negated
/// inner strides). Null otherwise.
static Value getRowKeepingSource(memref::ReinterpretCastOp cast) {
  auto metadata =
      cast.getSource().getDefiningOp<memref::ExtractStridedMetadataOp>();
  if (!metadata || metadata.getBaseBuffer() != cast.getSource())
    return nullptr;
  MemRefType source = metadata.getSource().getType();
  MemRefType type = cast.getType();
  SmallVector<int64_t> strides, sourceStrides;
  int64_t offset, sourceOffset;
  if (!source.getLayout().isIdentity() || !source.hasStaticShape() ||
      !type.hasStaticShape() || type.getRank() != source.getRank() ||
      type.getDimSize(0) != source.getDimSize(0) ||
      failed(type.getStridesAndOffset(strides, offset)) ||
      failed(source.getStridesAndOffset(sourceStrides, sourceOffset)) ||
      ShapedType::isDynamic(offset) ||
      llvm::any_of(strides, [](int64_t s) { return ShapedType::isDynamic(s); }))
    return nullptr;
  if (strides[0] != sourceStrides[0])
    return nullptr;
  // Row 0's elements lie between offset + the negative strides' reach and
  // offset + the positive ones' (in int64: a cast may state any strides).
  int64_t least = offset, greatest = offset;
  for (int64_t dim = 1; dim < type.getRank(); ++dim) {
    std::optional<int64_t> reach =
        llvm::checkedMul(strides[dim], type.getDimSize(dim) - 1);
    int64_t &bound = reach && *reach < 0 ? least : greatest;
    std::optional<int64_t> moved =
        reach ? llvm::checkedAdd(bound, *reach) : std::nullopt;
    if (!moved)
      return nullptr;
    bound = *moved;
  }
  if (least < sourceOffset || greatest >= sourceOffset + sourceStrides[0])
    return nullptr;
  return metadata.getSource();
}

/// Whether row r of `value`, a buffer of `rows` rows, is row r of the buffer
/// it is carved from, through every view in between.
static bool isRowView(Value value, const RowExtent &rows) {
  while (true) {
    auto type = dyn_cast<MemRefType>(value.getType());
    if (!type || type.getRank() == 0 ||
        !haveSameRows({type.getDimSize(0), value, 0}, rows))
      return false;
    if (auto cast = value.getDefiningOp<memref::ReinterpretCastOp>()) {
      value = getRowKeepingSource(cast);
      if (!value)
        return false;
      continue;
    }
    auto view = value.getDefiningOp<ViewLikeOpInterface>();
    if (!view)
      return true;
    if (!keepsRows(view))
      return false;
    value = view.getViewSource();
  }
}

/// Whether `root`, the root of a buffer no op of a chain writes, is no view
/// of one that an op does write: an argument of the function, an allocation
/// of its own or a global. Anything else (a `memref.transpose`, which is no
/// view-like op, or a call's result) may be a view of anything.
static bool isDistinctBuffer(Value root) {
  if (auto argument = dyn_cast<BlockArgument>(root)) {
    Operation *owner = argument.getOwner()->getParentOp();
    return isa_and_present<FunctionOpInterface>(owner) &&
           argument.getOwner()->isEntryBlock();
  }
  return root.getDefiningOp<memref::AllocOp>() ||
         root.getDefiningOp<memref::AllocaOp>() ||
         root.getDefiningOp<memref::GetGlobalOp>();
}

/// Whether each tile of rows may run every op of `ops` on its own rows: the
/// buffers they write are fresh allocations, every access to them indexes
/// dimension 0 of the buffer by loop 0, and every other buffer they read is
/// distinct from them.
static bool areRowLocal(ArrayRef<linalg::LinalgOp> ops, const RowExtent &rows) {
  llvm::SmallDenseSet<Value> written;
  for (linalg::LinalgOp op : ops)
    for (Value init : op.getDpsInits()) {
      Value root = getRootBuffer(init);
      if (!root.getDefiningOp<memref::AllocOp>() &&
          !root.getDefiningOp<memref::AllocaOp>())
        return false;
      written.insert(root);
    }
  for (linalg::LinalgOp op : ops)
    for (OpOperand &operand : op->getOpOperands()) {
      Value root = getRootBuffer(operand.get());
      if (!written.contains(root)) {
        if (isa<MemRefType>(root.getType()) && !isDistinctBuffer(root))
          return false;
        continue;
      }
      AffineMap map = op.getMatchingIndexingMap(&operand);
      if (map.getNumResults() == 0 ||
          map.getResult(0) != getAffineDimExpr(0, op.getContext()) ||
          !isRowView(operand.get(), rows))
        return false;
    }
  return true;
}

/// Whether `op` may move before the team, ahead of the chain ops before it:
/// an allocation, or an op without regions or side effects, whose operands
/// are defined before the chain starts or by ops moved already.
static bool isHoistable(Operation *op, Operation *start,
                        const llvm::SmallPtrSetImpl<Operation *> &hoisted) {
  bool allocates = isa<memref::AllocOp, memref::AllocaOp>(op);
  if (!allocates && (op->getNumRegions() != 0 || !isMemoryEffectFree(op)))
    return false;
  return llvm::all_of(op->getOperands(), [&](Value operand) {
    // A block argument is defined before every op of its block.
    Operation *definition = operand.getDefiningOp();
    return !definition || hoisted.contains(definition) ||
           definition->getBlock() != start->getBlock() ||
           definition->isBeforeInBlock(start);
  });
}

/// The longest chain that starts at `start` (empty when `start` cannot
/// start one): it ends at its last linalg op.
static RowChain growChain(Operation *start, const nx::RowChainRules &rules) {
  RowChain chain;
  auto lead = dyn_cast<linalg::LinalgOp>(start);
  if (!lead || !mayJoin(lead, rules))
    return chain;
  chain.rows = *getRows(lead);
  chain.ops.push_back(lead);
  SmallVector<Operation *> hoisted, deallocs;
  llvm::SmallPtrSet<Operation *, 8> hoistedSet;
  for (Operation *op = start->getNextNode(); op; op = op->getNextNode()) {
    if (isa<memref::DeallocOp>(op)) {
      deallocs.push_back(op);
      continue;
    }
    if (isHoistable(op, start, hoistedSet)) {
      hoisted.push_back(op);
      hoistedSet.insert(op);
      continue;
    }
    auto next = dyn_cast<linalg::LinalgOp>(op);
    if (!next || !mayJoin(next, rules) ||
        !haveSameRows(*getRows(next), chain.rows))
      break;
    chain.ops.push_back(next);
    if (!areRowLocal(chain.ops, chain.rows)) {
      chain.ops.pop_back();
      break;
    }
    // What stands between the chain's ops belongs to it; what follows its
    // last op stays where it is.
    chain.hoisted.append(hoisted);
    chain.deallocs.append(deallocs);
    hoisted.clear();
    deallocs.clear();
  }
  // A chain of the lead alone is no chain (isWorthSharing): each op added
  // was checked with those before it.
  return chain;
}

/// Whether an extent of `chain`'s loops is dynamic: its team then checks
/// its points against `minWork` at run time.
static bool hasDynamicLoops(const RowChain &chain) {
  return llvm::any_of(chain.ops, [](linalg::LinalgOp op) {
    return llvm::any_of(op.getStaticLoopRanges(), ShapedType::isDynamic);
  });
}

/// Whether sharing `chain` in one team saves a team and covers `minWork`
/// points, or may at run time when its sizes are dynamic.
static bool isWorthSharing(const RowChain &chain, int64_t minWork,
                           const nx::RowChainRules &rules) {
  if (llvm::count_if(chain.ops, rules.formsOwnTeam) < 2)
    return false;
  if (hasDynamicLoops(chain))
    return true;
  int64_t points = 0;
  for (linalg::LinalgOp op : chain.ops) {
    int64_t opPoints = 1;
    for (int64_t range : op.getStaticLoopRanges())
      opPoints *= range;
    points += opPoints;
    if (points >= minWork)
      return true;
  }
  return false;
}

/// Replaces `chain` by one team whose tiles run each of its ops on their
/// rows.
static LogicalResult rewriteChain(RowChain &chain, int64_t minWork,
                                  StringRef numThreadsFunction,
                                  const nx::RowChainRules &rules,
                                  RewriterBase &rewriter) {
  Operation *first = chain.ops.front();
  Operation *last = chain.ops.back();
  for (Operation *op : chain.hoisted)
    rewriter.moveOpBefore(op, first);
  for (Operation *op : llvm::reverse(chain.deallocs))
    rewriter.moveOpAfter(op, last);

  int64_t rowsPerTile = rules.getRowsPerTile(chain.ops);
  Location loc = first->getLoc();
  rewriter.setInsertionPoint(first);
  // A chain of dynamic sizes runs on one thread when its ops' points, all
  // of them together, come short of `minWork` at run time.
  Value ifExpr;
  if (hasDynamicLoops(chain)) {
    Value points = arith::ConstantIndexOp::create(rewriter, loc, 0);
    for (linalg::LinalgOp op : chain.ops)
      points = rewriter.createOrFold<arith::AddIOp>(
          loc, points,
          nx::countPoints(op.createLoopRanges(rewriter, loc), loc, rewriter));
    Value threshold = arith::ConstantIndexOp::create(rewriter, loc, minWork);
    ifExpr = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::sge,
                                   points, threshold);
  }
  Value numThreads;
  if (!numThreadsFunction.empty())
    numThreads = nx::callNumThreadsFunction(rewriter, loc, numThreadsFunction);
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value rows =
      ShapedType::isDynamic(chain.rows.size)
          ? rewriter.createOrFold<memref::DimOp>(loc, chain.rows.shaped,
                                                 chain.rows.dim)
          : arith::ConstantIndexOp::create(rewriter, loc, chain.rows.size);
  Value step = arith::ConstantIndexOp::create(rewriter, loc, rowsPerTile);
  Block *body =
      nx::createTeamLoop(rewriter, loc, ifExpr, numThreads, zero, rows, step);
  Value firstRow = body->getArgument(0);
  for (linalg::LinalgOp op : chain.ops)
    if (failed(nx::tileRows(op, /*sharedLoop=*/0, firstRow, rowsPerTile,
                            rewriter, /*lastTileMayBeShort=*/true)))
      return op->emitOpError("could not be tiled along its rows");
  omp::YieldOp::create(rewriter, loc, ValueRange());
  for (linalg::LinalgOp op : chain.ops)
    rewriter.eraseOp(op);
  return success();
}

/// Whether some `memref.dim` or `tensor.dim` under `root` reads a dimension
/// its operand does not have, which is undefined behavior: upstream's value
/// bounds, which haveSameRows asks, crash on it (found by fuzzing).
static bool readsMissingDimension(Operation *root) {
  auto isMissing = [](std::optional<int64_t> index, Type type) {
    auto shaped = dyn_cast<ShapedType>(type);
    return index && shaped && shaped.hasRank() &&
           (*index < 0 || *index >= shaped.getRank());
  };
  WalkResult result = root->walk([&](Operation *op) {
    bool missing = false;
    if (auto dim = dyn_cast<memref::DimOp>(op))
      missing = isMissing(dim.getConstantIndex(), dim.getSource().getType());
    else if (auto dim = dyn_cast<tensor::DimOp>(op))
      missing = isMissing(dim.getConstantIndex(), dim.getSource().getType());
    return missing ? WalkResult::interrupt() : WalkResult::advance();
  });
  return result.wasInterrupted();
}

FailureOr<int64_t> nx::shareRowChains(Operation *root, int64_t minWork,
                                      StringRef numThreadsFunction,
                                      const RowChainRules &rules,
                                      RewriterBase &rewriter) {
  if (readsMissingDimension(root))
    return 0;
  // Chains are found first and rewritten after: a rewrite moves ops of the
  // block the search walks.
  SmallVector<RowChain> chains;
  root->walk([&](Block *block) {
    if (block->getParentOp()->getParentOfType<omp::ParallelOp>() ||
        isa<omp::ParallelOp>(block->getParentOp()))
      return;
    for (Operation *op = block->empty() ? nullptr : &block->front(); op;) {
      RowChain chain = growChain(op, rules);
      if (!isWorthSharing(chain, minWork, rules)) {
        op = op->getNextNode();
        continue;
      }
      op = chain.ops.back()->getNextNode();
      chains.push_back(std::move(chain));
    }
  });
  for (RowChain &chain : chains)
    if (failed(
            rewriteChain(chain, minWork, numThreadsFunction, rules, rewriter)))
      return failure();
  return static_cast<int64_t>(chains.size());
}

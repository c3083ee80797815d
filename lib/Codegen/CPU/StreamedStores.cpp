//===- StreamedStores.cpp - non-temporal writes of unread outputs ---------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A streamed store must be aligned to its vector (MOVNTPS faults
// otherwise, so LLVM falls back to an ordinary store when it cannot tell),
// and nothing may read the buffer before the function returns. x86 orders
// non-temporal stores with other threads' later loads only through a
// fence or a locked instruction, and a host may hand a result to another
// thread with a plain release store: each thread's code that streamed
// ends with a sequentially consistent fence (MFENCE): once per loop nest
// of at least 4 MiB of output, and in a team once per thread, after its
// share of the iterations.
//
//===----------------------------------------------------------------------===//

#include "StreamedStores.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include "llvm/ADT/SetVector.h"

using namespace mlir;

/// Whether `value`, an index, is provably a multiple of `factor`: a
/// constant, a loop induction variable whose start and step are, or a sum
/// (through `arith.addi` or an affine map of sums and constant multiples)
/// of such values.
static bool isMultipleOf(Value value, int64_t factor, unsigned depth = 0);

static bool isAffineMultipleOf(AffineExpr expr, ValueRange dims,
                               ValueRange symbols, int64_t factor,
                               unsigned depth) {
  if (auto constant = dyn_cast<AffineConstantExpr>(expr))
    return constant.getValue() % factor == 0;
  if (auto dim = dyn_cast<AffineDimExpr>(expr))
    return isMultipleOf(dims[dim.getPosition()], factor, depth);
  if (auto symbol = dyn_cast<AffineSymbolExpr>(expr))
    return isMultipleOf(symbols[symbol.getPosition()], factor, depth);
  auto binary = cast<AffineBinaryOpExpr>(expr);
  auto operand = [&](AffineExpr e) {
    return isAffineMultipleOf(e, dims, symbols, factor, depth);
  };
  switch (expr.getKind()) {
  case AffineExprKind::Add:
    return operand(binary.getLHS()) && operand(binary.getRHS());
  case AffineExprKind::Mul:
    return operand(binary.getLHS()) || operand(binary.getRHS());
  default:
    return false;
  }
}

static bool isInductionMultipleOf(BlockArgument iv, int64_t factor,
                                  unsigned depth) {
  Operation *owner = iv.getOwner()->getParentOp();
  if (auto loop = dyn_cast<scf::ForOp>(owner))
    return iv == loop.getInductionVar() &&
           isMultipleOf(loop.getLowerBound(), factor, depth) &&
           isMultipleOf(loop.getStep(), factor, depth);
  if (auto nest = dyn_cast<omp::LoopNestOp>(owner)) {
    unsigned dim = iv.getArgNumber();
    return isMultipleOf(nest.getLoopLowerBounds()[dim], factor, depth) &&
           isMultipleOf(nest.getLoopSteps()[dim], factor, depth);
  }
  return false;
}

static bool isMultipleOf(Value value, int64_t factor, unsigned depth) {
  // Index expressions of tiled loops are shallow; the bound keeps a
  // pathological chain from recursing without end.
  if (++depth > 16)
    return false;
  if (std::optional<int64_t> constant = getConstantIntValue(value))
    return *constant % factor == 0;
  if (auto iv = dyn_cast<BlockArgument>(value))
    return isInductionMultipleOf(iv, factor, depth);
  if (auto add = value.getDefiningOp<arith::AddIOp>())
    return isMultipleOf(add.getLhs(), factor, depth) &&
           isMultipleOf(add.getRhs(), factor, depth);
  if (auto apply = value.getDefiningOp<affine::AffineApplyOp>()) {
    AffineMap map = apply.getAffineMap();
    return isAffineMultipleOf(map.getResult(0), apply.getDimOperands(),
                              apply.getSymbolOperands(), factor, depth);
  }
  return false;
}

/// Whether every use of `buffer` (through views) only writes it, returns it
/// or frees it.
static bool isOnlyWrittenOrReturned(Value buffer) {
  for (Operation *user : buffer.getUsers()) {
    // The stores of writes streamed before are writes too.
    if (auto write = dyn_cast<vector::TransferWriteOp>(user)) {
      if (write.getBase() != buffer)
        return false;
      continue;
    }
    if (auto store = dyn_cast<vector::StoreOp>(user)) {
      if (store.getBase() != buffer)
        return false;
      continue;
    }
    if (auto view = dyn_cast<ViewLikeOpInterface>(user)) {
      if (view.getViewSource() != buffer)
        return false;
      for (Value result : user->getResults())
        if (!isOnlyWrittenOrReturned(result))
          return false;
      continue;
    }
    if (!isa<func::ReturnOp, memref::DeallocOp>(user))
      return false;
  }
  return true;
}

/// Whether `buffer` is an output that nothing reads before its function
/// returns it to the host: an allocation of a public function, of at least
/// kStreamedOutputBytes, aligned to at least `alignment` bytes, with rows
/// whose length is a multiple of `rowElements`.
static bool isUnreadOutput(Value buffer, int64_t alignment,
                           int64_t rowElements) {
  auto alloc = buffer.getDefiningOp<memref::AllocOp>();
  if (!alloc || !alloc.getType().hasStaticShape() ||
      !alloc.getType().getLayout().isIdentity() ||
      alloc.getAlignment().value_or(0) < static_cast<uint64_t>(alignment))
    return false;
  MemRefType type = alloc.getType();
  if (type.getRank() < 1 || type.getShape().back() % rowElements != 0 ||
      !type.getElementType().isIntOrFloat())
    return false;
  int64_t bytes = type.getNumElements() *
                  (type.getElementType().getIntOrFloatBitWidth() / 8);
  auto function = alloc->getParentOfType<func::FuncOp>();
  return bytes >= nx::kStreamedOutputBytes && function && function.isPublic() &&
         isOnlyWrittenOrReturned(buffer);
}

/// The write's rows as aligned non-temporal stores, the last of which it
/// returns, or failure when the write is not one of a whole 1-D or 2-D
/// vector (a copy's or an elementwise op's row, a transpose's square) at
/// an aligned column of an unread output.
static FailureOr<Operation *> streamWrite(RewriterBase &rewriter,
                                          vector::TransferWriteOp write) {
  VectorType vectorType = write.getVectorType();
  int64_t rank = vectorType.getRank();
  if ((rank != 1 && rank != 2) || vectorType.isScalable() || write.getMask() ||
      !write.getPermutationMap().isMinorIdentity() ||
      llvm::any_of(write.getInBoundsValues(), [](bool in) { return !in; }))
    return failure();
  int64_t rowElements = vectorType.getShape().back();
  unsigned elementBits = vectorType.getElementType().getIntOrFloatBitWidth();
  if (elementBits % 8 != 0)
    return failure();
  int64_t rowBytes = rowElements * (elementBits / 8);
  if (!llvm::isPowerOf2_64(rowBytes))
    return failure();
  ValueRange indices = write.getIndices();
  if (!isUnreadOutput(write.getBase(), rowBytes, rowElements) ||
      !isMultipleOf(indices.back(), rowElements))
    return failure();
  Location loc = write.getLoc();
  rewriter.setInsertionPoint(write);
  if (rank == 1) {
    Operation *store = vector::StoreOp::create(
        rewriter, loc, write.getVector(), write.getBase(), indices,
        /*nontemporal=*/true, llvm::Align(rowBytes));
    rewriter.eraseOp(write);
    return store;
  }
  unsigned rowDim = indices.size() - 2;
  Operation *last = nullptr;
  for (int64_t row = 0; row < vectorType.getShape().front(); ++row) {
    SmallVector<Value> rowIndices(indices);
    Value offset = arith::ConstantIndexOp::create(rewriter, loc, row);
    rowIndices[rowDim] =
        arith::AddIOp::create(rewriter, loc, indices[rowDim], offset);
    Value values = vector::ExtractOp::create(rewriter, loc, write.getVector(),
                                             ArrayRef<int64_t>{row});
    last = vector::StoreOp::create(rewriter, loc, values, write.getBase(),
                                   rowIndices, /*nontemporal=*/true,
                                   llvm::Align(rowBytes));
  }
  rewriter.eraseOp(write);
  return last;
}

/// The op after which the thread that runs `op` has finished its streamed
/// writes: the outermost op around `op` below the function or the team, or,
/// in an OpenMP loop nest, the nest's outermost wrapper (omp.wsloop), so that
/// a thread fences once after all its iterations, not once per iteration (a
/// row chain's tiles of four rows each made two fences, 16% of a
/// concatenation's time).
static Operation *getOutermostInThread(Operation *op) {
  while (Operation *parent = op->getParentOp()) {
    if (isa<func::FuncOp, omp::ParallelOp>(parent))
      return op;
    if (isa<omp::LoopNestOp>(parent)) {
      while (isa_and_nonnull<omp::LoopWrapperInterface>(parent->getParentOp()))
        parent = parent->getParentOp();
      return parent;
    }
    op = parent;
  }
  return op;
}

int64_t nx::streamUnreadOutputWrites(RewriterBase &rewriter, Operation *root) {
  SmallVector<vector::TransferWriteOp> writes;
  root->walk([&](vector::TransferWriteOp write) { writes.push_back(write); });
  int64_t streamed = 0;
  llvm::SetVector<Operation *> fenced;
  for (vector::TransferWriteOp write : writes) {
    Operation *outermost = getOutermostInThread(write);
    bool inLoop = outermost != write.getOperation();
    FailureOr<Operation *> last = streamWrite(rewriter, write);
    if (failed(last))
      continue;
    ++streamed;
    fenced.insert(inLoop ? outermost : *last);
  }
  for (Operation *nest : fenced) {
    rewriter.setInsertionPointAfter(nest);
    LLVM::FenceOp::create(rewriter, nest->getLoc(),
                          LLVM::AtomicOrdering::seq_cst);
  }
  return streamed;
}

//===- VectorShape.h - vector widths the passes share -----------*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// nx-split-reductions and nx-vectorize-linalg must agree on how many lanes
// an op's vectors have and on which ops read their innermost loop
// contiguously: the first shapes reductions for the second.
//
//===----------------------------------------------------------------------===//

#ifndef NX_LIB_CODEGEN_CPU_VECTORSHAPE_H
#define NX_LIB_CODEGEN_CPU_VECTORSHAPE_H

#include "nx/Support/PassOptions.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <optional>

namespace mlir::nx {

/// Independent vector accumulators a reduction keeps: enough to cover the
/// latency of a floating-point add on current x86-64 and AArch64 cores.
/// nx-split-reductions makes this many partial vectors, and
/// nx-vectorize-linalg unrolls a tile loop of at most this many tiles so
/// they stay in registers.
inline constexpr int64_t kVectorAccumulators = 4;

/// The widest `vector-bits` the passes take: twice the widest vector
/// registers (SVE's 2048 bits). Wider ones only make tiles whose sizes
/// overflow (vector-bits=2^63-2 did, found by fuzzing).
inline constexpr int64_t kMaxVectorBits = 4096;

/// Fails, reporting at `op`, unless the `vector-bits` option both passes
/// take is within [16, kMaxVectorBits] bits, and so is
/// `reduction-vector-bits` where it is not 0 (the same as `vector-bits`).
template <typename VectorBitsOption, typename ReductionBitsOption>
LogicalResult checkVectorBitsOptions(Operation *op, StringRef pass,
                                     const VectorBitsOption &vectorBits,
                                     const ReductionBitsOption &reductionBits) {
  if (failed(checkPassOptionAtLeast(op, pass, vectorBits, 16)) ||
      failed(checkPassOptionAtMost(op, pass, vectorBits, kMaxVectorBits)))
    return failure();
  if (reductionBits == 0)
    return success();
  if (failed(checkPassOptionAtLeast(op, pass, reductionBits, 16)))
    return failure();
  return checkPassOptionAtMost(op, pass, reductionBits, kMaxVectorBits);
}

/// Elements of the widest operand type that fit `vectorBits`, or nothing when
/// an operand's element type is no integer or float of 8 to 64 bits (i1
/// buffers hold a byte per element, which a vector of i1 does not) or fewer
/// than two fit.
inline std::optional<int64_t> getVectorLanes(linalg::LinalgOp op,
                                             int64_t vectorBits) {
  unsigned widest = 0;
  for (Value operand : op->getOperands()) {
    Type element = getElementTypeOrSelf(operand.getType());
    if (!element.isIntOrFloat())
      return std::nullopt;
    unsigned width = element.getIntOrFloatBitWidth();
    if (width < 8 || width > 64 || width % 8 != 0)
      return std::nullopt;
    widest = std::max(widest, width);
  }
  if (widest == 0 || vectorBits / widest < 2)
    return std::nullopt;
  return vectorBits / widest;
}

/// Whether `op` is a reduction that only combines what it reads (a sum, a
/// maximum): its body is one operation of its two block arguments, yielded.
/// Such a loop does a single operation per element loaded, so its loads
/// bound it.
inline bool isCombineOnlyReduction(linalg::LinalgOp op) {
  if (op.getNumReductionLoops() == 0 || op.getNumDpsInputs() != 1 ||
      op.getNumDpsInits() != 1)
    return false;
  Block *body = op.getBlock();
  if (!llvm::hasSingleElement(body->without_terminator()))
    return false;
  Operation &combiner = body->front();
  return combiner.getNumOperands() == 2 && combiner.getNumResults() == 1 &&
         llvm::all_of(combiner.getOperands(),
                      [&](Value v) {
                        auto arg = dyn_cast<BlockArgument>(v);
                        return arg && arg.getOwner() == body;
                      }) &&
         body->getTerminator()->getNumOperands() == 1 &&
         body->getTerminator()->getOperand(0) == combiner.getResult(0);
}

/// The vector width for `op`: `reductionVectorBits` (unless 0) for a
/// reduction that only combines what it reads, `vectorBits` otherwise.
inline int64_t getVectorBitsFor(linalg::LinalgOp op, int64_t vectorBits,
                                int64_t reductionVectorBits) {
  return reductionVectorBits != 0 && isCombineOnlyReduction(op)
             ? reductionVectorBits
             : vectorBits;
}

/// Whether every operand that reads `op`'s innermost loop reads it as its
/// innermost dimension, so consecutive iterations touch consecutive
/// elements. `op`'s maps must be projected permutations.
inline bool readsInnermostLoopContiguously(linalg::LinalgOp op) {
  AffineExpr innermost =
      getAffineDimExpr(op.getNumLoops() - 1, op.getContext());
  for (OpOperand &operand : op->getOpOperands()) {
    AffineMap map = op.getMatchingIndexingMap(&operand);
    std::optional<unsigned> position = map.getResultPosition(innermost);
    if (position && *position != map.getNumResults() - 1)
      return false;
  }
  return true;
}

} // namespace mlir::nx

#endif // NX_LIB_CODEGEN_CPU_VECTORSHAPE_H

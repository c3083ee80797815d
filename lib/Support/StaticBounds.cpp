//===- StaticBounds.cpp - accesses that static sizes prove out of bounds --===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "nx/Support/StaticBounds.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;

/// Producers a size is looked through, at most this many: SSA chains of
/// casts are acyclic, but graph regions need not be.
static constexpr int kMaxLookThrough = 64;

/// The size of `value`'s dimension `dim` when its type has it, or when it
/// comes from a cast of a value that has it, an allocation of a constant
/// size, or the init of a destination-style op: the sizes canonicalization
/// makes static.
static std::optional<int64_t> knownSize(Value value, int64_t dim) {
  for (int step = 0; step < kMaxLookThrough; ++step) {
    auto type = cast<ShapedType>(value.getType());
    if (!type.isDynamicDim(dim))
      return type.getDimSize(dim);
    Operation *producer = value.getDefiningOp();
    if (auto tensorCast = dyn_cast_if_present<tensor::CastOp>(producer)) {
      value = tensorCast.getSource();
    } else if (auto memrefCast =
                   dyn_cast_if_present<memref::CastOp>(producer)) {
      value = memrefCast.getSource();
    } else if (auto empty = dyn_cast_if_present<tensor::EmptyOp>(producer)) {
      return getConstantIntValue(empty.getMixedSizes()[dim]);
    } else if (auto alloc = dyn_cast_if_present<memref::AllocOp>(producer)) {
      return getConstantIntValue(alloc.getMixedSizes()[dim]);
    } else if (auto dps =
                   dyn_cast_if_present<DestinationStyleOpInterface>(producer)) {
      OpOperand *init = dps.getTiedOpOperand(cast<OpResult>(value));
      if (!init || !isa<ShapedType>(init->get().getType()))
        return std::nullopt;
      value = init->get();
    } else {
      return std::nullopt;
    }
  }
  return std::nullopt;
}

namespace {
/// An index expression as `constant + sum(coefficients[d] * d)` over the
/// loops `d`; expressions that are not linear in the loops (divisions,
/// modulos, symbols) have none.
struct LinearIndex {
  SmallVector<int64_t> coefficients;
  int64_t constant = 0;
};

enum class Flattening { Linear, NotLinear, Overflow };
} // namespace

static Flattening flatten(AffineExpr expr, int64_t scale, LinearIndex &index) {
  if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
    std::optional<int64_t> sum =
        llvm::checkedAdd(index.coefficients[dim.getPosition()], scale);
    if (!sum)
      return Flattening::Overflow;
    index.coefficients[dim.getPosition()] = *sum;
    return Flattening::Linear;
  }
  if (auto constant = dyn_cast<AffineConstantExpr>(expr)) {
    std::optional<int64_t> sum =
        llvm::checkedMulAdd(constant.getValue(), scale, index.constant);
    if (!sum)
      return Flattening::Overflow;
    index.constant = *sum;
    return Flattening::Linear;
  }
  auto binary = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!binary)
    return Flattening::NotLinear;
  if (binary.getKind() == AffineExprKind::Add) {
    Flattening lhs = flatten(binary.getLHS(), scale, index);
    if (lhs != Flattening::Linear)
      return lhs;
    return flatten(binary.getRHS(), scale, index);
  }
  if (binary.getKind() != AffineExprKind::Mul)
    return Flattening::NotLinear;
  AffineExpr factor = binary.getRHS(), term = binary.getLHS();
  if (!isa<AffineConstantExpr>(factor))
    std::swap(factor, term);
  auto constant = dyn_cast<AffineConstantExpr>(factor);
  if (!constant)
    return Flattening::NotLinear;
  std::optional<int64_t> product = llvm::checkedMul(scale, constant.getValue());
  if (!product)
    return Flattening::Overflow;
  return flatten(term, *product, index);
}

namespace {
/// The indices an index expression takes over all iterations.
struct IndexRange {
  enum { Unknown, Overflow, Known } kind = Unknown;
  int64_t first = 0, last = 0;
};
} // namespace

/// The range of `index` over loops of `loopSizes` (none empty); unknown
/// when a loop it uses has no known size.
static IndexRange indexRange(const LinearIndex &index,
                             ArrayRef<std::optional<int64_t>> loopSizes) {
  IndexRange range{IndexRange::Known, index.constant, index.constant};
  for (auto [coefficient, size] : llvm::zip(index.coefficients, loopSizes)) {
    if (coefficient == 0)
      continue;
    if (!size)
      return IndexRange{};
    std::optional<int64_t> span = llvm::checkedMul(coefficient, *size - 1);
    std::optional<int64_t> first, last;
    if (span) {
      first = llvm::checkedAdd(range.first, std::min<int64_t>(0, *span));
      last = llvm::checkedAdd(range.last, std::max<int64_t>(0, *span));
    }
    if (!first || !last)
      return IndexRange{IndexRange::Overflow};
    range.first = *first;
    range.last = *last;
  }
  return range;
}

static LogicalResult verifyAccesses(linalg::LinalgOp op) {
  unsigned numLoops = op.getNumLoops();
  SmallVector<std::optional<int64_t>> loopSizes(numLoops);
  SmallVector<unsigned> sizedBy(numLoops);
  auto shapedOperands =
      llvm::make_filter_range(op->getOpOperands(), [](OpOperand &operand) {
        return isa<ShapedType>(operand.get().getType());
      });

  // Loop lengths from the operand dimensions a loop alone indexes; two
  // different lengths for one loop are a contradiction of their own.
  for (OpOperand &operand : shapedOperands) {
    AffineMap map = op.getMatchingIndexingMap(&operand);
    for (auto [dim, expr] : llvm::enumerate(map.getResults())) {
      auto loop = dyn_cast<AffineDimExpr>(expr);
      if (!loop)
        continue;
      std::optional<int64_t> size = knownSize(operand.get(), dim);
      if (!size)
        continue;
      unsigned position = loop.getPosition();
      if (!loopSizes[position]) {
        loopSizes[position] = size;
        sizedBy[position] = operand.getOperandNumber();
      } else if (*loopSizes[position] != *size) {
        return op->emitOpError()
               << "has loop " << position << " run " << *loopSizes[position]
               << " times by operand #" << sizedBy[position] << " but " << *size
               << " times by operand #" << operand.getOperandNumber();
      }
    }
  }
  if (llvm::any_of(loopSizes, [](std::optional<int64_t> size) {
        return size && *size <= 0;
      }))
    return success();

  for (OpOperand &operand : shapedOperands) {
    AffineMap map = op.getMatchingIndexingMap(&operand);
    unsigned number = operand.getOperandNumber();
    for (auto [dim, expr] : llvm::enumerate(map.getResults())) {
      LinearIndex index;
      index.coefficients.assign(numLoops, 0);
      Flattening flattening = flatten(expr, 1, index);
      if (flattening == Flattening::NotLinear)
        continue;
      IndexRange range = flattening == Flattening::Overflow
                             ? IndexRange{IndexRange::Overflow}
                             : indexRange(index, loopSizes);
      if (range.kind == IndexRange::Unknown)
        continue;
      if (range.kind == IndexRange::Overflow) {
        std::string text;
        llvm::raw_string_ostream(text) << expr;
        return op->emitOpError()
               << "indexes dimension " << dim << " of operand #" << number
               << " with " << text << ", which overflows int64";
      }
      if (range.first < 0)
        return op->emitOpError()
               << "accesses operand #" << number << " at index " << range.first
               << " along dimension " << dim << ", before its start";
      std::optional<int64_t> size = knownSize(operand.get(), dim);
      if (size && range.last >= *size)
        return op->emitOpError()
               << "accesses operand #" << number << " at index " << range.last
               << " along dimension " << dim << ", past its size " << *size;
    }
  }
  return success();
}

static LogicalResult verifyExpandShape(tensor::ExpandShapeOp op) {
  ArrayRef<int64_t> outputShape = op.getStaticOutputShape();
  RankedTensorType type = op.getResultType();
  for (auto [dim, size] : llvm::enumerate(outputShape)) {
    if (size == type.getDimSize(dim))
      continue;
    auto print = [](int64_t size) {
      return ShapedType::isDynamic(size) ? std::string("?")
                                         : std::to_string(size);
    };
    return op.emitOpError()
           << "has output shape " << print(size) << " at dimension " << dim
           << " but its type has " << print(type.getDimSize(dim));
  }
  return success();
}

LogicalResult mlir::nx::verifyStaticBounds(Operation *root) {
  bool failed = false;
  root->walk([&](Operation *op) {
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
      failed |= mlir::failed(verifyAccesses(linalgOp));
    else if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op))
      failed |= mlir::failed(verifyExpandShape(expand));
  });
  return failure(failed);
}

LogicalResult mlir::nx::verifyStaticBoundsBeforeRewrite(Operation *root) {
  return verifyStaticBounds(root);
}

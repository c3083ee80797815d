//===- ExtractsToInputs.cpp - affine tensor.extract as generic inputs -----===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Front ends read an element of a tensor inside a generic's body when no
// indexing map of theirs says where: TOSA's `reverse` extracts at
// `size - 1 - j`. Such a read is opaque to everything that works on
// indexing maps (tiling over threads, the vectorizer, fusion, views of
// negated strides), so the op stays scalar or serial. Where every index is
// an affine function of the loops and stays within the tensor on every
// iteration, the same read is an input operand with that map.
//
//===----------------------------------------------------------------------===//

#include "nx/Support/PassStatistics.h"
#include "nx/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/Support/CheckedArithmetic.h"

#define DEBUG_TYPE "nx-extracts-to-inputs"

namespace mlir::nx {
#define GEN_PASS_DEF_NXEXTRACTSTOINPUTSPASS
#include "nx/Transforms/Passes.h.inc"
} // namespace mlir::nx

using namespace mlir;

namespace {
/// `constant + sum(coefficients[d] * loop d)`, in exact integers.
struct LinearIndex {
  SmallVector<int64_t> coefficients;
  int64_t constant = 0;

  bool isConstant() const {
    return llvm::all_of(coefficients, [](int64_t c) { return c == 0; });
  }
};
} // namespace

/// How deep an index's arithmetic is followed: front ends write one or two
/// operations; a limit keeps fuzzed chains from exhausting the stack.
static constexpr int kMaxIndexDepth = 8;

/// `lhs + sign * rhs`, or nothing when a coefficient overflows.
static std::optional<LinearIndex>
addScaled(const LinearIndex &lhs, const LinearIndex &rhs, int64_t sign) {
  LinearIndex sum = lhs;
  for (auto [total, term] : llvm::zip(sum.coefficients, rhs.coefficients)) {
    std::optional<int64_t> scaled = llvm::checkedMul(term, sign);
    std::optional<int64_t> added =
        scaled ? llvm::checkedAdd(total, *scaled) : std::nullopt;
    if (!added)
      return std::nullopt;
    total = *added;
  }
  std::optional<int64_t> scaled = llvm::checkedMul(rhs.constant, sign);
  std::optional<int64_t> added =
      scaled ? llvm::checkedAdd(sum.constant, *scaled) : std::nullopt;
  if (!added)
    return std::nullopt;
  sum.constant = *added;
  return sum;
}

/// `index * factor`, or nothing when a coefficient overflows.
static std::optional<LinearIndex> scale(LinearIndex index, int64_t factor) {
  for (int64_t &coefficient : index.coefficients) {
    std::optional<int64_t> product = llvm::checkedMul(coefficient, factor);
    if (!product)
      return std::nullopt;
    coefficient = *product;
  }
  std::optional<int64_t> product = llvm::checkedMul(index.constant, factor);
  if (!product)
    return std::nullopt;
  index.constant = *product;
  return index;
}

/// `value` as a linear function of `generic`'s loops: its `linalg.index`
/// ops, index constants, and their sums, differences and products by
/// constants. Nothing for any other value.
static std::optional<LinearIndex>
getLinearIndex(Value value, linalg::GenericOp generic, int depth = 0) {
  LinearIndex index;
  index.coefficients.assign(generic.getNumLoops(), 0);
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant))) {
    if (constant.getSignificantBits() > 64)
      return std::nullopt;
    index.constant = constant.getSExtValue();
    return index;
  }
  if (auto loop = value.getDefiningOp<linalg::IndexOp>()) {
    if (loop->getParentOp() != generic.getOperation())
      return std::nullopt;
    index.coefficients[loop.getDim()] = 1;
    return index;
  }
  Operation *op = value.getDefiningOp();
  if (depth >= kMaxIndexDepth || !op ||
      !isa<arith::AddIOp, arith::SubIOp, arith::MulIOp>(op))
    return std::nullopt;
  std::optional<LinearIndex> lhs =
      getLinearIndex(op->getOperand(0), generic, depth + 1);
  std::optional<LinearIndex> rhs =
      lhs ? getLinearIndex(op->getOperand(1), generic, depth + 1)
          : std::nullopt;
  if (!rhs)
    return std::nullopt;
  if (isa<arith::AddIOp>(op))
    return addScaled(*lhs, *rhs, 1);
  if (isa<arith::SubIOp>(op))
    return addScaled(*lhs, *rhs, -1);
  if (rhs->isConstant())
    return scale(*lhs, rhs->constant);
  if (lhs->isConstant())
    return scale(*rhs, lhs->constant);
  return std::nullopt;
}

/// Whether `index` stays in [0, size) on every iteration of loops of
/// `extents` (all static and at least 1): its least and greatest values
/// lie at corners of the iteration space.
static bool staysWithin(const LinearIndex &index, ArrayRef<int64_t> extents,
                        int64_t size) {
  int64_t least = index.constant;
  int64_t greatest = index.constant;
  for (auto [coefficient, extent] : llvm::zip(index.coefficients, extents)) {
    std::optional<int64_t> reach = llvm::checkedMul(coefficient, extent - 1);
    if (!reach)
      return false;
    std::optional<int64_t> bound =
        llvm::checkedAdd(*reach < 0 ? least : greatest, *reach);
    if (!bound)
      return false;
    (*reach < 0 ? least : greatest) = *bound;
  }
  return least >= 0 && greatest < size;
}

/// The indexing map of `extract` in `generic`'s loops, if every index is a
/// linear function of them that stays within the tensor's static shape.
static std::optional<AffineMap> getExtractMap(tensor::ExtractOp extract,
                                              linalg::GenericOp generic) {
  Value tensor = extract.getTensor();
  auto type = cast<RankedTensorType>(tensor.getType());
  // The tensor must be one the generic can take as an operand: defined
  // outside it, and a plain tensor (no encoding, such as a sparse one's).
  if (!type.hasStaticShape() || type.getEncoding() ||
      generic.getRegion().isAncestor(tensor.getParentRegion()))
    return std::nullopt;
  SmallVector<int64_t> extents = generic.getStaticLoopRanges();
  MLIRContext *context = generic.getContext();
  SmallVector<AffineExpr> results;
  for (auto [dim, value] : llvm::enumerate(extract.getIndices())) {
    std::optional<LinearIndex> index = getLinearIndex(value, generic);
    if (!index || !staysWithin(*index, extents, type.getDimSize(dim)))
      return std::nullopt;
    AffineExpr expr = getAffineConstantExpr(index->constant, context);
    for (auto [loop, coefficient] : llvm::enumerate(index->coefficients))
      if (coefficient != 0)
        expr = expr + getAffineDimExpr(loop, context) * coefficient;
    results.push_back(expr);
  }
  return AffineMap::get(generic.getNumLoops(), 0, results, context);
}

/// Replaces `generic` by one that reads each of `extracts` as an input of
/// its map in `maps`; extracts of one tensor at one map share an input.
static void readAsInputs(RewriterBase &rewriter, linalg::GenericOp generic,
                         ArrayRef<tensor::ExtractOp> extracts,
                         ArrayRef<AffineMap> maps) {
  SmallVector<Value> inputs(generic.getDpsInputs());
  SmallVector<AffineMap> inputMaps;
  for (OpOperand *input : generic.getDpsInputOperands())
    inputMaps.push_back(generic.getMatchingIndexingMap(input));
  int64_t oldInputs = inputs.size();
  SmallVector<int64_t> inputOfExtract;
  for (auto [i, map] : llvm::enumerate(maps)) {
    Value tensor = tensor::ExtractOp(extracts[i]).getTensor();
    int64_t same = oldInputs;
    while (same < static_cast<int64_t>(inputs.size()) &&
           (inputs[same] != tensor || inputMaps[same] != map))
      ++same;
    inputOfExtract.push_back(same);
    if (same < static_cast<int64_t>(inputs.size()))
      continue;
    inputs.push_back(tensor);
    inputMaps.push_back(map);
  }
  SmallVector<AffineMap> allMaps = inputMaps;
  for (OpOperand &init : generic.getDpsInitsMutable())
    allMaps.push_back(generic.getMatchingIndexingMap(&init));
  rewriter.setInsertionPoint(generic);
  auto reading = linalg::GenericOp::create(
      rewriter, generic.getLoc(), generic.getResultTypes(), inputs,
      generic.getDpsInits(), allMaps, generic.getIteratorTypesArray(),
      generic.getDoc().value_or(""), generic.getLibraryCall().value_or(""));
  reading->setDiscardableAttrs(generic->getDiscardableAttrDictionary());
  rewriter.inlineRegionBefore(generic.getRegion(), reading.getRegion(),
                              reading.getRegion().begin());
  Block *body = reading.getBlock();
  for (int64_t i = oldInputs; i < static_cast<int64_t>(inputs.size()); ++i)
    body->insertArgument(i, getElementTypeOrSelf(inputs[i].getType()),
                         generic.getLoc());
  for (auto [i, input] : llvm::enumerate(inputOfExtract))
    rewriter.replaceOp(extracts[i], body->getArgument(input));
  rewriter.replaceOp(generic, reading.getResults());
}

namespace {

struct NxExtractsToInputsPass
    : nx::impl::NxExtractsToInputsPassBase<NxExtractsToInputsPass> {
  void runOnOperation() override {
    SmallVector<linalg::GenericOp> generics;
    getOperation()->walk([&](linalg::GenericOp generic) {
      if (generic.hasPureTensorSemantics())
        generics.push_back(generic);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::GenericOp generic : generics) {
      // Every iteration must run: an empty loop would let an index out of
      // bounds pass, and reads in the body's own block run on all of them.
      if (llvm::any_of(generic.getStaticLoopRanges(), [](int64_t extent) {
            return ShapedType::isDynamic(extent) || extent < 1;
          }))
        continue;
      SmallVector<tensor::ExtractOp> extracts;
      SmallVector<AffineMap> maps;
      for (auto extract : generic.getBlock()->getOps<tensor::ExtractOp>()) {
        if (std::optional<AffineMap> map = getExtractMap(extract, generic)) {
          extracts.push_back(extract);
          maps.push_back(*map);
        }
      }
      if (extracts.empty())
        continue;
      readAsInputs(rewriter, generic, extracts, maps);
      nx::addStatistic(numRead, extracts.size());
    }
  }
};

} // namespace

#undef DEBUG_TYPE

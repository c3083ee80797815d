//===- SplitIndexReductions.cpp - argmax and argmin into vector lanes -----===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// An argmax along an op's innermost loop keeps one running (value, index)
// pair, so each step waits for the comparison and the selection before it:
// one element per few cycles. Split into lanes, each keeping its own pair
// over every ratio-th element, the steps are independent vector lanes. The
// split is exact: a lane keeps the first of its best elements, and the lanes
// are combined in order, an equal value taken only at a smaller index, so
// the result is the serial loop's, whatever the values (NaN, signed zeros).
//
//===----------------------------------------------------------------------===//

#include "nx/Codegen/CPU/Passes.h"
#include "nx/Support/PassOptions.h"
#include "nx/Support/PassStatistics.h"

#include "VectorShape.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Utils/Utils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

#define DEBUG_TYPE "nx-split-index-reductions"

namespace mlir::nx {
#define GEN_PASS_DEF_NXSPLITINDEXREDUCTIONSPASS
#include "nx/Codegen/CPU/Passes.h.inc"
} // namespace mlir::nx

using namespace mlir;

namespace {

/// An argmax or argmin: a reduction along the innermost loop of one input
/// into a value and an index (in either order), whose body is
///   better = cmp(in, value); yield select(better, in, value),
///                                  select(better, j, index)
/// with j the reduction loop's linalg.index (through an index cast) and a
/// strict comparison, so that the first of equal elements wins; or, as
/// tosa.argmax's lowering writes it, with NaN taken as the best value:
///   better = cmpf ugt/ult (in, value) and cmpf ord (value, value)
/// so that the first NaN wins and stays; or a body that keeps the
/// accumulator instead, as JAX writes it (see matchKeepAccumulator), which
/// comes to one of those.
struct IndexReduction {
  bool isFloat = false;
  /// The comparison with the input on its left-hand side (ogt, olt; ugt,
  /// ult when `nanIsBest`).
  arith::CmpFPredicate floatPredicate{};
  arith::CmpIPredicate intPredicate{};
  bool nanIsBest = false;
  /// Which of the op's two results is the value; the other is the index.
  unsigned valueResult = 0;
};

} // namespace

/// Whether `value` is the index of loop `loop`, through an index cast.
static bool isReductionIndex(Value value, unsigned loop) {
  if (auto cast = value.getDefiningOp<arith::IndexCastOp>())
    value = cast.getIn();
  else if (auto cast = value.getDefiningOp<arith::IndexCastUIOp>())
    value = cast.getIn();
  auto index = value.getDefiningOp<linalg::IndexOp>();
  return index && index.getDim() == loop;
}

/// `predicate` with its operands swapped, for the strict ones.
static arith::CmpFPredicate swapStrict(arith::CmpFPredicate predicate) {
  using P = arith::CmpFPredicate;
  switch (predicate) {
  case P::OGT:
    return P::OLT;
  case P::OLT:
    return P::OGT;
  case P::UGT:
    return P::ULT;
  case P::ULT:
    return P::UGT;
  default:
    return predicate;
  }
}

/// `predicate` with its operands swapped, for the strict ones.
static arith::CmpIPredicate swapStrict(arith::CmpIPredicate predicate) {
  using P = arith::CmpIPredicate;
  switch (predicate) {
  case P::sgt:
    return P::slt;
  case P::slt:
    return P::sgt;
  case P::ugt:
    return P::ult;
  case P::ult:
    return P::ugt;
  default:
    return predicate;
  }
}

/// The comparison `cmp` of `in` and `value`, with `in` on its left, if it
/// compares exactly those two.
static std::optional<arith::CmpFPredicate> inputOnLeft(arith::CmpFOp cmp,
                                                       Value in, Value value) {
  if (cmp.getLhs() == in && cmp.getRhs() == value)
    return cmp.getPredicate();
  if (cmp.getLhs() == value && cmp.getRhs() == in)
    return swapStrict(cmp.getPredicate());
  return std::nullopt;
}

/// Whether `condition` is `cmpf ord, value, value`: `value` is no NaN.
static bool isOrderedCheck(Value condition, Value value) {
  auto cmp = condition.getDefiningOp<arith::CmpFOp>();
  return cmp && cmp.getPredicate() == arith::CmpFPredicate::ORD &&
         cmp.getLhs() == value && cmp.getRhs() == value;
}

/// The NaN-propagating form: `ugt(in, value) and ord(value, value)` (or
/// ult), the operands of the `and` in either order.
static std::optional<IndexReduction> matchNanIsBest(Value condition, Value in,
                                                    Value value) {
  auto both = condition.getDefiningOp<arith::AndIOp>();
  if (!both)
    return std::nullopt;
  for (auto [compared, ordered] : {std::pair(both.getLhs(), both.getRhs()),
                                   std::pair(both.getRhs(), both.getLhs())}) {
    auto cmp = compared.getDefiningOp<arith::CmpFOp>();
    if (!cmp || !isOrderedCheck(ordered, value))
      continue;
    std::optional<arith::CmpFPredicate> predicate = inputOnLeft(cmp, in, value);
    if (predicate != arith::CmpFPredicate::UGT &&
        predicate != arith::CmpFPredicate::ULT)
      continue;
    IndexReduction reduction;
    reduction.isFloat = true;
    reduction.floatPredicate = *predicate;
    reduction.nanIsBest = true;
    return reduction;
  }
  return std::nullopt;
}

/// The reduction `condition` decides, if it is a strict comparison of `in`
/// and `value`, or the NaN-propagating form.
static std::optional<IndexReduction> matchCondition(Value condition, Value in,
                                                    Value value) {
  if (auto cmp = condition.getDefiningOp<arith::CmpFOp>()) {
    std::optional<arith::CmpFPredicate> predicate = inputOnLeft(cmp, in, value);
    if (predicate != arith::CmpFPredicate::OGT &&
        predicate != arith::CmpFPredicate::OLT)
      return std::nullopt;
    IndexReduction reduction;
    reduction.isFloat = true;
    reduction.floatPredicate = *predicate;
    return reduction;
  }
  auto cmp = condition.getDefiningOp<arith::CmpIOp>();
  if (!cmp)
    return matchNanIsBest(condition, in, value);
  using P = arith::CmpIPredicate;
  P predicate = cmp.getPredicate();
  if (!llvm::is_contained({P::sgt, P::slt, P::ugt, P::ult}, predicate))
    return std::nullopt;
  if (cmp.getLhs() == value && cmp.getRhs() == in) {
    predicate = swapStrict(predicate);
  } else if (cmp.getLhs() != in || cmp.getRhs() != value) {
    return std::nullopt;
  }
  IndexReduction reduction;
  reduction.intPredicate = predicate;
  return reduction;
}

/// Whether `op` has the shape of an index reduction the split can take:
/// static, on tensors, one input read along the reduced (innermost) loop as
/// its innermost dimension, and two outputs.
static bool hasIndexReductionShape(linalg::GenericOp op) {
  unsigned loops = op.getNumLoops();
  if (!op.hasPureTensorSemantics() || op.hasDynamicShape() ||
      op.getNumDpsInputs() != 1 || op.getNumDpsInits() != 2 ||
      op.getNumReductionLoops() != 1 ||
      !linalg::isReductionIterator(op.getIteratorTypesArray().back()) ||
      !llvm::all_of(
          op.getIndexingMapsArray(),
          [](AffineMap map) { return map.isProjectedPermutation(); }) ||
      !nx::readsInnermostLoopContiguously(op))
    return false;
  AffineMap inputMap = op.getMatchingIndexingMap(op.getDpsInputOperand(0));
  return inputMap.getNumResults() != 0 &&
         inputMap.getResults().back() ==
             getAffineDimExpr(loops - 1, op.getContext());
}

/// Whether the body of `op` holds at most `count` operations besides its
/// terminator, each one of those an index reduction's body is made of.
static bool hasOnlyIndexReductionOps(linalg::GenericOp op, int64_t count) {
  Block *body = op.getBlock();
  if (static_cast<int64_t>(llvm::range_size(body->without_terminator())) >
      count)
    return false;
  return llvm::all_of(body->without_terminator(), [](Operation &nested) {
    return isa<linalg::IndexOp, arith::IndexCastOp, arith::IndexCastUIOp,
               arith::CmpFOp, arith::CmpIOp, arith::AndIOp, arith::OrIOp,
               arith::SelectOp>(nested);
  });
}

/// Whether the index type `index` holds every position of `op`'s reduced
/// loop.
static bool holdsEveryPosition(linalg::GenericOp op, Value index) {
  auto indexType = dyn_cast<IntegerType>(index.getType());
  int64_t extent = op.getStaticLoopRanges().back();
  return indexType && llvm::isUIntN(indexType.getWidth() - 1, extent - 1);
}

/// The form that takes the input where it is better:
///   yield select(better, in, value), select(better, j, index)
static std::optional<IndexReduction> matchTakeInput(linalg::GenericOp op) {
  unsigned loops = op.getNumLoops();
  Block *body = op.getBlock();
  Operation *yield = body->getTerminator();
  // The value's result is the one that selects the input.
  unsigned valueResult = 0;
  auto isValueSelect = [&](unsigned result) {
    auto select = yield->getOperand(result).getDefiningOp<arith::SelectOp>();
    return select && select.getTrueValue() == body->getArgument(0) &&
           select.getFalseValue() == body->getArgument(1 + result);
  };
  if (!isValueSelect(0)) {
    if (!isValueSelect(1))
      return std::nullopt;
    valueResult = 1;
  }
  Value in = body->getArgument(0), value = body->getArgument(1 + valueResult),
        index = body->getArgument(2 - valueResult);
  if (in.getType() != value.getType() || !holdsEveryPosition(op, index))
    return std::nullopt;
  auto newValue =
      yield->getOperand(valueResult).getDefiningOp<arith::SelectOp>();
  auto newIndex =
      yield->getOperand(1 - valueResult).getDefiningOp<arith::SelectOp>();
  if (!newIndex || newValue.getCondition() != newIndex.getCondition() ||
      newIndex.getFalseValue() != index ||
      !isReductionIndex(newIndex.getTrueValue(), loops - 1))
    return std::nullopt;
  // Nothing else in the body: the index, its cast, the comparisons (and
  // their `and`) and the two selections.
  if (!hasOnlyIndexReductionOps(op, 7))
    return std::nullopt;
  std::optional<IndexReduction> reduction =
      matchCondition(newValue.getCondition(), in, value);
  if (reduction)
    reduction->valueResult = valueResult;
  return reduction;
}

/// `a` and `b` if `value` is `arith.ori a, b` (either order: both are
/// returned, and the caller tries each).
static std::optional<std::pair<Value, Value>> matchOr(Value value) {
  auto both = value.getDefiningOp<arith::OrIOp>();
  if (!both)
    return std::nullopt;
  return std::pair(both.getLhs(), both.getRhs());
}

/// The reduction whose accumulator `keep` keeps: a strict comparison of
/// `value` beating `in`, with, for floats, `cmpf une(value, value)` (the
/// kept value is NaN) or'ed in. Returns the comparison that takes the input
/// instead (ugt or ult, NaN being the best, for floats).
static std::optional<IndexReduction> matchKeepCondition(Value keep, Value in,
                                                        Value value) {
  if (auto cmp = keep.getDefiningOp<arith::CmpIOp>()) {
    using P = arith::CmpIPredicate;
    // Kept where `value` beats `in`: taken where `in` beats `value`.
    P predicate = cmp.getPredicate();
    if (!llvm::is_contained({P::sgt, P::slt, P::ugt, P::ult}, predicate))
      return std::nullopt;
    IndexReduction reduction;
    if (cmp.getLhs() == value && cmp.getRhs() == in)
      reduction.intPredicate = predicate;
    else if (cmp.getLhs() == in && cmp.getRhs() == value)
      reduction.intPredicate = swapStrict(predicate);
    else
      return std::nullopt;
    return reduction;
  }
  std::optional<std::pair<Value, Value>> terms = matchOr(keep);
  if (!terms)
    return std::nullopt;
  for (auto [compared, nan] :
       {*terms, std::pair(terms->second, terms->first)}) {
    auto cmp = compared.getDefiningOp<arith::CmpFOp>();
    auto isNan = nan.getDefiningOp<arith::CmpFOp>();
    if (!cmp || !isNan || isNan.getPredicate() != arith::CmpFPredicate::UNE ||
        isNan.getLhs() != value || isNan.getRhs() != value)
      continue;
    std::optional<arith::CmpFPredicate> predicate = inputOnLeft(cmp, in, value);
    if (predicate != arith::CmpFPredicate::OLT &&
        predicate != arith::CmpFPredicate::OGT)
      continue;
    IndexReduction reduction;
    reduction.isFloat = true;
    reduction.nanIsBest = true;
    // Kept where in < value: taken where in > value or unordered.
    reduction.floatPredicate = *predicate == arith::CmpFPredicate::OLT
                                   ? arith::CmpFPredicate::UGT
                                   : arith::CmpFPredicate::ULT;
    return reduction;
  }
  return std::nullopt;
}
/// Whether `condition` is `and(eq(value, in), slt(index, j))`: the input
/// equals the kept value and the kept index comes first (the operands of
/// the `and`, the equality and the order in either order).
static bool isEarlierTie(Value condition, Value in, Value value, Value index,
                         Value j) {
  auto both = condition.getDefiningOp<arith::AndIOp>();
  if (!both)
    return false;
  auto sameOperands = [&](Operation *cmp) {
    return (cmp->getOperand(0) == value && cmp->getOperand(1) == in) ||
           (cmp->getOperand(0) == in && cmp->getOperand(1) == value);
  };
  auto isEqual = [&](Value v) {
    if (auto cmp = v.getDefiningOp<arith::CmpFOp>())
      return cmp.getPredicate() == arith::CmpFPredicate::OEQ &&
             sameOperands(cmp);
    auto cmp = v.getDefiningOp<arith::CmpIOp>();
    return cmp && cmp.getPredicate() == arith::CmpIPredicate::eq &&
           sameOperands(cmp);
  };
  auto isEarlier = [&](Value v) {
    auto cmp = v.getDefiningOp<arith::CmpIOp>();
    using P = arith::CmpIPredicate;
    return cmp && ((cmp.getPredicate() == P::slt && cmp.getLhs() == index &&
                    cmp.getRhs() == j) ||
                   (cmp.getPredicate() == P::sgt && cmp.getLhs() == j &&
                    cmp.getRhs() == index));
  };
  return (isEqual(both.getLhs()) && isEarlier(both.getRhs())) ||
         (isEqual(both.getRhs()) && isEarlier(both.getLhs()));
}

/// Whether `init` is a fill of a constant of at most 0.
static bool startsAtOrBeforeZero(Value init) {
  auto fill = init.getDefiningOp<linalg::FillOp>();
  APInt start;
  return fill && matchPattern(fill.getInputs()[0], m_ConstantInt(&start)) &&
         start.isNonPositive();
}

/// The form of StableHLO's reduction of (values, iota) once lowered to
/// linalg and fused, as JAX writes argmax's and argmin's comparator (XLA
/// passes the accumulator first): the accumulator is kept unless the input
/// beats it, and its index also on a tie at a later position:
///   keep = or(cmpf ogt(value, in), cmpf une(value, value))
///          ; olt for argmin; cmpi sgt, slt, ugt, ult without the une
///   keepIndex = or(keep, and(cmp eq(value, in), cmpi slt(index, j)))
///   yield select(keep, value, in), select(keepIndex, index, j)
/// Each lane, and the serial loop, then keeps its first best element (NaN
/// the best, for floats), as the take-input form does, provided the index
/// starts at or before 0 (a later start would win the ties before it) and
/// nothing reads the value, which a tie replaces by the later element (-0
/// for +0).
static std::optional<IndexReduction>
matchKeepAccumulator(linalg::GenericOp op) {
  unsigned loops = op.getNumLoops();
  Block *body = op.getBlock();
  Operation *yield = body->getTerminator();
  Value in = body->getArgument(0);
  for (unsigned valueResult : {0u, 1u}) {
    Value value = body->getArgument(1 + valueResult);
    Value index = body->getArgument(2 - valueResult);
    auto newValue =
        yield->getOperand(valueResult).getDefiningOp<arith::SelectOp>();
    auto newIndex =
        yield->getOperand(1 - valueResult).getDefiningOp<arith::SelectOp>();
    if (!newValue || !newIndex || newValue.getTrueValue() != value ||
        newValue.getFalseValue() != in || newIndex.getTrueValue() != index ||
        !isReductionIndex(newIndex.getFalseValue(), loops - 1))
      continue;
    if (in.getType() != value.getType() || !holdsEveryPosition(op, index) ||
        !op->getResult(valueResult).use_empty() ||
        !startsAtOrBeforeZero(op.getDpsInits()[1 - valueResult]) ||
        !hasOnlyIndexReductionOps(op, 11))
      return std::nullopt;
    Value keep = newValue.getCondition();
    std::optional<std::pair<Value, Value>> terms =
        matchOr(newIndex.getCondition());
    if (!terms)
      return std::nullopt;
    Value tie = terms->first == keep    ? terms->second
                : terms->second == keep ? terms->first
                                        : Value();
    if (!tie || !isEarlierTie(tie, in, value, index, newIndex.getFalseValue()))
      return std::nullopt;
    std::optional<IndexReduction> reduction =
        matchKeepCondition(keep, in, value);
    if (reduction)
      reduction->valueResult = valueResult;
    return reduction;
  }
  return std::nullopt;
}

/// The index reduction `op` is, if the split can take it.
static std::optional<IndexReduction> matchIndexReduction(linalg::GenericOp op) {
  if (!hasIndexReductionShape(op))
    return std::nullopt;
  if (std::optional<IndexReduction> reduction = matchTakeInput(op))
    return reduction;
  return matchKeepAccumulator(op);
}

/// How `op` splits: into `ratio` pairs per output element, as
/// nx-split-reductions' split, four vectors of `lanes` of its widest element
/// type when the loop holds at least twice as many, else one.
struct Split {
  int64_t ratio, lanes;
};

static std::optional<Split> getSplit(linalg::LinalgOp op, int64_t vectorBits) {
  std::optional<int64_t> lanes = nx::getVectorLanes(op, vectorBits);
  int64_t extent = op.getStaticLoopRanges().back();
  if (!lanes)
    return std::nullopt;
  for (int64_t ratio : {nx::kVectorAccumulators * *lanes, *lanes})
    if (extent % ratio == 0 && extent >= 2 * ratio)
      return Split{ratio, *lanes};
  return std::nullopt;
}

/// `map` (of the original loops) with the innermost split loop `ki`, a new
/// loop after all of them, as its last result.
static AffineMap withSplitLoop(AffineMap map) {
  MLIRContext *context = map.getContext();
  SmallVector<AffineExpr> results(map.getResults());
  results.push_back(getAffineDimExpr(map.getNumDims(), context));
  return AffineMap::get(map.getNumDims() + 1, 0, results, context);
}

/// `init` broadcast along a new innermost dimension of `ratio`.
static Value broadcastInnermost(RewriterBase &rewriter, Location loc,
                                Value init, int64_t ratio) {
  auto type = cast<RankedTensorType>(init.getType());
  SmallVector<int64_t> shape(type.getShape());
  shape.push_back(ratio);
  Value empty =
      tensor::EmptyOp::create(rewriter, loc, shape, type.getElementType());
  return linalg::BroadcastOp::create(rewriter, loc, init, empty,
                                     ArrayRef<int64_t>{type.getRank()})
      .getResult()
      .front();
}

/// `value` (a static tensor) with its innermost dimension of K split into
/// K / `inner` and `inner`.
static Value splitInnermost(RewriterBase &rewriter, Location loc, Value value,
                            int64_t inner) {
  auto type = cast<RankedTensorType>(value.getType());
  int64_t rank = type.getRank();
  SmallVector<int64_t> shape(type.getShape());
  shape.back() /= inner;
  shape.push_back(inner);
  SmallVector<ReassociationIndices> groups;
  for (int64_t dim = 0; dim + 1 < rank; ++dim)
    groups.push_back({dim});
  groups.push_back({rank - 1, rank});
  return tensor::ExpandShapeOp::create(
      rewriter, loc, RankedTensorType::get(shape, type.getElementType()), value,
      groups);
}

/// Whether `candidate` is better than `current`: `reduction`'s comparison.
static Value compareBetter(OpBuilder &b, Location loc,
                           const IndexReduction &reduction, Value candidate,
                           Value current);

/// The first step: `op` over (..., K / ratio, ratio), the last loop
/// parallel, into `ratio` (value, index) pairs per output element, each
/// starting from the output's own. Its body takes the input where
/// `reduction`'s comparison finds it better, at the position rebuilt from
/// the two loops: the form of every body matchIndexReduction takes.
static linalg::GenericOp buildLanes(RewriterBase &rewriter,
                                    linalg::GenericOp op, int64_t ratio,
                                    const IndexReduction &reduction) {
  Location loc = op.getLoc();
  unsigned loops = op.getNumLoops();
  Value lanesInput = splitInnermost(rewriter, loc, op.getDpsInputs()[0], ratio);
  SmallVector<AffineMap> maps;
  SmallVector<Value> inits;
  for (OpOperand &operand : op->getOpOperands()) {
    maps.push_back(withSplitLoop(op.getMatchingIndexingMap(&operand)));
    if (op.isDpsInit(&operand))
      inits.push_back(broadcastInnermost(rewriter, loc, operand.get(), ratio));
  }
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  iterators.push_back(utils::IteratorType::parallel);
  unsigned v = reduction.valueResult, i = 1 - v;
  return linalg::GenericOp::create(
      rewriter, loc, TypeRange(ValueRange(inits)), ValueRange{lanesInput},
      inits, maps, iterators,
      [&](OpBuilder &b, Location nestedLoc, ValueRange args) {
        Value in = args[0], value = args[1 + v], index = args[1 + i];
        Value outer = linalg::IndexOp::create(b, nestedLoc, loops - 1);
        Value inner = linalg::IndexOp::create(b, nestedLoc, loops);
        Value step = arith::ConstantIndexOp::create(b, nestedLoc, ratio);
        Value scaled = arith::MulIOp::create(b, nestedLoc, outer, step);
        Value position = arith::IndexCastOp::create(
            b, nestedLoc, index.getType(),
            arith::AddIOp::create(b, nestedLoc, scaled, inner));
        Value better = compareBetter(b, nestedLoc, reduction, in, value);
        SmallVector<Value, 2> yielded(2);
        yielded[v] = arith::SelectOp::create(b, nestedLoc, better, in, value);
        yielded[i] =
            arith::SelectOp::create(b, nestedLoc, better, position, index);
        linalg::YieldOp::create(b, nestedLoc, yielded);
      });
}

/// Whether `candidate` is better than `current`: `reduction`'s comparison.
static Value compareBetter(OpBuilder &b, Location loc,
                           const IndexReduction &reduction, Value candidate,
                           Value current) {
  if (!reduction.isFloat)
    return arith::CmpIOp::create(b, loc, reduction.intPredicate, candidate,
                                 current);
  Value better = arith::CmpFOp::create(b, loc, reduction.floatPredicate,
                                       candidate, current);
  if (!reduction.nanIsBest)
    return better;
  Value ordered = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::ORD,
                                        current, current);
  return arith::AndIOp::create(b, loc, better, ordered);
}

/// Whether `candidate` equals `current` (+0 and -0 do; NaN never does,
/// except two NaNs where NaN is the best value).
static Value compareEqual(OpBuilder &b, Location loc,
                          const IndexReduction &reduction, Value candidate,
                          Value current) {
  if (!reduction.isFloat)
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, candidate,
                                 current);
  Value equal = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ,
                                      candidate, current);
  if (!reduction.nanIsBest)
    return equal;
  auto isNan = [&](Value v) {
    return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, v, v);
  };
  Value bothNan =
      arith::AndIOp::create(b, loc, isNan(candidate), isNan(current));
  return arith::OrIOp::create(b, loc, equal, bothNan);
}

/// Yields the better of the pair in `args` (0, 1) and the best so far (2,
/// 3), each pair in the order of the op's results: a better value, or an
/// equal one at a smaller index. That is the larger pair in the order of
/// values (NaN first where it is the best), then of indices reversed, so
/// pairs combine in any order: each lane holds its first best element, or
/// the init.
static void yieldBetterPair(OpBuilder &b, Location loc,
                            const IndexReduction &reduction, ValueRange args) {
  unsigned v = reduction.valueResult, i = 1 - v;
  Value value = args[v], index = args[i];
  Value bestValue = args[2 + v], bestIndex = args[2 + i];
  Value better = compareBetter(b, loc, reduction, value, bestValue);
  Value equal = compareEqual(b, loc, reduction, value, bestValue);
  Value earlier = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                        index, bestIndex);
  Value tie = arith::AndIOp::create(b, loc, equal, earlier);
  Value take = arith::OrIOp::create(b, loc, better, tie);
  SmallVector<Value, 2> yielded(2);
  yielded[v] = arith::SelectOp::create(b, loc, take, value, bestValue);
  yielded[i] = arith::SelectOp::create(b, loc, take, index, bestIndex);
  linalg::YieldOp::create(b, loc, yielded);
}

/// `map` (of `op`'s loops, the reduced one unused) with `extra` more loops
/// after it, `read` of them (the last ones) as its last results.
static AffineMap withLoops(AffineMap map, unsigned extra, unsigned read) {
  MLIRContext *context = map.getContext();
  unsigned dims = map.getNumDims() + extra;
  SmallVector<AffineExpr> results(map.getResults());
  for (unsigned dim = dims - read; dim < dims; ++dim)
    results.push_back(getAffineDimExpr(dim, context));
  return AffineMap::get(dims, 0, results, context);
}

/// The `ratio` pairs of `lanes` per output element combined, vector by
/// vector, into `width` pairs: an op over (..., ratio / width, width) whose
/// innermost loop is parallel, so it vectorizes as the first step does.
static linalg::GenericOp combineVectors(RewriterBase &rewriter,
                                        linalg::GenericOp op,
                                        linalg::GenericOp lanes, int64_t width,
                                        const IndexReduction &reduction) {
  Location loc = op.getLoc();
  SmallVector<Value> vectors, inits;
  SmallVector<AffineMap> maps;
  for (Value partial : lanes->getResults())
    vectors.push_back(splitInnermost(rewriter, loc, partial, width));
  // The maps' reduced loop (unused by the outputs) becomes the vectors'.
  for (OpOperand &init : op.getDpsInitsMutable())
    maps.push_back(withLoops(op.getMatchingIndexingMap(&init), 1, 2));
  for (OpOperand &init : op.getDpsInitsMutable()) {
    maps.push_back(withLoops(op.getMatchingIndexingMap(&init), 1, 1));
    inits.push_back(broadcastInnermost(rewriter, loc, init.get(), width));
  }
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  iterators.push_back(utils::IteratorType::parallel);
  return linalg::GenericOp::create(
      rewriter, loc, TypeRange(ValueRange(inits)), vectors, inits, maps,
      iterators, [&](OpBuilder &b, Location nestedLoc, ValueRange args) {
        yieldBetterPair(b, nestedLoc, reduction, args);
      });
}

/// The last step: the pairs of `lanes` combined into `op`'s outputs.
static linalg::GenericOp combineLanes(RewriterBase &rewriter,
                                      linalg::GenericOp op,
                                      linalg::GenericOp lanes,
                                      const IndexReduction &reduction) {
  SmallVector<AffineMap> maps;
  // The lanes' loop takes the place of the reduced one.
  for (OpOperand &init : op.getDpsInitsMutable())
    maps.push_back(withLoops(op.getMatchingIndexingMap(&init), 0, 1));
  for (OpOperand &init : op.getDpsInitsMutable())
    maps.push_back(op.getMatchingIndexingMap(&init));
  return linalg::GenericOp::create(
      rewriter, op.getLoc(), op->getResultTypes(), lanes->getResults(),
      op.getDpsInits(), maps, op.getIteratorTypesArray(),
      [&](OpBuilder &b, Location nestedLoc, ValueRange args) {
        yieldBetterPair(b, nestedLoc, reduction, args);
      });
}

namespace {

struct NxSplitIndexReductionsPass
    : nx::impl::NxSplitIndexReductionsPassBase<NxSplitIndexReductionsPass> {
  using Base::Base;

  void runOnOperation() override {
    if (failed(nx::checkPassOptionAtLeast(getOperation(), getArgument(),
                                          vectorBits, 16)) ||
        failed(nx::checkPassOptionAtMost(getOperation(), getArgument(),
                                         vectorBits, nx::kMaxVectorBits)))
      return signalPassFailure();
    SmallVector<std::tuple<linalg::GenericOp, IndexReduction, Split>>
        candidates;
    getOperation()->walk([&](linalg::GenericOp op) {
      std::optional<IndexReduction> reduction = matchIndexReduction(op);
      std::optional<Split> split =
          reduction ? getSplit(op, vectorBits) : std::nullopt;
      if (split)
        candidates.emplace_back(op, *reduction, *split);
    });
    IRRewriter rewriter(&getContext());
    for (auto [op, reduction, split] : candidates) {
      rewriter.setInsertionPoint(op);
      linalg::GenericOp lanes =
          buildLanes(rewriter, op, split.ratio, reduction);
      // Four vectors of pairs become one before the serial step.
      if (split.ratio != split.lanes)
        lanes = combineVectors(rewriter, op, lanes, split.lanes, reduction);
      rewriter.replaceOp(op, combineLanes(rewriter, op, lanes, reduction));
      nx::addStatistic(numSplit);
    }
  }
};

} // namespace

#undef DEBUG_TYPE

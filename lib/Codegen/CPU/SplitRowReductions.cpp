//===- SplitRowReductions.cpp - split row reductions in registers ---------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "SplitRowReductions.h"

#include "JammedRows.h"
#include "VectorShape.h"
#include "nx/Support/Buffers.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;

/// More accumulators than this would not stay in registers.
static constexpr int64_t kMaxAccumulators = 8;

/// The one operation of a combine-only reduction's body.
static Operation *getCombiner(linalg::LinalgOp op) {
  return nx::isCombineOnlyReduction(op) ? &op.getBlock()->front() : nullptr;
}

/// Whether `a` and `b` are the same elements of one buffer: the same value,
/// or subviews of the same elements at equal offsets, sizes and strides.
static bool isSameView(Value a, Value b) {
  if (a == b)
    return true;
  auto viewA = a.getDefiningOp<memref::SubViewOp>();
  auto viewB = b.getDefiningOp<memref::SubViewOp>();
  if (!viewA || !viewB || !isSameView(viewA.getSource(), viewB.getSource()))
    return false;
  auto equal = [](ArrayRef<OpFoldResult> x, ArrayRef<OpFoldResult> y) {
    return x.size() == y.size() &&
           llvm::all_of(llvm::zip_equal(x, y), [](auto pair) {
             return isEqualConstantIntOrValue(std::get<0>(pair),
                                              std::get<1>(pair));
           });
  };
  return equal(viewA.getMixedOffsets(), viewB.getMixedOffsets()) &&
         equal(viewA.getMixedSizes(), viewB.getMixedSizes()) &&
         equal(viewA.getMixedStrides(), viewB.getMixedStrides());
}

/// The op before `op` in its block, past side-effect-free subviews.
static Operation *getPreviousSkippingViews(Operation *op) {
  Operation *previous = op->getPrevNode();
  while (isa_and_present<memref::SubViewOp>(previous))
    previous = previous->getPrevNode();
  return previous;
}

/// Whether every use of `value`, through subviews, is by one of `users` or
/// deallocates it.
static bool isUsedOnlyBy(Value value, ArrayRef<Operation *> users) {
  for (Operation *user : value.getUsers()) {
    if (llvm::is_contained(users, user) || isa<memref::DeallocOp>(user))
      continue;
    auto subview = dyn_cast<memref::SubViewOp>(user);
    if (!subview || !isUsedOnlyBy(subview.getResult(), users))
      return false;
  }
  return true;
}

/// Whether `op`, on buffers, has loops of iterator types `kinds` and one
/// input and one output, read through `inputMap` and written through
/// `outputMap`.
static bool hasShape(linalg::LinalgOp op, ArrayRef<utils::IteratorType> kinds,
                     AffineMap inputMap, AffineMap outputMap) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInputs() != 1 ||
      op.getNumDpsInits() != 1 ||
      !llvm::equal(op.getIteratorTypesArray(), kinds))
    return false;
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  return maps[0] == inputMap && maps[1] == outputMap;
}

std::optional<nx::SplitRowReduction>
nx::matchSplitRowReduction(linalg::LinalgOp final) {
  MLIRContext *context = final.getContext();
  using utils::IteratorType;
  // Rows may be indexed by several loops (batch, head, row): all but the
  // final step's last.
  unsigned rowLoops = final.getNumLoops();
  if (rowLoops < 2)
    return std::nullopt;
  --rowLoops;
  // The map of `rowLoops` leading loops and `extra` loops after them that
  // reads or writes the leading ones and, of the others, `kept`.
  auto rowMap = [&](unsigned extra, ArrayRef<unsigned> kept) {
    SmallVector<AffineExpr> results;
    for (unsigned i = 0; i < rowLoops; ++i)
      results.push_back(getAffineDimExpr(i, context));
    for (unsigned i : kept)
      results.push_back(getAffineDimExpr(rowLoops + i, context));
    return AffineMap::get(rowLoops + extra, 0, results, context);
  };
  SmallVector<IteratorType> finalKinds(rowLoops, IteratorType::parallel);
  finalKinds.push_back(IteratorType::reduction);
  if (!hasShape(final, finalKinds, rowMap(1, {0}), rowMap(1, {})))
    return std::nullopt;
  Operation *finalCombiner = getCombiner(final);
  if (!finalCombiner || !linalg::getCombinerOpKind(finalCombiner))
    return std::nullopt;

  auto partial =
      dyn_cast_or_null<linalg::LinalgOp>(getPreviousSkippingViews(final));
  SmallVector<IteratorType> partialKinds(rowLoops, IteratorType::parallel);
  partialKinds.append({IteratorType::reduction, IteratorType::parallel});
  if (!partial ||
      !hasShape(partial, partialKinds, rowMap(2, {0, 1}), rowMap(2, {1})))
    return std::nullopt;
  Operation *partialCombiner = getCombiner(partial);
  if (!partialCombiner ||
      partialCombiner->getName() != finalCombiner->getName() ||
      !isSameView(partial.getDpsInits()[0], final.getDpsInputs()[0]))
    return std::nullopt;
  SmallVector<int64_t> ranges = partial.getStaticLoopRanges();
  if (ShapedType::isDynamic(ranges[rowLoops]) ||
      ShapedType::isDynamic(ranges[rowLoops + 1]))
    return std::nullopt;

  auto fill =
      dyn_cast_or_null<linalg::FillOp>(getPreviousSkippingViews(partial));
  if (!fill || !fill.hasPureBufferSemantics() ||
      !isSameView(fill.getDpsInits()[0], partial.getDpsInits()[0]))
    return std::nullopt;

  // Row by row, the output is written while later rows of the input are
  // still to be read: they must be different buffers.
  if (nx::getRootBuffer(partial.getDpsInputs()[0]) ==
      nx::getRootBuffer(final.getDpsInits()[0]))
    return std::nullopt;

  // isUsedOnlyBy admits subviews only between the allocation and the ops.
  auto buffer = nx::getRootBuffer(final.getDpsInputs()[0])
                    .getDefiningOp<memref::AllocOp>();
  if (!buffer ||
      !isUsedOnlyBy(buffer.getResult(), {fill, partial, final.getOperation()}))
    return std::nullopt;
  return SplitRowReduction{fill, partial, final, buffer};
}

/// A copy of `combiner` (an op of two block arguments) on `input` and
/// `accumulator`, of their type.
static Value combine(RewriterBase &rewriter, Operation *combiner, Value input,
                     Value accumulator) {
  Block *body = combiner->getBlock();
  IRMapping mapping;
  // The block's arguments: the op's inputs, then its output's element.
  mapping.map(body->getArgument(0), input);
  mapping.map(body->getArgument(1), accumulator);
  Operation *copy = rewriter.clone(*combiner, mapping);
  copy->getResult(0).setType(accumulator.getType());
  return copy->getResult(0);
}

namespace {

/// What every row of a split row reduction reduces with.
struct RowReducer {
  Operation *partialCombiner;
  Operation *finalCombiner;
  Value input, output;
  VectorType vectorType;
  /// Vectors of one step of a row, and the accumulators they go into.
  int64_t vectorsPerStep, accumulators;
  Value first, zero, one, stepCount;
  arith::FastMathFlags flags;
};

} // namespace

/// Reduces `rows` (each the indices of one output element) in one loop over
/// their steps, each into `reducer.accumulators` vector accumulators that
/// start as the fill's value, then combines each row's accumulators and
/// their lanes into its output element (vector.reduction). A step's vector
/// v goes into accumulator v modulo their number.
static void reduceRowsInOnePass(RewriterBase &rewriter, Location loc,
                                const RowReducer &reducer,
                                ArrayRef<SmallVector<Value>> rows) {
  int64_t lanes = reducer.vectorType.getNumElements();
  SmallVector<Value> starts(rows.size() * reducer.accumulators, reducer.first);
  auto stepLoop = scf::ForOp::create(
      rewriter, loc, reducer.zero, reducer.stepCount, reducer.one, starts,
      [&](OpBuilder &, Location, Value step, ValueRange sums) {
        SmallVector<Value> next(sums);
        for (auto [r, row] : llvm::enumerate(rows))
          for (int64_t v = 0; v < reducer.vectorsPerStep; ++v) {
            SmallVector<Value> indices(row);
            indices.push_back(step);
            indices.push_back(
                arith::ConstantIndexOp::create(rewriter, loc, v * lanes));
            Value loaded = vector::TransferReadOp::create(
                rewriter, loc, reducer.vectorType, reducer.input, indices,
                /*padding=*/std::nullopt, ArrayRef<bool>{true});
            Value &sum =
                next[r * reducer.accumulators + v % reducer.accumulators];
            sum = combine(rewriter, reducer.partialCombiner, loaded, sum);
          }
        scf::YieldOp::create(rewriter, loc, next);
      });
  for (auto [r, row] : llvm::enumerate(rows)) {
    ValueRange sums = stepLoop.getResults().slice(r * reducer.accumulators,
                                                  reducer.accumulators);
    Value total = sums.front();
    for (Value sum : sums.drop_front())
      total = combine(rewriter, reducer.finalCombiner, sum, total);
    Value start = memref::LoadOp::create(rewriter, loc, reducer.output, row);
    Value reduced = vector::ReductionOp::create(
        rewriter, loc, *linalg::getCombinerOpKind(reducer.finalCombiner), total,
        start, reducer.flags);
    memref::StoreOp::create(rewriter, loc, reduced, reducer.output, row);
  }
}

/// Rows of the innermost row loop (`rows` of them) reduced in one pass:
/// kJammedRows, one of each of as many segments of the rows (JammedRows.h),
/// when they divide a static row count and their accumulators fit the
/// registers, if need be by sharing an accumulator among a step's vectors,
/// which a combiner that may not reassociate forbids; else one.
static int64_t getRowsPerPass(int64_t rows, int64_t vectorsPerStep,
                              Operation *partialCombiner) {
  if (ShapedType::isDynamic(rows) || rows % nx::kJammedRows != 0)
    return 1;
  bool fits = vectorsPerStep * nx::kJammedRows <= kMaxAccumulators;
  return fits || nx::mayReorderCombinations(partialCombiner) ? nx::kJammedRows
                                                             : 1;
}

/// Erases the split reduction's ops, its partial results' buffer and every
/// view of it, which the row loops no longer use.
static void erasePartialResults(RewriterBase &rewriter,
                                nx::SplitRowReduction reduction) {
  rewriter.eraseOp(reduction.final);
  rewriter.eraseOp(reduction.partial);
  rewriter.eraseOp(reduction.fill);
  SmallVector<Operation *> dead;
  SmallVector<Value> views{reduction.buffer.getResult()};
  while (!views.empty()) {
    Value view = views.pop_back_val();
    for (Operation *user : view.getUsers()) {
      dead.push_back(user);
      if (auto subview = dyn_cast<memref::SubViewOp>(user))
        views.push_back(subview.getResult());
    }
  }
  for (Operation *op : llvm::reverse(dead))
    rewriter.eraseOp(op);
  rewriter.eraseOp(reduction.buffer);
}

LogicalResult nx::vectorizeSplitRowReduction(RewriterBase &rewriter,
                                             SplitRowReduction reduction,
                                             int64_t lanes) {
  unsigned rowLoops = reduction.final.getNumLoops() - 1;
  SmallVector<int64_t> ranges = reduction.partial.getStaticLoopRanges();
  int64_t steps = ranges[rowLoops], width = ranges[rowLoops + 1];
  if (lanes <= 0 || width % lanes != 0 || width / lanes > kMaxAccumulators)
    return failure();

  RowReducer reducer;
  reducer.partialCombiner = getCombiner(reduction.partial);
  reducer.finalCombiner = getCombiner(reduction.final);
  reducer.input = reduction.partial.getDpsInputs()[0];
  reducer.output = reduction.final.getDpsInits()[0];
  Type element = getElementTypeOrSelf(reducer.output.getType());
  reducer.vectorType = VectorType::get({lanes}, element);
  reducer.vectorsPerStep = width / lanes;
  int64_t innerRows =
      cast<MemRefType>(reducer.output.getType()).getDimSize(rowLoops - 1);
  int64_t rowsPerPass = getRowsPerPass(innerRows, reducer.vectorsPerStep,
                                       reducer.partialCombiner);
  // Rows read together share the registers: fewer accumulators each.
  reducer.accumulators =
      rowsPerPass == 1
          ? reducer.vectorsPerStep
          : std::min(reducer.vectorsPerStep, kMaxAccumulators / rowsPerPass);
  Location loc = reduction.final.getLoc();
  reducer.flags = arith::FastMathFlags::none;
  if (auto fastMath =
          dyn_cast<arith::ArithFastMathInterface>(reducer.finalCombiner))
    reducer.flags = fastMath.getFastMathFlagsAttr().getValue();

  rewriter.setInsertionPoint(reduction.final);
  reducer.zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  reducer.one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  reducer.stepCount = arith::ConstantIndexOp::create(rewriter, loc, steps);
  reducer.first = vector::BroadcastOp::create(rewriter, loc, reducer.vectorType,
                                              reduction.fill.getInputs()[0]);
  SmallVector<Value> rowCounts;
  for (unsigned i = 0; i < rowLoops; ++i)
    rowCounts.push_back(
        rewriter.createOrFold<memref::DimOp>(loc, reducer.output, i));
  // Jammed, the innermost row loop runs over the first segment, and the
  // pass's other rows lie whole segments after its row.
  int64_t segmentRows = innerRows / rowsPerPass;
  SmallVector<Value> segmentOffsets;
  for (int64_t q = 1; q < rowsPerPass; ++q)
    segmentOffsets.push_back(
        arith::ConstantIndexOp::create(rewriter, loc, q * segmentRows));
  if (rowsPerPass > 1)
    rowCounts.back() =
        arith::ConstantIndexOp::create(rewriter, loc, segmentRows);
  SmallVector<Value> lowerBounds(rowLoops, reducer.zero),
      unitSteps(rowLoops, reducer.one);
  // The rewriter is the builder throughout, so it sees every op made.
  scf::buildLoopNest(
      rewriter, loc, lowerBounds, rowCounts, unitSteps,
      [&](OpBuilder &, Location, ValueRange row) {
        SmallVector<SmallVector<Value>> rows{SmallVector<Value>(row)};
        for (Value offset : segmentOffsets) {
          rows.emplace_back(row);
          rows.back().back() =
              arith::AddIOp::create(rewriter, loc, row.back(), offset);
        }
        reduceRowsInOnePass(rewriter, loc, reducer, rows);
      });
  erasePartialResults(rewriter, reduction);
  return success();
}

//===- LinalgToOpenMP.cpp - large linalg loop nests on every core ---------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A linalg op on buffers becomes the loop nest convert-linalg-to-loops would
// make, with its outermost loop (of an extent other than 1) turned into an
// OpenMP worksharing loop inside a parallel region. Only that loop is
// shared: the inner loops stay
// whole in each thread, where LLVM vectorizes them, and one fork per op keeps
// the OpenMP overhead (a few microseconds) small against the work. A run of
// ops along the same rows (a softmax's steps) forks one team for all of them
// (RowChains.h).
//
//===----------------------------------------------------------------------===//

#include "nx/Conversion/LinalgToOpenMP/LinalgToOpenMP.h"
#include "nx/Conversion/LinalgToOpenMP/OpenMPTeam.h"
#include "nx/Conversion/LinalgToOpenMP/OuterReductions.h"
#include "nx/Conversion/LinalgToOpenMP/RowChains.h"
#include "nx/Conversion/LinalgToOpenMP/TransposedTiles.h"
#include "nx/Conversion/Passes.h"
#include "nx/Support/Buffers.h"
#include "nx/Support/PassStatistics.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

#include <functional>
#include <limits>

#define DEBUG_TYPE "nx-linalg-to-openmp"

namespace mlir::nx {
#define GEN_PASS_DEF_NXLINALGTOOPENMPPASS
#include "nx/Conversion/Passes.h.inc"
} // namespace mlir::nx

using namespace mlir;
using mlir::nx::getRootBuffer;

namespace {

/// What the pass may do with a linalg op.
enum class NestKind {
  /// Not on buffers, no loops, or the outermost loop is no parallel loop
  /// that indexes every output: stays for convert-linalg-to-loops.
  Serial,
  /// Parallel, but statically below the work threshold.
  Small,
  /// Parallel, possibly large enough.
  Parallel,
};

} // namespace

/// Whether an indexing map has a coefficient or constant so large (a
/// convolution's stride of INT64_MAX, which the verifier allows) that the
/// offsets of a tile could overflow: tiling such an op builds invalid views.
static bool hasHugeCoefficients(linalg::LinalgOp op) {
  constexpr int64_t kLimit = int64_t{1} << 32;
  bool huge = false;
  for (AffineMap map : op.getIndexingMapsArray())
    for (AffineExpr result : map.getResults())
      result.walk([&](AffineExpr expr) {
        if (auto constant = dyn_cast<AffineConstantExpr>(expr))
          huge |= constant.getValue() > kLimit || constant.getValue() < -kLimit;
      });
  return huge;
}

/// Whether every index of `op`'s operands grows with every loop: sums of
/// loops and constants, loops scaled by non-negative constants. Upstream's
/// tiling takes an operand's slice to span from the index at a tile's first
/// iteration to the one at its last, which holds only then; a reversed
/// index (`1023 - i`) or a remainder would get a wrong slice.
static bool hasIncreasingIndices(linalg::LinalgOp op) {
  std::function<bool(AffineExpr)> increasing = [&](AffineExpr expr) {
    switch (expr.getKind()) {
    case AffineExprKind::DimId:
    case AffineExprKind::SymbolId:
    case AffineExprKind::Constant:
      return true;
    case AffineExprKind::Add: {
      auto sum = cast<AffineBinaryOpExpr>(expr);
      return increasing(sum.getLHS()) && increasing(sum.getRHS());
    }
    case AffineExprKind::Mul: {
      auto product = cast<AffineBinaryOpExpr>(expr);
      auto factor = dyn_cast<AffineConstantExpr>(product.getRHS());
      AffineExpr other = product.getLHS();
      if (!factor) {
        factor = dyn_cast<AffineConstantExpr>(product.getLHS());
        other = product.getRHS();
      }
      return factor && factor.getValue() >= 0 && increasing(other);
    }
    default:
      return false;
    }
  };
  return llvm::all_of(op.getIndexingMapsArray(), [&](AffineMap map) {
    return llvm::all_of(map.getResults(), increasing);
  });
}

/// Iteration points one iteration of the shared loop should cover at least,
/// so the loop's own cost stays small against the work in it.
static constexpr int64_t kMinPointsPerIteration = 4096;

/// Points a thread's tile of columns covers at least when a reduction over
/// few rows shares its columns: each row is then read in strips of at
/// least 128 KiB of f32. On the development VM, 16x524288 sums with strips
/// of 16 KiB (4096 points) took 1.21-1.27x as long as workers' rows at one
/// thread; with strips of 128 KiB 1.03-1.15x at one thread and 0.85-0.98x
/// at two. Their use is the threads a large team gets.
static constexpr int64_t kMinPointsPerColumnTile = 32768;

/// Points a thread's tile of columns covers at least in a reduction into
/// several outputs (an argmax along the columns), which has no workers'
/// rows to choose instead: strips of 4 KiB of f32 a row. The 2048 columns
/// of a 2048x2048 argmax then make two tiles.
static constexpr int64_t kMinPointsPerSelectionTile = 1024;

/// Points a thread's tile of `op`'s columns covers at least, when it shares
/// them.
static int64_t getMinColumnTilePoints(linalg::LinalgOp op) {
  return op.getNumDpsInits() != 1 ? kMinPointsPerSelectionTile
                                  : kMinPointsPerColumnTile;
}

/// For an op whose loop `rows` (its outermost of an extent other than 1) is
/// a reduction over too few rows for nx::kEnoughWorkers blocks (or into
/// several outputs, which workers' rows do not take), with static
/// sizes: its first parallel loop of an extent other than 1, when that loop
/// (with the loops inside it) makes more tiles of getMinColumnTilePoints
/// points than the rows make blocks, and at least two. Each thread then
/// reduces every row of its own columns, with no partial results, where
/// the rows would leave most threads of a large team without a block (16
/// rows: 4 workers).
static std::optional<unsigned> getColumnLoop(linalg::LinalgOp op,
                                             unsigned rows) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  if (!linalg::isReductionIterator(iterators[rows]) ||
      llvm::any_of(ranges, ShapedType::isDynamic))
    return std::nullopt;
  // Rows of many points make blocks of one pass each (OuterReductions.h).
  // A reduction into several outputs (an argmax's value and position) has
  // no workers' rows of partial results: its columns are all it can share,
  // however many rows it has.
  int64_t blocks = ranges[rows] / nx::kOuterReductionRowsPerPass;
  bool onlyColumns = op.getNumDpsInits() != 1;
  if (blocks >= nx::kEnoughWorkers && !onlyColumns)
    return std::nullopt;
  int64_t enough = (onlyColumns ? 2 : std::max<int64_t>(blocks + 1, 2)) *
                   getMinColumnTilePoints(op);
  for (unsigned loop = rows + 1; loop < ranges.size(); ++loop) {
    if (ranges[loop] == 1 || !linalg::isParallelIterator(iterators[loop]))
      continue;
    int64_t points = 1;
    for (int64_t range : ArrayRef(ranges).drop_front(loop))
      points = std::min(points * range, enough);
    if (points < enough)
      return std::nullopt;
    return loop;
  }
  return std::nullopt;
}

/// The outermost loop of `op` of an extent other than 1; 0 when none is.
static unsigned getOutermostLoop(linalg::LinalgOp op) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  auto outer = llvm::find_if(ranges, [](int64_t range) { return range != 1; });
  return outer == ranges.end() ? 0 : std::distance(ranges.begin(), outer);
}

/// Whether `op` shares its columns: its outermost loop of an extent other
/// than 1 is a reduction, and getColumnLoop found it a parallel loop.
static bool sharesColumns(linalg::LinalgOp op) {
  return op.getNumLoops() > 0 &&
         getColumnLoop(op, getOutermostLoop(op)).has_value();
}

/// For a transpose, the loop of the columns it writes, when threads share
/// them (nx/Conversion/LinalgToOpenMP/TransposedTiles.h).
static std::optional<unsigned> getTransposedColumnLoop(linalg::LinalgOp op) {
  return nx::getTransposedColumnLoop(op, getOutermostLoop(op),
                                     kMinPointsPerIteration);
}

/// The loop the threads share: the outermost one of an extent other than 1
/// (a batch of one image leaves nothing to share in the batch loop), unless
/// that is a reduction over few rows of many columns (getColumnLoop) or
/// reads a transpose's input across its rows (getTransposedColumnLoop).
static unsigned getSharedLoop(linalg::LinalgOp op) {
  if (op.getNumLoops() == 0)
    return 0;
  if (std::optional<unsigned> columns = getTransposedColumnLoop(op))
    return *columns;
  unsigned outer = getOutermostLoop(op);
  return getColumnLoop(op, outer).value_or(outer);
}

static NestKind classify(linalg::LinalgOp op, int64_t minWork) {
  // An op in a team already (a tile of a row chain) stays in its thread.
  if (!op.hasPureBufferSemantics() || op.getNumLoops() == 0 ||
      hasHugeCoefficients(op) || !hasIncreasingIndices(op) ||
      op->getParentOfType<omp::ParallelOp>())
    return NestKind::Serial;
  unsigned shared = getSharedLoop(op);
  if (!linalg::isParallelIterator(op.getIteratorTypesArray()[shared]))
    return NestKind::Serial;
  // A "parallel" shared dimension that some output is not indexed by
  // would let two threads write one element.
  for (OpOperand &init : op.getDpsInitsMutable()) {
    AffineMap map = op.getMatchingIndexingMap(&init);
    if (!llvm::any_of(map.getResults(), [&](AffineExpr expr) {
          auto dim = dyn_cast<AffineDimExpr>(expr);
          return dim && dim.getPosition() == shared;
        }))
      return NestKind::Serial;
  }
  int64_t points = 1;
  for (int64_t range : op.getStaticLoopRanges()) {
    if (ShapedType::isDynamic(range))
      return NestKind::Parallel;
    if (range == 0)
      return NestKind::Small;
    if (points > minWork / range)
      return NestKind::Parallel;
    points *= range;
  }
  return points >= minWork ? NestKind::Parallel : NestKind::Small;
}

/// Whether `op` is a reduction along its shared loop that workers share,
/// each into a row of partial results (nx/Conversion/LinalgToOpenMP/
/// OuterReductions.h), outside any team.
static bool isSharedOuterReduction(linalg::LinalgOp op, int64_t minWork) {
  return op.hasPureBufferSemantics() && op.getNumLoops() > 0 &&
         !hasHugeCoefficients(op) && hasIncreasingIndices(op) &&
         !op->getParentOfType<omp::ParallelOp>() &&
         nx::isSplittableOuterReduction(op, getSharedLoop(op), minWork);
}

namespace {

struct LinalgToOpenMPLoops : OpInterfaceRewritePattern<linalg::LinalgOp> {
  LinalgToOpenMPLoops(MLIRContext *context, int64_t minWork,
                      StringRef numThreadsFunction, bool splitOuterReductions)
      : OpInterfaceRewritePattern(context), minWork(minWork),
        numThreadsFunction(numThreadsFunction.str()),
        splitOuterReductions(splitOuterReductions) {}

  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rewriter) const override;

  /// Turns `op` into a parallel loop of tiles, each first running the tile
  /// of `op`'s row producer (if any) and then also applying `epilogue` (if
  /// any) to its slice of the output.
  LogicalResult rewriteNest(linalg::LinalgOp op, linalg::LinalgOp epilogue,
                            PatternRewriter &rewriter) const;

  /// Runs the iterations of `outer`, a loop of tiles, on an OpenMP team
  /// instead: when the nest's size (`points`) is known only at run time,
  /// only once it reaches minWork.
  void runOnTeam(scf::ForOp outer, Value points, Location loc,
                 PatternRewriter &rewriter) const;

  int64_t minWork;
  std::string numThreadsFunction;
  bool splitOuterReductions;
};

} // namespace

/// Rows of a thread's tile of a contraction shared along its output's rows:
/// a multiple of the most rows of nx-vectorize-linalg's register tiles
/// (kContractionRowGranule), so that a thread's rows make whole register
/// tiles. One row per tile would leave each register tile one row and its
/// accumulators two vectors. Up to kContractionMaxTileRows rows while the
/// product still makes kContractionTiles tiles: each column tile of B then
/// serves that many register tiles from the cache. A 2048x2048 f32 product
/// without BLAS took 382 ms at one thread with tiles of 8 rows and 281 ms
/// with 32 on the development VM.
static constexpr int64_t kContractionRowGranule = 8;
static constexpr int64_t kContractionMaxTileRows = 32;
static constexpr int64_t kContractionTiles = 16;

/// Whether `op` is a contraction shared along its output's rows: the
/// output's second innermost dimension.
static bool sharesContractionRows(linalg::LinalgOp op, unsigned shared) {
  if (op.getNumDpsInits() != 1 || !linalg::isaContractionOpInterface(op))
    return false;
  AffineMap output = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  unsigned results = output.getNumResults();
  return results >= 2 && output.getResult(results - 2) ==
                             getAffineDimExpr(shared, op.getContext());
}

/// Whether `op`'s only output is a fresh allocation (or a view of one) that
/// none of its inputs is a view of: each tile of `op` then owns its slice
/// of that output, and nothing else reads it while the tiles run.
static bool hasOwnOutput(linalg::LinalgOp op) {
  if (op.getNumDpsInits() != 1 ||
      !op.getMatchingIndexingMap(op.getDpsInitOperand(0))
           .isProjectedPermutation())
    return false;
  Value root = getRootBuffer(op.getDpsInits()[0]);
  if (!root.getDefiningOp<memref::AllocOp>() &&
      !root.getDefiningOp<memref::AllocaOp>())
    return false;
  return llvm::none_of(op.getDpsInputs(), [&](Value input) {
    return getRootBuffer(input) == root;
  });
}

/// The `linalg.fill` right before `op` that fills `op`'s only output, when
/// each tile of `op` may fill its own slice instead: `op` writes every
/// element of that output, which it owns (hasOwnOutput). The fill then runs
/// in the same thread as the tile that reads its values, while they are in
/// cache, and the program forks one team instead of two.
static linalg::FillOp getFusableFill(linalg::LinalgOp op) {
  auto fill = dyn_cast_if_present<linalg::FillOp>(op->getPrevNode());
  if (!fill || !fill.hasPureBufferSemantics() || !hasOwnOutput(op) ||
      fill.getOutputs()[0] != op.getDpsInits()[0])
    return {};
  return fill;
}

/// Whether `fill` is left to the op after it, which fills its tiles.
static bool isFusedIntoNext(linalg::FillOp fill, int64_t minWork) {
  auto next = dyn_cast_if_present<linalg::LinalgOp>(fill->getNextNode());
  return next && classify(next, minWork) == NestKind::Parallel &&
         getFusableFill(next) == fill;
}

/// Whether `epilogue` maps `output` to itself element by element: an
/// all-parallel op whose every operand is `output` with the identity map
/// and whose body has no side effects (a bias-free activation, a scaling:
/// an average pool's division by the window).
static bool isElementwiseInPlace(linalg::LinalgOp epilogue, Value output) {
  if (!epilogue.hasPureBufferSemantics() || epilogue.getNumDpsInits() != 1 ||
      epilogue.getNumLoops() != epilogue.getNumParallelLoops())
    return false;
  for (OpOperand &operand : epilogue->getOpOperands())
    if (operand.get() != output ||
        !epilogue.getMatchingIndexingMap(&operand).isIdentity())
      return false;
  return llvm::all_of(epilogue.getBlock()->without_terminator(),
                      [](Operation &op) { return isMemoryEffectFree(&op); });
}

/// The op before `op`, past deallocations of buffers other than `root`'s.
static Operation *getPreviousPastDeallocs(Operation *op, Value root) {
  Operation *previous = op->getPrevNode();
  while (auto dealloc = dyn_cast_if_present<memref::DeallocOp>(previous)) {
    if (getRootBuffer(dealloc.getMemref()) == root)
      return nullptr;
    previous = previous->getPrevNode();
  }
  return previous;
}

/// The linalg op after `op`, past deallocations.
static linalg::LinalgOp getNextPastDeallocs(Operation *op) {
  Operation *next = op->getNextNode();
  while (isa_and_present<memref::DeallocOp>(next))
    next = next->getNextNode();
  return dyn_cast_if_present<linalg::LinalgOp>(next);
}

/// The dimension of `operand` that `op`'s shared loop indexes, if any.
static std::optional<unsigned> getSharedDim(linalg::LinalgOp op,
                                            OpOperand &operand) {
  unsigned shared = getSharedLoop(op);
  for (auto [position, result] :
       llvm::enumerate(op.getMatchingIndexingMap(&operand).getResults())) {
    auto dim = dyn_cast<AffineDimExpr>(result);
    if (dim && dim.getPosition() == shared)
      return position;
  }
  return std::nullopt;
}

/// The parallel op whose tiles may also run `consumer` on the rows they have
/// just written (the final reduction of nx-split-reductions' partial sums):
/// the op before `consumer` (past deallocations of other buffers) writes a
/// fresh buffer of its own that `consumer` reads whole along every
/// dimension but the one both shared loops index, each row where the
/// producer wrote it, and reads nothing `consumer` writes. The rows then
/// go from one op to the other in cache, in one team instead of two.
static linalg::LinalgOp getRowProducer(linalg::LinalgOp consumer,
                                       int64_t minWork) {
  if (classify(consumer, minWork) == NestKind::Serial ||
      !hasOwnOutput(consumer))
    return {};
  Value written = getRootBuffer(consumer.getDpsInits()[0]);
  auto producer = dyn_cast_if_present<linalg::LinalgOp>(
      getPreviousPastDeallocs(consumer, written));
  // A producer that itself runs in its own producer's tiles stays there.
  if (!producer || classify(producer, minWork) != NestKind::Parallel ||
      !hasOwnOutput(producer) || getRowProducer(producer, minWork) ||
      llvm::any_of(producer->getOperands(), [&](Value operand) {
        return getRootBuffer(operand) == written;
      }))
    return {};
  Value rows = producer.getDpsInits()[0];
  OpOperand *read = nullptr;
  for (OpOperand *input : consumer.getDpsInputOperands()) {
    if (getRootBuffer(input->get()) != getRootBuffer(rows))
      continue;
    if (read || input->get() != rows)
      return {};
    read = input;
  }
  if (!read || !consumer.getMatchingIndexingMap(read).isProjectedPermutation())
    return {};
  std::optional<unsigned> writtenDim =
      getSharedDim(producer, *producer.getDpsInitOperand(0));
  std::optional<unsigned> readDim = getSharedDim(consumer, *read);
  int64_t extent = producer.getStaticLoopRanges()[getSharedLoop(producer)];
  if (!writtenDim || writtenDim != readDim || ShapedType::isDynamic(extent) ||
      extent != consumer.getStaticLoopRanges()[getSharedLoop(consumer)])
    return {};
  return producer;
}

/// Whether `op`'s tiles run in parallel: it is large enough itself, or it
/// runs in the tiles of the op whose rows it reads.
static bool isShared(linalg::LinalgOp op, int64_t minWork) {
  return classify(op, minWork) == NestKind::Parallel ||
         getRowProducer(op, minWork);
}

/// The parallel op whose tiles may also apply `epilogue`, an in-place
/// elementwise op on the output it owns, each to the slice it has just
/// written (while it is in cache, and without a second team): the op
/// before `epilogue`, past deallocations of other buffers.
static linalg::LinalgOp getEpilogueProducer(linalg::LinalgOp epilogue,
                                            int64_t minWork) {
  if (epilogue.getNumDpsInits() != 1)
    return {};
  Value output = epilogue.getDpsInits()[0];
  auto producer = dyn_cast_if_present<linalg::LinalgOp>(
      getPreviousPastDeallocs(epilogue, getRootBuffer(output)));
  if (!producer || producer.getNumDpsInits() != 1 ||
      producer.getDpsInits()[0] != output || !isShared(producer, minWork) ||
      !hasOwnOutput(producer) || !isElementwiseInPlace(epilogue, output))
    return {};
  return producer;
}

/// Whether the op after `op` (past deallocations) takes `op` into its own
/// rewrite: an epilogue that `op`'s tiles apply, or an op that reads the
/// rows `op`'s tiles write. The walk visits `op` first; it waits.
static bool isTiledWithNext(linalg::LinalgOp op, int64_t minWork) {
  linalg::LinalgOp next = getNextPastDeallocs(op);
  return next && (getEpilogueProducer(next, minWork) == op ||
                  getRowProducer(next, minWork) == op);
}

/// `op` on the rows that one tile of its row producer writes, in `loop` of
/// tiles of `rowsPerTile` rows: the loop's offset and the tile's size along
/// `op`'s shared loop, every other loop of `op` whole.
static FailureOr<linalg::LinalgOp> tileAlongRows(linalg::LinalgOp op,
                                                 scf::ForOp loop,
                                                 int64_t rowsPerTile,
                                                 RewriterBase &rewriter) {
  // A short last tile gets the same bound tileUsingSCF gave the producer's
  // tile, which CSE then shares.
  return nx::tileRows(op, getSharedLoop(op), loop.getInductionVar(),
                      rowsPerTile, rewriter, /*lastTileMayBeShort=*/true);
}

LogicalResult
LinalgToOpenMPLoops::matchAndRewrite(linalg::LinalgOp op,
                                     PatternRewriter &rewriter) const {
  // The walk visits a producer before the op after it: the producer waits,
  // and that op brings it along.
  if (linalg::LinalgOp producer = getEpilogueProducer(op, minWork))
    return rewriteNest(producer, op, rewriter);
  if (splitOuterReductions && isSharedOuterReduction(op, minWork))
    return nx::rewriteOuterReduction(
        op, getSharedLoop(op),
        numThreadsFunction.empty() ? StringRef(nx::kOpenMPMaxThreadsFunction)
                                   : StringRef(numThreadsFunction),
        rewriter);
  if (!isShared(op, minWork))
    return rewriter.notifyMatchFailure(op, "not a large parallel nest");
  auto fill = dyn_cast<linalg::FillOp>(op.getOperation());
  if (fill && isFusedIntoNext(fill, minWork))
    return rewriter.notifyMatchFailure(op, "filled by the next op's tiles");
  if (isTiledWithNext(op, minWork))
    return rewriter.notifyMatchFailure(op, "tiled with the op after it");
  return rewriteNest(op, /*epilogue=*/{}, rewriter);
}

/// Granules of rows, largest first, that a tile of a split row reduction's
/// partial step takes when its tiles stay at least nx::kEnoughWorkers:
/// nx-vectorize-linalg reads four rows of such a tile at once, one of each
/// quarter of its rows (lib/Codegen/CPU/JammedRows.h), when four divides
/// them (OuterReductions.h).
static constexpr int64_t kRowReductionGranules[] = {
    nx::kStreamedRows, nx::kOuterReductionRowsPerPass};

/// Whether `lead` is the partial step of a split row reduction (rows x
/// steps x width: its shared loop, then a reduction, then a parallel loop
/// innermost) whose rows its consumer reads in the same tiles.
static bool isPartialRowReduction(linalg::LinalgOp lead, unsigned shared,
                                  bool feedsConsumer) {
  SmallVector<utils::IteratorType> iterators = lead.getIteratorTypesArray();
  unsigned loops = iterators.size();
  return feedsConsumer && loops >= 3 && shared + 3 == loops &&
         linalg::isParallelIterator(iterators[shared]) &&
         linalg::isReductionIterator(iterators[loops - 2]) &&
         linalg::isParallelIterator(iterators[loops - 1]);
}

/// `rowsPerTile` rounded up to the largest of kRowReductionGranules that
/// leaves `rows` at least nx::kEnoughWorkers tiles; unchanged if none does.
static int64_t roundToRowReductionGranule(int64_t rowsPerTile, int64_t rows) {
  if (ShapedType::isDynamic(rows))
    return rowsPerTile;
  for (int64_t granule : kRowReductionGranules) {
    int64_t rounded = llvm::alignTo(rowsPerTile, granule);
    if (rows % rounded == 0 && rows / rounded >= nx::kEnoughWorkers)
      return rounded;
  }
  return rowsPerTile;
}

/// Rows of `lead`'s shared loop per tile: enough whole rows (or, in one
/// dimension, elements) to cover kMinPointsPerIteration points
/// (getMinColumnTilePoints for an op that shares its columns), and for a
/// transpose enough for square blocks, more for larger ones
/// (getTransposedRows); for a
/// contraction along its rows, whole register tiles (kContractionRowGranule);
/// for a split row reduction's partial step feeding its consumer (the final
/// step), a granule of kRowReductionGranules.
static int64_t getRowsPerTile(linalg::LinalgOp lead, unsigned shared,
                              bool feedsConsumer) {
  SmallVector<int64_t> staticRanges = lead.getStaticLoopRanges();
  // A transpose's columns come in tiles of whole cache lines.
  if (getTransposedColumnLoop(lead) == shared)
    return *nx::getTransposedTileExtent(staticRanges[shared]);
  int64_t minPoints = sharesColumns(lead) ? getMinColumnTilePoints(lead)
                                          : kMinPointsPerIteration;
  int64_t innerPoints = 1;
  for (int64_t range : ArrayRef(staticRanges).drop_front(shared + 1))
    innerPoints =
        ShapedType::isDynamic(range)
            ? minPoints
            : std::min(innerPoints * std::max<int64_t>(range, 1), minPoints);
  int64_t rowsPerTile = llvm::divideCeil(minPoints, innerPoints);
  if (nx::readsLoopContiguously(lead, shared))
    rowsPerTile =
        std::max(rowsPerTile, nx::getTransposedTileExtent(staticRanges[shared])
                                  .value_or(nx::kMinTransposedTile));
  if (sharesContractionRows(lead, shared)) {
    int64_t rows = staticRanges[shared];
    int64_t wanted = ShapedType::isDynamic(rows)
                         ? kContractionRowGranule
                         : std::clamp<int64_t>(rows / kContractionTiles,
                                               kContractionRowGranule,
                                               kContractionMaxTileRows);
    rowsPerTile =
        llvm::alignTo(std::max(rowsPerTile, wanted), kContractionRowGranule);
  }
  if (isPartialRowReduction(lead, shared, feedsConsumer))
    rowsPerTile = roundToRowReductionGranule(rowsPerTile, staticRanges[shared]);
  return rowsPerTile;
}

/// Whether `op` may run in a row chain's tiles (RowChains.h): the pass
/// would share its loop 0 (so it reads no transpose across its rows), and
/// it is no contraction or convolution, whose tiles follow their register
/// tiles and library calls.
static bool mayJoinRowChain(linalg::LinalgOp op, int64_t minWork) {
  return classify(op, minWork) != NestKind::Serial && getSharedLoop(op) == 0 &&
         !linalg::isaContractionOpInterface(op) &&
         !linalg::isaConvolutionOpInterface(op);
}

/// Whether the pass, op by op, would fork a team for `op`: it is shared,
/// and no neighbour takes it into its tiles.
static bool formsOwnTeam(linalg::LinalgOp op, int64_t minWork) {
  auto fill = dyn_cast<linalg::FillOp>(op.getOperation());
  return isShared(op, minWork) && !(fill && isFusedIntoNext(fill, minWork)) &&
         !isTiledWithNext(op, minWork);
}

/// Rows per tile of a row chain of `ops`: the rows its op of the most
/// points per row takes alone (getRowsPerTile), since the tile covers that
/// op's points and more; the other ops' own rows would be far too many (a
/// fill of one value a row would take 4096). On a granule of
/// kRowReductionGranules when the chain holds a split row reduction's
/// partial step, whose final step it holds too.
static int64_t getRowChainRowsPerTile(ArrayRef<linalg::LinalgOp> ops) {
  // A dynamic extent counts as more points than any static one: such an
  // op's own tiles (getRowsPerTile) are then the chain's.
  auto pointsPerRow = [](linalg::LinalgOp op) {
    constexpr int64_t kMost = std::numeric_limits<int64_t>::max();
    int64_t points = 1;
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    for (int64_t range : ArrayRef(ranges).drop_front()) {
      if (ShapedType::isDynamic(range) || (range > 0 && points > kMost / range))
        return kMost;
      points *= range;
    }
    return points;
  };
  int64_t most = 0, rowsPerTile = 1;
  bool partial = false;
  for (linalg::LinalgOp op : ops) {
    partial |= isPartialRowReduction(op, 0, /*feedsConsumer=*/true);
    int64_t points = pointsPerRow(op);
    int64_t rows = getRowsPerTile(op, 0, /*feedsConsumer=*/true);
    if (points > most)
      rowsPerTile = rows;
    else if (points == most)
      rowsPerTile = std::max(rowsPerTile, rows);
    most = std::max(most, points);
  }
  if (partial)
    rowsPerTile = roundToRowReductionGranule(
        rowsPerTile, linalg::LinalgOp(ops.front()).getStaticLoopRanges()[0]);
  return rowsPerTile;
}

/// Tiles `lead`'s shared loop by `rowsPerTile`, its other loops whole.
static FailureOr<scf::SCFTilingResult>
tileSharedLoop(linalg::LinalgOp lead, unsigned shared, int64_t rowsPerTile,
               PatternRewriter &rewriter) {
  SmallVector<OpFoldResult> tileSizes(lead.getNumLoops(),
                                      rewriter.getIndexAttr(0));
  tileSizes[shared] = rewriter.getIndexAttr(rowsPerTile);
  scf::SCFTilingOptions tilingOptions;
  tilingOptions.setTileSizes(tileSizes);
  rewriter.setInsertionPoint(lead);
  return scf::tileUsingSCF(rewriter, cast<TilingInterface>(lead.getOperation()),
                           tilingOptions);
}

/// Replaces `fill`, of the output `tile` writes a slice of, by a fill of
/// that slice just before `tile`.
static void fillEachTile(linalg::FillOp fill, linalg::LinalgOp tile,
                         PatternRewriter &rewriter) {
  rewriter.setInsertionPoint(tile);
  linalg::FillOp::create(rewriter, fill.getLoc(), fill.getInputs()[0],
                         tile.getDpsInits()[0]);
  rewriter.eraseOp(fill);
}

/// Replaces `epilogue` by its copy on the slice `tile` writes, right after
/// `tile`.
static void applyEpilogueInEachTile(linalg::LinalgOp epilogue,
                                    linalg::LinalgOp tile,
                                    PatternRewriter &rewriter) {
  rewriter.setInsertionPointAfter(tile);
  IRMapping slice;
  slice.map(epilogue.getDpsInits()[0], tile.getDpsInits()[0]);
  rewriter.clone(*epilogue, slice);
  rewriter.eraseOp(epilogue);
}

LogicalResult
LinalgToOpenMPLoops::rewriteNest(linalg::LinalgOp op, linalg::LinalgOp epilogue,
                                 PatternRewriter &rewriter) const {
  // With a row producer, the producer's tiling leads and `op` follows it.
  linalg::LinalgOp producer = getRowProducer(op, minWork);
  linalg::LinalgOp lead = producer ? producer : op;
  linalg::FillOp fusedFill = getFusableFill(lead);
  Location loc = lead.getLoc();

  // Tiles of the outermost dimension, each the same op on slices. Later
  // passes vectorize or lower each tile as they would the whole op. Tiling
  // first: it is the step that may fail, and nothing is built before it.
  unsigned shared = getSharedLoop(lead);
  int64_t rowsPerTile = getRowsPerTile(lead, shared, producer != nullptr);
  FailureOr<scf::SCFTilingResult> tiled =
      tileSharedLoop(lead, shared, rowsPerTile, rewriter);
  if (failed(tiled) || tiled->loops.size() != 1)
    return rewriter.notifyMatchFailure(lead, "could not tile the outer loop");
  auto outer = cast<scf::ForOp>(tiled->loops.front().getOperation());
  auto tile = cast<linalg::LinalgOp>(tiled->tiledOps.front());
  if (fusedFill)
    fillEachTile(fusedFill, tile, rewriter);
  // The nest's size, for the if clause below: the lead's.
  rewriter.setInsertionPoint(outer);
  SmallVector<Range> leadRanges = lead.createLoopRanges(rewriter, loc);
  if (producer) {
    // Each tile then runs `op` on the rows it has just written: the same
    // offset and size along `op`'s shared loop, its other loops whole.
    rewriter.setInsertionPointAfter(tile);
    FailureOr<linalg::LinalgOp> rows =
        tileAlongRows(op, outer, rowsPerTile, rewriter);
    if (failed(rows))
      return rewriter.notifyMatchFailure(op, "could not tile the row reader");
    rewriter.eraseOp(producer);
    tile = *rows;
  }
  if (epilogue)
    applyEpilogueInEachTile(epilogue, tile, rewriter);

  rewriter.setInsertionPoint(outer);
  Value points = nx::countPoints(leadRanges, loc, rewriter);
  rewriter.eraseOp(op);
  runOnTeam(outer, points, loc, rewriter);
  return success();
}

void LinalgToOpenMPLoops::runOnTeam(scf::ForOp outer, Value points,
                                    Location loc,
                                    PatternRewriter &rewriter) const {
  // A static nest, which classify() found large enough, needs no if clause.
  Value ifExpr;
  if (!matchPattern(points, m_Constant())) {
    Value threshold = arith::ConstantIndexOp::create(rewriter, loc, minWork);
    ifExpr = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::sge,
                                   points, threshold);
  }
  Value numThreads;
  if (!numThreadsFunction.empty())
    numThreads = nx::callNumThreadsFunction(rewriter, loc, numThreadsFunction);
  Block *body = nx::createTeamLoop(rewriter, loc, ifExpr, numThreads,
                                   outer.getLowerBound(), outer.getUpperBound(),
                                   outer.getStep());
  // The scf.for's body, induction variable and all, becomes the loop nest's.
  Operation *yield = outer.getBody()->getTerminator();
  rewriter.setInsertionPoint(yield);
  omp::YieldOp::create(rewriter, yield->getLoc(), ValueRange());
  rewriter.eraseOp(yield);
  rewriter.mergeBlocks(outer.getBody(), body, body->getArguments());
  rewriter.eraseOp(outer);
}

LogicalResult nx::declareNumThreadsFunction(ModuleOp module, StringRef name) {
  MLIRContext *context = module.getContext();
  auto type = FunctionType::get(context, {}, {IntegerType::get(context, 32)});
  Operation *symbol = SymbolTable::lookupSymbolIn(module, name);
  if (!symbol) {
    auto builder = OpBuilder::atBlockBegin(module.getBody());
    auto declaration =
        func::FuncOp::create(builder, module.getLoc(), name, type);
    declaration.setPrivate();
    return success();
  }
  auto function = dyn_cast<func::FuncOp>(symbol);
  if (!function || function.getFunctionType() != type)
    return symbol->emitOpError()
           << "is named by num-threads-function; expected a func.func of type "
           << type;
  return success();
}

void nx::populateLinalgToOpenMPPatterns(RewritePatternSet &patterns,
                                        int64_t minWork,
                                        StringRef numThreadsFunction,
                                        bool splitOuterReductions) {
  patterns.add<LinalgToOpenMPLoops>(patterns.getContext(), minWork,
                                    numThreadsFunction, splitOuterReductions);
}

/// Replaces each memref.copy that may reach `minWork` elements (a dynamic
/// one may) by a linalg.copy, which the patterns then share like any other
/// nest: bufferization copies a concatenation's operands and a padding's
/// interior into subviews, and memref.copy runs on the calling thread.
/// Returns how many it replaced.
static int64_t replaceLargeCopies(ModuleOp module, int64_t minWork) {
  SmallVector<memref::CopyOp> copies;
  module.walk([&](memref::CopyOp copy) {
    auto source = dyn_cast<MemRefType>(copy.getSource().getType());
    auto target = dyn_cast<MemRefType>(copy.getTarget().getType());
    if (!source || !target || source.getRank() == 0 ||
        source.getShape() != target.getShape())
      return;
    if (source.hasStaticShape() && source.getNumElements() < minWork)
      return;
    copies.push_back(copy);
  });
  IRRewriter rewriter(module.getContext());
  for (memref::CopyOp copy : copies) {
    rewriter.setInsertionPoint(copy);
    linalg::CopyOp::create(rewriter, copy.getLoc(),
                           ValueRange{copy.getSource()},
                           ValueRange{copy.getTarget()});
    rewriter.eraseOp(copy);
  }
  return static_cast<int64_t>(copies.size());
}

namespace {

struct NxLinalgToOpenMPPass
    : nx::impl::NxLinalgToOpenMPPassBase<NxLinalgToOpenMPPass> {
  using NxLinalgToOpenMPPassBase::NxLinalgToOpenMPPassBase;

  /// Runs each chain of ops along the same rows in one team first: the
  /// patterns then leave their tiles alone.
  LogicalResult shareRowChains(ModuleOp module) {
    nx::RowChainRules rules;
    int64_t work = minWork;
    auto mayJoin = [&](linalg::LinalgOp op) {
      return mayJoinRowChain(op, work);
    };
    auto ownTeam = [&](linalg::LinalgOp op) { return formsOwnTeam(op, work); };
    rules.mayJoin = mayJoin;
    rules.formsOwnTeam = ownTeam;
    rules.getRowsPerTile = getRowChainRowsPerTile;
    IRRewriter rewriter(module.getContext());
    FailureOr<int64_t> chains = nx::shareRowChains(
        module, minWork, numThreadsFunction, rules, rewriter);
    if (failed(chains))
      return failure();
    nx::addStatistic(numRowChains, *chains);
    return success();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (failed(nx::checkTeamPassInput(module, getArgument(), minWork)))
      return signalPassFailure();
    nx::addStatistic(numSharedCopies, replaceLargeCopies(module, minWork));
    // Each shared nest is one team (a fill or epilogue it absorbs runs in
    // its tiles): the teams this pass adds count them. Linalg ops do not,
    // since each tile runs the op again on its slices.
    auto countTeams = [&] {
      int64_t teams = 0;
      module.walk([&](omp::ParallelOp) { ++teams; });
      return teams;
    };
    int64_t teamsBefore = countTeams();
    // Outer reductions this pass shares: those it finds, less those still
    // there after it.
    auto countOuterReductions = [&] {
      int64_t outer = 0;
      module.walk([&](linalg::LinalgOp op) {
        outer += splitOuterReductions && isSharedOuterReduction(op, minWork);
      });
      return outer;
    };
    int64_t outerBefore = countOuterReductions();
    bool anyParallel = false, anyOuterReduction = outerBefore > 0;
    module.walk([&](linalg::LinalgOp op) {
      anyParallel |= classify(op, minWork) == NestKind::Parallel;
    });
    if (anyParallel || anyOuterReduction) {
      if (!numThreadsFunction.empty() &&
          failed(nx::declareNumThreadsFunction(module, numThreadsFunction)))
        return signalPassFailure();
      // Workers of an outer reduction need the team's size.
      if (anyOuterReduction && numThreadsFunction.empty() &&
          failed(nx::declareNumThreadsFunction(module,
                                               nx::kOpenMPMaxThreadsFunction)))
        return signalPassFailure();
      if (failed(shareRowChains(module)))
        return signalPassFailure();
      RewritePatternSet patterns(&getContext());
      nx::populateLinalgToOpenMPPatterns(patterns, minWork, numThreadsFunction,
                                         splitOuterReductions);
      walkAndApplyPatterns(module, std::move(patterns));
    }
    nx::addStatistic(numParallelNests, countTeams() - teamsBefore);
    nx::addStatistic(numOuterReductions, outerBefore - countOuterReductions());
    // Serial for their size: outside every team (not a fill a team took
    // over, not a tile), statically below min-work.
    int64_t small = 0;
    module.walk([&](linalg::LinalgOp op) {
      if (!op->getParentOfType<omp::ParallelOp>() &&
          classify(op, minWork) == NestKind::Small)
        ++small;
    });
    nx::addStatistic(numSmallNests, small);
  }
};

} // namespace

#undef DEBUG_TYPE

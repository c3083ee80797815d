//===- TransposedTiles.cpp - how threads share a transpose ----------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "nx/Conversion/LinalgToOpenMP/TransposedTiles.h"
#include "nx/Conversion/LinalgToOpenMP/OuterReductions.h"
#include "nx/Support/IndexingMaps.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using mlir::nx::getInnermostLoop;

/// The most iterations of a thread's tile along a transposed loop: one outer
/// block of nx-tile-transposes. A tile of 32 rows reads 128 bytes of each page
/// of the input it visits, a tile of 128 rows 512 bytes: with those tiles and
/// the outer blocks, a 2048x2048 f32 transpose took 2.6-3.2 ms at one thread on
/// the Zen 3 development VM, against 4.9-5.8 with strips of 32 rows (see
/// docs/Servers.md).
static constexpr int64_t kMaxTransposedTile = 256;

bool nx::readsLoopContiguously(linalg::LinalgOp op, unsigned loop) {
  if (op.getNumDpsInits() != 1)
    return false;
  std::optional<unsigned> written =
      getInnermostLoop(op.getMatchingIndexingMap(op.getDpsInitOperand(0)));
  if (!written || *written == loop)
    return false;
  // An input of `loop` alone (a per-row maximum a softmax subtracts) is
  // broadcast along the output's rows, not transposed: the rows are what
  // the threads should share.
  return llvm::any_of(op.getDpsInputOperands(), [&](OpOperand *input) {
    AffineMap map = op.getMatchingIndexingMap(input);
    return getInnermostLoop(map) == loop && map.isFunctionOfDim(*written);
  });
}

std::optional<int64_t> nx::getTransposedTileExtent(int64_t extent) {
  if (ShapedType::isDynamic(extent))
    return std::nullopt;
  for (int64_t tile = kMaxTransposedTile; tile >= nx::kMinTransposedTile;
       tile -= nx::kMinTransposedTile)
    if (extent % tile == 0 && extent / tile >= kEnoughWorkers)
      return tile;
  return std::nullopt;
}

/// Whether tiles of `extent` elements along the innermost dimension of
/// `output` start and end on cache lines: whole lines of an identity
/// layout, so that no two threads write one line.
static bool isLineAligned(Value output, int64_t extent) {
  constexpr int64_t kLineBits = 512;
  auto type = dyn_cast<MemRefType>(output.getType());
  return type && type.getLayout().isIdentity() &&
         type.getElementType().isIntOrFloat() &&
         extent * type.getElementTypeBitWidth() % kLineBits == 0;
}

std::optional<unsigned> nx::getTransposedColumnLoop(linalg::LinalgOp op,
                                                    unsigned outer,
                                                    int64_t minPoints) {
  if (!op.hasPureBufferSemantics() || !readsLoopContiguously(op, outer))
    return std::nullopt;
  OpOperand *output = op.getDpsInitOperand(0);
  std::optional<unsigned> written =
      getInnermostLoop(op.getMatchingIndexingMap(output));
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (!written || llvm::any_of(ranges, ShapedType::isDynamic) ||
      !linalg::isParallelIterator(op.getIteratorTypesArray()[*written]))
    return std::nullopt;
  std::optional<int64_t> tile = getTransposedTileExtent(ranges[*written]);
  if (!tile || !isLineAligned(output->get(), *tile))
    return std::nullopt;
  int64_t points = *tile;
  for (auto [loop, range] : llvm::enumerate(ranges))
    if (loop != *written)
      points = std::min(points * range, minPoints);
  if (points < minPoints)
    return std::nullopt;
  return *written;
}

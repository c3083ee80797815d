//===- TransposedTiles.h - how threads share a transpose --------*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A transpose reads its input along one loop and writes its output along
// another. nx-linalg-to-openmp shares the loop that walks the output's
// contiguous dimension when it can: each thread then reads whole rows of
// the input, which the prefetchers follow, and writes a strip of columns
// of the output. Otherwise it shares the outermost loop, whose tiles read
// only a few hundred bytes of each input row.
//
//===----------------------------------------------------------------------===//

#ifndef NX_CONVERSION_LINALGTOOPENMP_TRANSPOSEDTILES_H
#define NX_CONVERSION_LINALGTOOPENMP_TRANSPOSEDTILES_H

#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"

#include <cstdint>
#include <optional>

namespace mlir::nx {

/// The fewest iterations of a thread's tile along a transposed loop: one
/// block of nx-tile-transposes, which runs next, is then square.
inline constexpr int64_t kMinTransposedTile = 32;

/// Whether `loop` walks some input's innermost dimension but not the
/// output's, for an op with one output, and that input also spans the
/// output's innermost loop (it is read transposed, not broadcast along the
/// output's rows): a thread's share of that loop is then columns of that
/// input.
bool readsLoopContiguously(linalg::LinalgOp op, unsigned loop);

/// The extent of a thread's tile along a transposed loop of `extent`
/// iterations: the most, up to 256, that divides `extent` into at least
/// kEnoughWorkers tiles in multiples of kMinTransposedTile; nothing when
/// none does.
std::optional<int64_t> getTransposedTileExtent(int64_t extent);

/// For `op`, on buffers with static sizes, whose outermost loop of an extent
/// other than 1 (`outer`) walks an input's innermost dimension but not the
/// output's: the loop that walks its output's innermost dimension, when
/// threads may share it in tiles of getTransposedTileExtent whole cache
/// lines wide. The output must be a buffer of the identity layout, and each
/// tile at least `minPoints` iteration points.
std::optional<unsigned>
getTransposedColumnLoop(linalg::LinalgOp op, unsigned outer, int64_t minPoints);

} // namespace mlir::nx

#endif // NX_CONVERSION_LINALGTOOPENMP_TRANSPOSEDTILES_H

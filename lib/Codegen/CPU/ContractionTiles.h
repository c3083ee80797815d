//===- ContractionTiles.h - register tiles of contractions ------*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Contractions that no library takes (products of integers, of f16 and
// bf16, or of any type with nx-linalg-to-blas off) reduce along their
// innermost loop, which nx-vectorize-linalg's tiles along that loop cannot
// vectorize: left to the loop lowering, a 512x512 product of i32 ran at
// 1 GFLOP/s, each step of each dot product reading the second operand with a
// stride of a row. Here such a product is tiled into register tiles: rows of
// the output by two vectors of its contiguous columns, one step of the
// reduction per tile. Vectorized, each tile multiplies a column of the first
// operand (broadcast per row) by a row of the second and adds the product to
// the tile's accumulators, which stay in registers across the reduction loop
// once hoisted.
//
//===----------------------------------------------------------------------===//

#ifndef NX_LIB_CODEGEN_CPU_CONTRACTIONTILES_H
#define NX_LIB_CODEGEN_CPU_CONTRACTIONTILES_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"

#include <optional>

namespace mlir::nx {

/// The loops of a contraction that its register tiles split.
struct ContractionLoops {
  /// The output's contiguous dimension, read contiguously by one input (the
  /// right-hand side) and not at all by the other.
  unsigned columns;
  /// The output's next dimension when the left-hand side reads it and the
  /// right-hand side does not (a matrix product's rows); none for a product
  /// of a vector by a matrix.
  std::optional<unsigned> rows;
  /// Which input (0 or 1) is the right-hand side.
  unsigned rhs;
};

/// The loops of `op` when it is a contraction on buffers whose register
/// tiles vectorize: a multiply-add body of two inputs and one output, maps
/// that are projected permutations, and columns read contiguously by the
/// output and one input. A product whose right-hand side is read across its
/// rows (a transposed B) has none: its tiles would gather.
std::optional<ContractionLoops> matchContractionLoops(linalg::LinalgOp op);

/// The shape of a contraction's register tiles.
struct RegisterTile {
  /// Rows and columns of the output per tile.
  int64_t rows;
  int64_t columns;
  /// Steps of the reduction per block: the tiles of one block read the
  /// same `reductionBlock` x `columns` slice of B, which stays in the
  /// cache between them.
  int64_t reductionBlock;
};

/// Tiles `op` into register tiles of `shape.rows` x `shape.columns` of its
/// output by one step of each reduction loop and one of each other parallel
/// loop, the reduction loops innermost, and erases it. A single reduction
/// loop longer than `shape.reductionBlock` is first cut into blocks of that
/// many steps, outermost. The block, column and row tile loops are peeled:
/// every tile but the last of each has a static shape, and so does the last
/// when `op` is static. `tileFolding` folds those sizes into the tiles'
/// types. Returns the tiles. Fails, changing nothing, when `op` has an
/// empty loop or cannot be tiled; once `op` is tiled, a tile that cannot be
/// tiled further stays among the linalg ops, for the loop lowering, and is
/// not returned.
FailureOr<SmallVector<linalg::LinalgOp>>
tileContraction(RewriterBase &rewriter, linalg::LinalgOp op,
                const ContractionLoops &loops, const RegisterTile &shape,
                const FrozenRewritePatternSet &tileFolding);

} // namespace mlir::nx

#endif // NX_LIB_CODEGEN_CPU_CONTRACTIONTILES_H

//===- TransposeSquares.cpp - transposes as networks of shuffles ---------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "TransposeSquares.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Dialect/Vector/Utils/VectorUtils.h"

#include <algorithm>

using namespace mlir;

namespace {

/// The shuffles of one round of the network, as masks over the 16 lanes of
/// two eight-lane vectors: within each 128-bit half, interleave the low or
/// high pairs of lanes (UNPCKLPS, UNPCKHPS), take the low or high pair of
/// each (SHUFPS 0x44, 0xEE), then the low or high half of each (VPERM2F128
/// 0x20, 0x31).
constexpr int64_t kInterleaveLow[8] = {0, 8, 1, 9, 4, 12, 5, 13};
constexpr int64_t kInterleaveHigh[8] = {2, 10, 3, 11, 6, 14, 7, 15};
constexpr int64_t kLowPairs[8] = {0, 1, 8, 9, 4, 5, 12, 13};
constexpr int64_t kHighPairs[8] = {2, 3, 10, 11, 6, 7, 14, 15};
constexpr int64_t kLowHalves[8] = {0, 1, 2, 3, 8, 9, 10, 11};
constexpr int64_t kHighHalves[8] = {4, 5, 6, 7, 12, 13, 14, 15};

/// The square of eight lanes that `transpose` swaps: it moves no other
/// dimension of more than one element, and the two it swaps are 8 long.
static bool isSquareOfEight(vector::TransposeOp transpose) {
  VectorType type = transpose.getSourceVectorType();
  if (type.isScalable() || type.getElementTypeBitWidth() != 32)
    return false;
  FailureOr<std::pair<int, int>> swapped =
      vector::isTranspose2DSlice(transpose);
  return succeeded(swapped) && type.getDimSize(swapped->first) == 8 &&
         type.getDimSize(swapped->second) == 8;
}

/// A vector.transpose of an 8x8 square of 32-bit elements (with any unit
/// dimensions around it) as three rounds of eight shuffles of its rows. Row
/// i of the result is column i of the source: after the rounds, rows 0-3
/// come from the low halves and rows 4-7 from the high halves of each pair.
struct TransposeSquareOfEight : OpRewritePattern<vector::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::TransposeOp transpose,
                                PatternRewriter &rewriter) const override {
    if (!isSquareOfEight(transpose))
      return failure();
    Location loc = transpose.getLoc();
    auto square = VectorType::get(
        {8, 8}, transpose.getSourceVectorType().getElementType());
    Value source = vector::ShapeCastOp::create(rewriter, loc, square,
                                               transpose.getVector());
    auto shuffle = [&](Value a, Value b, const int64_t(&mask)[8]) -> Value {
      return vector::ShuffleOp::create(rewriter, loc, a, b, mask);
    };
    SmallVector<Value, 8> rows;
    for (int64_t i = 0; i < 8; ++i)
      rows.push_back(vector::ExtractOp::create(rewriter, loc, source, i));
    // Pairs of adjacent rows interleaved: lanes (r0[k], r1[k], ...).
    SmallVector<Value, 8> interleaved;
    for (int64_t i = 0; i < 8; i += 2) {
      interleaved.push_back(shuffle(rows[i], rows[i + 1], kInterleaveLow));
      interleaved.push_back(shuffle(rows[i], rows[i + 1], kInterleaveHigh));
    }
    // Four rows' elements of one column per quarter.
    SmallVector<Value, 8> quads;
    for (int64_t i = 0; i < 8; i += 4)
      for (int64_t j = 0; j < 2; ++j) {
        quads.push_back(
            shuffle(interleaved[i + j], interleaved[i + j + 2], kLowPairs));
        quads.push_back(
            shuffle(interleaved[i + j], interleaved[i + j + 2], kHighPairs));
      }
    // The top four rows' quarter and the bottom four's, one column each.
    Value result = arith::ConstantOp::create(rewriter, loc, square,
                                             rewriter.getZeroAttr(square));
    for (int64_t i = 0; i < 4; ++i) {
      Value low = shuffle(quads[i], quads[i + 4], kLowHalves);
      Value high = shuffle(quads[i], quads[i + 4], kHighHalves);
      result = vector::InsertOp::create(rewriter, loc, low, result, i);
      result = vector::InsertOp::create(rewriter, loc, high, result, i + 4);
    }
    rewriter.replaceOpWithNewOp<vector::ShapeCastOp>(
        transpose, transpose.getResultVectorType(), result);
    return success();
  }
};

} // namespace

void nx::populateTransposeSquarePatterns(RewritePatternSet &patterns,
                                         int64_t vectorBits) {
  vector::UnrollVectorOptions options;
  options.setFilterConstraint(
      [](Operation *op) { return success(isa<vector::TransposeOp>(op)); });
  options.setNativeShapeFn(
      [vectorBits](Operation *op) -> std::optional<SmallVector<int64_t>> {
        auto type = cast<vector::TransposeOp>(op).getResultVectorType();
        int64_t lanes =
            std::max<int64_t>(vectorBits / type.getElementTypeBitWidth(), 1);
        SmallVector<int64_t> square;
        for (int64_t size : type.getShape())
          square.push_back(std::min(size, lanes));
        return square;
      });
  vector::populateVectorUnrollPatterns(patterns, options);
  patterns.add<TransposeSquareOfEight>(patterns.getContext());
}

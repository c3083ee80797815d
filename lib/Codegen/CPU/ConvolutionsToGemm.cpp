//===- ConvolutionsToGemm.cpp - 2-D convolutions as matrix products -------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A 2-D convolution on buffers becomes linalg.matmul on matrix views of its
// operands, so the contraction runs wherever matmul runs fastest (the
// optimized BLAS in nx-lower-to-cpu). The patch matrix ("im2col") is filled
// by a copying linalg.generic, one block of output rows at a time, into one
// buffer allocated around the block loops.
//
//===----------------------------------------------------------------------===//

#include "nx/Codegen/CPU/Passes.h"
#include "nx/Support/PassStatistics.h"
#include "nx/Support/StaticBounds.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "llvm/Support/MathExtras.h"

#include <optional>

#define DEBUG_TYPE "nx-convolutions-to-gemm"

namespace mlir::nx {
#define GEN_PASS_DEF_NXCONVOLUTIONSTOGEMMPASS
#include "nx/Codegen/CPU/Passes.h.inc"
} // namespace mlir::nx

using namespace mlir;

namespace {

enum class ConvLayout { NhwcHwcf, NhwcFhwc, NchwFchw };

/// A convolution this pass lowers: its operands and static sizes.
struct Convolution {
  ConvLayout layout;
  Value input, filter, output;
  int64_t n, h, w, c, f, kh, kw, oh, ow;
  int64_t strideH, strideW, dilationH, dilationW;

  bool isNhwc() const { return layout != ConvLayout::NchwFchw; }
  /// A 1x1 convolution of stride 1 reads the input as a matrix as it is.
  bool isPointwise() const {
    return kh == 1 && kw == 1 && strideH == 1 && strideW == 1;
  }
};

} // namespace

template <typename ConvOp>
static void readStridesAndDilations(ConvOp op, Convolution &conv) {
  auto strides = op.getStrides().template getValues<int64_t>();
  auto dilations = op.getDilations().template getValues<int64_t>();
  conv.strideH = strides[0];
  conv.strideW = strides[1];
  conv.dilationH = dilations[0];
  conv.dilationW = dilations[1];
}

/// The convolution `op` is, when this pass handles it.
static std::optional<Convolution> matchConvolution(linalg::LinalgOp op) {
  Convolution conv;
  if (auto nhwc = dyn_cast<linalg::Conv2DNhwcHwcfOp>(op.getOperation())) {
    conv.layout = ConvLayout::NhwcHwcf;
    readStridesAndDilations(nhwc, conv);
  } else if (auto fhwc =
                 dyn_cast<linalg::Conv2DNhwcFhwcOp>(op.getOperation())) {
    conv.layout = ConvLayout::NhwcFhwc;
    readStridesAndDilations(fhwc, conv);
  } else if (auto nchw =
                 dyn_cast<linalg::Conv2DNchwFchwOp>(op.getOperation())) {
    conv.layout = ConvLayout::NchwFchw;
    readStridesAndDilations(nchw, conv);
  } else {
    return std::nullopt;
  }
  if (!op.hasPureBufferSemantics() || op->getNumOperands() != 3)
    return std::nullopt;
  conv.input = op->getOperand(0);
  conv.filter = op->getOperand(1);
  conv.output = op->getOperand(2);
  SmallVector<MemRefType> types;
  Type element;
  for (Value operand : op->getOperands()) {
    auto type = dyn_cast<MemRefType>(operand.getType());
    if (!type || type.getRank() != 4 || !type.hasStaticShape())
      return std::nullopt;
    for (int64_t size : type.getShape())
      if (size <= 0)
        return std::nullopt;
    if (element && type.getElementType() != element)
      return std::nullopt;
    element = type.getElementType();
    types.push_back(type);
  }
  if (!element.isF32() && !element.isF64())
    return std::nullopt;
  if (conv.strideH <= 0 || conv.strideW <= 0 || conv.dilationH <= 0 ||
      conv.dilationW <= 0)
    return std::nullopt;
  ArrayRef<int64_t> in = types[0].getShape(), fl = types[1].getShape(),
                    out = types[2].getShape();
  switch (conv.layout) {
  case ConvLayout::NhwcHwcf:
    conv.n = in[0], conv.h = in[1], conv.w = in[2], conv.c = in[3];
    conv.kh = fl[0], conv.kw = fl[1], conv.f = fl[3];
    conv.oh = out[1], conv.ow = out[2];
    break;
  case ConvLayout::NhwcFhwc:
    conv.n = in[0], conv.h = in[1], conv.w = in[2], conv.c = in[3];
    conv.f = fl[0], conv.kh = fl[1], conv.kw = fl[2];
    conv.oh = out[1], conv.ow = out[2];
    break;
  case ConvLayout::NchwFchw:
    conv.n = in[0], conv.c = in[1], conv.h = in[2], conv.w = in[3];
    conv.f = fl[0], conv.kh = fl[2], conv.kw = fl[3];
    conv.oh = out[2], conv.ow = out[3];
    break;
  }
  // The patch matrix has N*OH*OW rows of KH*KW*C elements, blocked or not;
  // sizes whose product overflows int64_t (the verifier allows them) are
  // left alone.
  int64_t rows, k, elements;
  if (llvm::MulOverflow(conv.n, conv.oh, rows) ||
      llvm::MulOverflow(rows, conv.ow, rows) ||
      llvm::MulOverflow(conv.kh, conv.kw, k) ||
      llvm::MulOverflow(k, conv.c, k) || llvm::MulOverflow(rows, k, elements))
    return std::nullopt;
  // The matrix views: the whole output (its blocks are then contiguous
  // too) and the filter must collapse without a copy.
  if (!types[2].getLayout().isIdentity())
    return std::nullopt;
  SmallVector<ReassociationIndices> filterGroups =
      conv.layout == ConvLayout::NhwcHwcf
          ? SmallVector<ReassociationIndices>{{0, 1, 2}, {3}}
          : SmallVector<ReassociationIndices>{{0}, {1, 2, 3}};
  if (!memref::CollapseShapeOp::isGuaranteedCollapsible(types[1], filterGroups))
    return std::nullopt;
  // The pointwise NCHW product reads each image as a [C, H*W] matrix.
  if (conv.layout == ConvLayout::NchwFchw && conv.isPointwise() &&
      !types[0].getLayout().isIdentity())
    return std::nullopt;
  return conv;
}

/// Builds `body` inside loops over [0, trip * step) by step, one per entry;
/// a loop of one trip is none, its induction variable the constant 0.
static void buildBlockLoops(OpBuilder &builder, Location loc,
                            ArrayRef<int64_t> trips, ArrayRef<int64_t> steps,
                            function_ref<void(ArrayRef<OpFoldResult>)> body) {
  OpBuilder::InsertionGuard guard(builder);
  SmallVector<OpFoldResult> ivs;
  for (auto [trip, step] : llvm::zip_equal(trips, steps)) {
    if (trip == 1) {
      ivs.push_back(builder.getIndexAttr(0));
      continue;
    }
    Value lower = arith::ConstantIndexOp::create(builder, loc, 0);
    Value upper = arith::ConstantIndexOp::create(builder, loc, trip * step);
    Value stepValue = arith::ConstantIndexOp::create(builder, loc, step);
    auto loop = scf::ForOp::create(builder, loc, lower, upper, stepValue);
    builder.setInsertionPoint(loop.getBody()->getTerminator());
    ivs.push_back(loop.getInductionVar());
  }
  body(ivs);
}

/// `value * factor` as an index.
static OpFoldResult multiply(OpBuilder &builder, Location loc,
                             OpFoldResult value, int64_t factor) {
  if (std::optional<int64_t> constant = getConstantIntValue(value))
    return builder.getIndexAttr(*constant * factor);
  if (factor == 1)
    return value;
  Value factorValue = arith::ConstantIndexOp::create(builder, loc, factor);
  return arith::MulIOp::create(builder, loc, cast<Value>(value), factorValue)
      .getResult();
}

/// The largest divisor of `total` that is at most `limit` (at least 1).
static int64_t largestDivisorAtMost(int64_t total, int64_t limit) {
  for (int64_t d = std::min(total, std::max<int64_t>(limit, 1)); d > 1; --d)
    if (total % d == 0)
      return d;
  return 1;
}

/// The filter as the B operand ([K, F], NHWC) or A operand ([F, K], NCHW).
static Value buildFilterMatrix(OpBuilder &builder, Location loc,
                               const Convolution &conv) {
  switch (conv.layout) {
  case ConvLayout::NhwcHwcf:
    return memref::CollapseShapeOp::create(
        builder, loc, conv.filter,
        ArrayRef<ReassociationIndices>{{0, 1, 2}, {3}});
  case ConvLayout::NhwcFhwc: {
    Value rows = memref::CollapseShapeOp::create(
        builder, loc, conv.filter,
        ArrayRef<ReassociationIndices>{{0}, {1, 2, 3}});
    AffineMap transpose = AffineMap::getPermutationMap(ArrayRef<unsigned>{1, 0},
                                                       builder.getContext());
    return memref::TransposeOp::create(builder, loc, rows,
                                       AffineMapAttr::get(transpose));
  }
  case ConvLayout::NchwFchw:
    return memref::CollapseShapeOp::create(
        builder, loc, conv.filter,
        ArrayRef<ReassociationIndices>{{0}, {1, 2, 3}});
  }
  llvm_unreachable("unknown layout");
}

/// A linalg.generic copying `source` into `target` along `maps`.
static void buildCopy(OpBuilder &builder, Location loc, Value source,
                      Value target, ArrayRef<AffineMap> maps) {
  SmallVector<utils::IteratorType> iterators(maps[0].getNumDims(),
                                             utils::IteratorType::parallel);
  linalg::GenericOp::create(
      builder, loc, TypeRange{}, ValueRange{source}, ValueRange{target}, maps,
      iterators, [](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        linalg::YieldOp::create(nested, nestedLoc, args[0]);
      });
}

/// NHWC: out[N*OH*OW, F] += patch[N*OH*OW, K] x filter[K, F].
static bool lowerNhwc(OpBuilder &builder, Location loc, const Convolution &conv,
                      int64_t rowBlock) {
  auto inputType = cast<MemRefType>(conv.input.getType());
  Type element = inputType.getElementType();
  SmallVector<OpFoldResult> ones(4, builder.getIndexAttr(1));
  if (conv.isPointwise()) {
    SmallVector<ReassociationIndices> groups{{0, 1, 2}, {3}};
    if (memref::CollapseShapeOp::isGuaranteedCollapsible(inputType, groups)) {
      Value filter = buildFilterMatrix(builder, loc, conv);
      Value input =
          memref::CollapseShapeOp::create(builder, loc, conv.input, groups);
      Value output =
          memref::CollapseShapeOp::create(builder, loc, conv.output, groups);
      linalg::MatmulOp::create(builder, loc, ValueRange{input, filter},
                               ValueRange{output});
      return false;
    }
  }
  // Blocks of `imagesPerBlock` whole images, or of `rowsPerBlock` output
  // rows of one image.
  int64_t imageRows = conv.oh * conv.ow;
  int64_t imagesPerBlock = 1, rowsPerBlock = conv.oh;
  if (imageRows <= rowBlock)
    imagesPerBlock = largestDivisorAtMost(conv.n, rowBlock / imageRows);
  else
    rowsPerBlock = largestDivisorAtMost(conv.oh, rowBlock / conv.ow);
  int64_t k = conv.kh * conv.kw * conv.c;
  int64_t patchRows = imagesPerBlock * rowsPerBlock * conv.ow;
  auto patchType = MemRefType::get({patchRows, k}, element);
  Value patch = memref::AllocOp::create(builder, loc, patchType,
                                        builder.getI64IntegerAttr(64));
  Value patch6 = memref::ExpandShapeOp::create(
      builder, loc,
      ArrayRef<int64_t>{imagesPerBlock, rowsPerBlock, conv.ow, conv.kh, conv.kw,
                        conv.c},
      patch, ArrayRef<ReassociationIndices>{{0, 1, 2}, {3, 4, 5}});
  Value filter = buildFilterMatrix(builder, loc, conv);

  // Iteration (oh, n, ow, kh, kw, c): the output row outermost, so the
  // copy's outer loop has many iterations to share among threads.
  MLIRContext *context = builder.getContext();
  AffineExpr oh, n, ow, kh, kw, c;
  bindDims(context, oh, n, ow, kh, kw, c);
  AffineMap inputMap =
      AffineMap::get(6, 0,
                     {n, oh * conv.strideH + kh * conv.dilationH,
                      ow * conv.strideW + kw * conv.dilationW, c},
                     context);
  AffineMap patchMap = AffineMap::get(6, 0, {n, oh, ow, kh, kw, c}, context);
  int64_t inputRows =
      (rowsPerBlock - 1) * conv.strideH + (conv.kh - 1) * conv.dilationH + 1;

  buildBlockLoops(
      builder, loc, {conv.n / imagesPerBlock, conv.oh / rowsPerBlock},
      {imagesPerBlock, rowsPerBlock}, [&](ArrayRef<OpFoldResult> ivs) {
        OpFoldResult image = ivs[0], row = ivs[1];
        OpFoldResult zero = builder.getIndexAttr(0);
        Value rows = memref::SubViewOp::create(
            builder, loc, conv.input,
            {image, multiply(builder, loc, row, conv.strideH), zero, zero},
            {builder.getIndexAttr(imagesPerBlock),
             builder.getIndexAttr(inputRows), builder.getIndexAttr(conv.w),
             builder.getIndexAttr(conv.c)},
            ones);
        buildCopy(builder, loc, rows, patch6, {inputMap, patchMap});
        Value block = memref::SubViewOp::create(
            builder, loc, conv.output, {image, row, zero, zero},
            {builder.getIndexAttr(imagesPerBlock),
             builder.getIndexAttr(rowsPerBlock), builder.getIndexAttr(conv.ow),
             builder.getIndexAttr(conv.f)},
            ones);
        Value output = memref::CollapseShapeOp::create(
            builder, loc, block,
            ArrayRef<ReassociationIndices>{{0, 1, 2}, {3}});
        linalg::MatmulOp::create(builder, loc, ValueRange{patch, filter},
                                 ValueRange{output});
      });
  memref::DeallocOp::create(builder, loc, patch);
  return true;
}

/// NCHW, per image: out[F, OH*OW] += filter[F, K] x patch[K, OH*OW].
static bool lowerNchw(OpBuilder &builder, Location loc, const Convolution &conv,
                      int64_t rowBlock) {
  auto inputType = cast<MemRefType>(conv.input.getType());
  auto outputType = cast<MemRefType>(conv.output.getType());
  Type element = inputType.getElementType();
  MLIRContext *context = builder.getContext();
  SmallVector<OpFoldResult> ones(4, builder.getIndexAttr(1));
  OpFoldResult zero = builder.getIndexAttr(0);
  auto index = [&](int64_t value) -> OpFoldResult {
    return builder.getIndexAttr(value);
  };
  Value filter = buildFilterMatrix(builder, loc, conv);
  bool pointwise = conv.isPointwise();
  int64_t rowsPerBlock =
      pointwise ? conv.oh
                : largestDivisorAtMost(
                      conv.oh, std::max<int64_t>(rowBlock / conv.ow, 1));
  int64_t k = conv.c * conv.kh * conv.kw;
  Value patch, patch5;
  if (!pointwise) {
    auto patchType = MemRefType::get({k, rowsPerBlock * conv.ow}, element);
    patch = memref::AllocOp::create(builder, loc, patchType,
                                    builder.getI64IntegerAttr(64));
    patch5 = memref::ExpandShapeOp::create(
        builder, loc,
        ArrayRef<int64_t>{conv.c, conv.kh, conv.kw, rowsPerBlock, conv.ow},
        patch, ArrayRef<ReassociationIndices>{{0, 1, 2}, {3, 4}});
  }
  AffineExpr c, kh, kw, oh, ow;
  bindDims(context, c, kh, kw, oh, ow);
  AffineMap inputMap =
      AffineMap::get(5, 0,
                     {c, oh * conv.strideH + kh * conv.dilationH,
                      ow * conv.strideW + kw * conv.dilationW},
                     context);
  AffineMap patchMap = AffineMap::getMultiDimIdentityMap(5, context);
  int64_t inputRows =
      (rowsPerBlock - 1) * conv.strideH + (conv.kh - 1) * conv.dilationH + 1;

  buildBlockLoops(
      builder, loc, {conv.n, conv.oh / rowsPerBlock}, {1, rowsPerBlock},
      [&](ArrayRef<OpFoldResult> ivs) {
        OpFoldResult image = ivs[0], row = ivs[1];
        SmallVector<OpFoldResult> inOffsets{
            image, zero, multiply(builder, loc, row, conv.strideH), zero};
        SmallVector<OpFoldResult> inSizes{index(1), index(conv.c),
                                          index(inputRows), index(conv.w)};
        auto rowsType = memref::SubViewOp::inferRankReducedResultType(
            {conv.c, inputRows, conv.w}, inputType, inOffsets, inSizes, ones);
        Value rows = memref::SubViewOp::create(
            builder, loc, rowsType, conv.input, inOffsets, inSizes, ones);
        Value matrix;
        if (pointwise) {
          matrix = memref::CollapseShapeOp::create(
              builder, loc, rows, ArrayRef<ReassociationIndices>{{0}, {1, 2}});
        } else {
          buildCopy(builder, loc, rows, patch5, {inputMap, patchMap});
          matrix = patch;
        }
        SmallVector<OpFoldResult> outOffsets{image, zero, row, zero};
        SmallVector<OpFoldResult> outSizes{index(1), index(conv.f),
                                           index(rowsPerBlock), index(conv.ow)};
        auto blockType = memref::SubViewOp::inferRankReducedResultType(
            {conv.f, rowsPerBlock, conv.ow}, outputType, outOffsets, outSizes,
            ones);
        Value block = memref::SubViewOp::create(
            builder, loc, blockType, conv.output, outOffsets, outSizes, ones);
        Value output = memref::CollapseShapeOp::create(
            builder, loc, block, ArrayRef<ReassociationIndices>{{0}, {1, 2}});
        linalg::MatmulOp::create(builder, loc, ValueRange{filter, matrix},
                                 ValueRange{output});
      });
  if (patch)
    memref::DeallocOp::create(builder, loc, patch);
  return patch != nullptr;
}

namespace {

struct NxConvolutionsToGemmPass
    : nx::impl::NxConvolutionsToGemmPassBase<NxConvolutionsToGemmPass> {
  using Base::Base;

  void runOnOperation() override {
    if (failed(nx::verifyStaticBoundsBeforeRewrite(getOperation())))
      return signalPassFailure();
    SmallVector<std::pair<Operation *, Convolution>> convolutions;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (std::optional<Convolution> conv = matchConvolution(op))
        convolutions.emplace_back(op, *conv);
    });
    int64_t rows = std::max<int64_t>(rowBlock, 1);
    for (auto &[op, conv] : convolutions) {
      OpBuilder builder(op);
      bool im2col = conv.isNhwc()
                        ? lowerNhwc(builder, op->getLoc(), conv, rows)
                        : lowerNchw(builder, op->getLoc(), conv, rows);
      op->erase();
      nx::addStatistic(numConvolutions);
      if (im2col)
        nx::addStatistic(numIm2Col);
    }
  }
};

} // namespace

#undef DEBUG_TYPE

//===- Convolutions3DTo2D.cpp - 3-D convolutions as sums of 2-D ones -----===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The library calls and the GEMM lowering take 2-D convolutions. A 3-D one
// is the sum, over the planes of its kernel, of 2-D convolutions: kernel
// plane kd meets image planes kd * dilation + od * stride for every output
// plane od. With the batch and the output depth as one batch dimension,
// each is one 2-D NHWC convolution that accumulates into the output, as a
// linalg convolution does into its init. The NCDHW layouts, whose depth is
// not next to their batch, are transposed to NDHWC first: a transpose of
// the image, the kernel and the result costs a few passes over memory, the
// seven loops of a convolution left as it was 27x PyTorch's time.
//
//===----------------------------------------------------------------------===//

#include "nx/Transforms/Convolutions3DTo2D.h"

#include "nx/Support/PassStatistics.h"
#include "nx/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

#define DEBUG_TYPE "nx-convolutions-3d-to-2d"

namespace mlir::nx {
#define GEN_PASS_DEF_NXCONVOLUTIONS3DTO2DPASS
#include "nx/Transforms/Passes.h.inc"
} // namespace mlir::nx

using namespace mlir;

/// The reassociation that makes a rank-`rank` value's first two dimensions
/// (batch and depth) one.
static SmallVector<ReassociationIndices> batchAndDepthAsOne(int64_t rank) {
  SmallVector<ReassociationIndices> groups{{0, 1}};
  for (int64_t dim = 2; dim < rank; ++dim)
    groups.push_back({dim});
  return groups;
}

/// The image planes kernel plane `plane` meets, `outputDepth` of them, as
/// an image whose batch is the batch times the output depth. The collapse
/// bufferizes to a view when those planes are one run of memory (a batch of
/// one, a depth stride of 1) and to a copy otherwise.
static Value imagePlanes(PatternRewriter &rewriter, Location loc, Value image,
                         int64_t plane, int64_t stride, int64_t dilation,
                         OpFoldResult outputDepth) {
  auto type = cast<RankedTensorType>(image.getType());
  int64_t rank = type.getRank();
  SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0));
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(rewriter, loc, image);
  SmallVector<OpFoldResult> steps(rank, rewriter.getIndexAttr(1));
  offsets[1] = rewriter.getIndexAttr(plane * dilation);
  sizes[1] = outputDepth;
  steps[1] = rewriter.getIndexAttr(stride);
  Value planes = tensor::ExtractSliceOp::create(rewriter, loc, image, offsets,
                                                sizes, steps);
  return tensor::CollapseShapeOp::create(rewriter, loc, planes,
                                         batchAndDepthAsOne(rank));
}

/// Plane `plane` of `kernel` (depth first), without its depth dimension.
static Value kernelPlane(PatternRewriter &rewriter, Location loc, Value kernel,
                         int64_t plane) {
  auto type = cast<RankedTensorType>(kernel.getType());
  int64_t rank = type.getRank();
  SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0));
  SmallVector<OpFoldResult> sizes =
      tensor::getMixedSizes(rewriter, loc, kernel);
  SmallVector<OpFoldResult> steps(rank, rewriter.getIndexAttr(1));
  offsets[0] = rewriter.getIndexAttr(plane);
  sizes[0] = rewriter.getIndexAttr(1);
  auto planeType = RankedTensorType::get(type.getShape().drop_front(),
                                         type.getElementType());
  return tensor::ExtractSliceOp::create(rewriter, loc, planeType, kernel,
                                        offsets, sizes, steps);
}

/// `attr` (strides or dilations of depth, height and width) without the
/// depth's.
static DenseIntElementsAttr heightAndWidth(PatternRewriter &rewriter,
                                           DenseIntElementsAttr attr) {
  auto values = llvm::to_vector(attr.getValues<int64_t>());
  return rewriter.getI64TensorAttr(ArrayRef(values).drop_front());
}

/// The NDHWC convolution of `image` by `kernel` (depth first) into `init`,
/// as one `Op2D` per kernel plane, each accumulating into the one before.
template <typename Op2D>
static Value sumOfPlanes(PatternRewriter &rewriter, Location loc, Value image,
                         Value kernel, Value init, DenseIntElementsAttr strides,
                         DenseIntElementsAttr dilations) {
  int64_t kernelDepth = cast<RankedTensorType>(kernel.getType()).getDimSize(0);
  int64_t depthStride = *strides.getValues<int64_t>().begin();
  int64_t depthDilation = *dilations.getValues<int64_t>().begin();
  auto resultType = cast<RankedTensorType>(init.getType());
  SmallVector<OpFoldResult> resultShape =
      tensor::getMixedSizes(rewriter, loc, init);
  auto groups = batchAndDepthAsOne(resultType.getRank());
  Value sum = tensor::CollapseShapeOp::create(rewriter, loc, init, groups);
  for (int64_t plane = 0; plane < kernelDepth; ++plane) {
    Value planes = imagePlanes(rewriter, loc, image, plane, depthStride,
                               depthDilation, resultShape[1]);
    Value weights = kernelPlane(rewriter, loc, kernel, plane);
    sum = Op2D::create(rewriter, loc, TypeRange{sum.getType()},
                       ValueRange{planes, weights}, ValueRange{sum},
                       heightAndWidth(rewriter, strides),
                       heightAndWidth(rewriter, dilations))
              .getResult(0);
  }
  return tensor::ExpandShapeOp::create(rewriter, loc, resultType, sum, groups,
                                       resultShape);
}

/// Why `op`, a 3-D convolution whose kernel has its depth in dimension
/// `depthDim`, is not rewritten, or nothing when it is.
static std::optional<StringRef>
whyLeftAlone(linalg::LinalgOp op, unsigned depthDim, int64_t maxKernelDepth,
             DenseIntElementsAttr strides, DenseIntElementsAttr dilations) {
  // Static sizes only: with dynamic ones, the collapsed batches' views
  // crashed upstream's expand-strided-metadata (found by fuzzing).
  if (!op.hasPureTensorSemantics() || op.hasDynamicShape())
    return StringRef("not on static tensors");
  // The linalg verifier takes any strides and dilations; a plane's slice
  // needs positive ones (a dilation of -1 made an offset of -1, found by
  // fuzzing).
  auto positive = [](DenseIntElementsAttr values) {
    return llvm::all_of(values.getValues<int64_t>(),
                        [](int64_t value) { return value > 0; });
  };
  if (!positive(strides) || !positive(dilations))
    return StringRef("strides or dilations not positive");
  int64_t kernelDepth = cast<RankedTensorType>(op.getDpsInputs()[1].getType())
                            .getDimSize(depthDim);
  if (ShapedType::isDynamic(kernelDepth) || kernelDepth > maxKernelDepth)
    return StringRef("kernel depth not static or large");
  return std::nullopt;
}

/// `value` with its dimensions permuted (dimension i of the result is
/// dimension `permutation[i]` of `value`), in a tensor of its own.
static Value transposed(PatternRewriter &rewriter, Location loc, Value value,
                        ArrayRef<int64_t> permutation) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> shape = applyPermutation(type.getShape(), permutation);
  Value empty =
      tensor::EmptyOp::create(rewriter, loc, shape, type.getElementType());
  return linalg::TransposeOp::create(rewriter, loc, value, empty, permutation)
      .getResult()[0];
}

namespace {

/// `Op3D` (NDHWC image, kernel depth first) as one `Op2D` per kernel plane.
template <typename Op3D, typename Op2D>
struct Convolution3DTo2D final : OpRewritePattern<Op3D> {
  Convolution3DTo2D(MLIRContext *context, int64_t maxKernelDepth)
      : OpRewritePattern<Op3D>(context), maxKernelDepth(maxKernelDepth) {}

  LogicalResult matchAndRewrite(Op3D op,
                                PatternRewriter &rewriter) const override {
    if (std::optional<StringRef> why =
            whyLeftAlone(op, /*depthDim=*/0, maxKernelDepth, op.getStrides(),
                         op.getDilations()))
      return rewriter.notifyMatchFailure(op, *why);
    rewriter.replaceOp(
        op, sumOfPlanes<Op2D>(rewriter, op.getLoc(), op.getInputs()[0],
                              op.getInputs()[1], op.getOutputs()[0],
                              op.getStrides(), op.getDilations()));
    return success();
  }

  int64_t maxKernelDepth;
};

/// NCDHW images and outputs move their channels last.
constexpr int64_t kChannelsLast[] = {0, 2, 3, 4, 1};
constexpr int64_t kChannelsFirst[] = {0, 4, 1, 2, 3};

/// `OpNcdhw` (NCDHW image and output) as the same convolution of NDHWC
/// ones, each kernel plane an `Op2D`: its image, kernel and init transposed
/// (the kernel by `kernelToDepthFirst`, into the NDHWC op's layout), and
/// the sum transposed back.
template <typename OpNcdhw, typename Op2D>
struct ChannelsFirst3DTo2D final : OpRewritePattern<OpNcdhw> {
  ChannelsFirst3DTo2D(MLIRContext *context, int64_t maxKernelDepth,
                      ArrayRef<int64_t> kernelToDepthFirst)
      : OpRewritePattern<OpNcdhw>(context), maxKernelDepth(maxKernelDepth),
        kernelToDepthFirst(kernelToDepthFirst) {}

  LogicalResult matchAndRewrite(OpNcdhw op,
                                PatternRewriter &rewriter) const override {
    if (std::optional<StringRef> why =
            whyLeftAlone(op, kernelToDepthFirst.front(), maxKernelDepth,
                         op.getStrides(), op.getDilations()))
      return rewriter.notifyMatchFailure(op, *why);
    Location loc = op.getLoc();
    Value image = transposed(rewriter, loc, op.getInputs()[0], kChannelsLast);
    Value kernel =
        transposed(rewriter, loc, op.getInputs()[1], kernelToDepthFirst);
    Value init = transposed(rewriter, loc, op.getOutputs()[0], kChannelsLast);
    Value sum = sumOfPlanes<Op2D>(rewriter, loc, image, kernel, init,
                                  op.getStrides(), op.getDilations());
    rewriter.replaceOp(op, transposed(rewriter, loc, sum, kChannelsFirst));
    return success();
  }

  int64_t maxKernelDepth;
  SmallVector<int64_t> kernelToDepthFirst;
};

/// The 3-D convolutions of `root` that the patterns rewrite (on tensors or
/// not, whatever their kernel depth).
int64_t count3DConvolutions(Operation *root) {
  int64_t count = 0;
  root->walk([&](Operation *op) {
    count +=
        isa<linalg::Conv3DNdhwcDhwcfOp, linalg::DepthwiseConv3DNdhwcDhwcOp,
            linalg::Conv3DNcdhwFcdhwOp, linalg::DepthwiseConv3DNcdhwCdhwOp>(op);
  });
  return count;
}

struct NxConvolutions3DTo2DPass
    : nx::impl::NxConvolutions3DTo2DPassBase<NxConvolutions3DTo2DPass> {
  using Base::Base;

  void runOnOperation() override {
    int64_t before = count3DConvolutions(getOperation());
    RewritePatternSet patterns(&getContext());
    nx::populateConvolutions3DTo2DPatterns(patterns, maxKernelDepth);
    walkAndApplyPatterns(getOperation(), std::move(patterns));
    int64_t after = count3DConvolutions(getOperation());
    nx::addStatistic(numRewritten, before - after);
  }
};

} // namespace

void nx::populateConvolutions3DTo2DPatterns(RewritePatternSet &patterns,
                                            int64_t maxKernelDepth) {
  MLIRContext *context = patterns.getContext();
  patterns.add<
      Convolution3DTo2D<linalg::Conv3DNdhwcDhwcfOp, linalg::Conv2DNhwcHwcfOp>>(
      context, maxKernelDepth);
  patterns.add<Convolution3DTo2D<linalg::DepthwiseConv3DNdhwcDhwcOp,
                                 linalg::DepthwiseConv2DNhwcHwcOp>>(
      context, maxKernelDepth);
  // FCDHW kernels become DHWCF, CDHW ones DHWC.
  patterns.add<ChannelsFirst3DTo2D<linalg::Conv3DNcdhwFcdhwOp,
                                   linalg::Conv2DNhwcHwcfOp>>(
      context, maxKernelDepth, ArrayRef<int64_t>{2, 3, 4, 1, 0});
  patterns.add<ChannelsFirst3DTo2D<linalg::DepthwiseConv3DNcdhwCdhwOp,
                                   linalg::DepthwiseConv2DNhwcHwcOp>>(
      context, maxKernelDepth, ArrayRef<int64_t>{1, 2, 3, 0});
}

#undef DEBUG_TYPE

//===- LinalgToDnnl.cpp - linalg convolutions to libnxrt's oneDNN ---------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A 2-D convolution on f32 buffers becomes one call of nxrt_conv2d_f32 with
// the operands' base pointers, sizes and element strides, read from the
// memrefs' descriptors at run time, in the runtime's order of dimensions
// (input: batch, channel, row, column; filter: group, output channel, input
// channel, row, column). Every layout is a permutation of those strides; a
// depthwise convolution is a grouped one, with one channel per group.
// The call also absorbs the convolution's neighbors (FusedNeighbors.h): a
// zero padding of its input, a zero fill of its output, and a bias and
// ReLU applied to its output in place.
//
//===----------------------------------------------------------------------===//

#include "nx/Conversion/LinalgToDnnl/LinalgToDnnl.h"
#include "FusedNeighbors.h"
#include "nx/Conversion/LinalgToBlas/Epilogue.h"
#include "nx/Conversion/LinalgToBlas/LinalgToBlas.h"
#include "nx/Conversion/NxToLLVM/RuntimeSymbols.h"
#include "nx/Conversion/Passes.h"
#include "nx/Support/PassStatistics.h"
#include "nx/Support/StaticBounds.h"
#include "nxrt/nxrt.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/FunctionCallUtils.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <array>
#include <optional>

#define DEBUG_TYPE "nx-linalg-to-dnnl"

namespace mlir::nx {
#define GEN_PASS_DEF_NXLINALGTODNNLPASS
#include "nx/Conversion/Passes.h.inc"
} // namespace mlir::nx

using namespace mlir;
namespace symbols = mlir::nx::runtime_symbols;

namespace {

/// Where each of the runtime's dimensions is in an operand's memref, or
/// kAbsent: input and output (batch, channel, row, column), filter (group,
/// output channel, input channel, row, column).
constexpr int kAbsent = -1;
struct ConvLayout {
  std::array<int, 4> input;
  std::array<int, 5> filter;
  std::array<int, 4> output;
  bool depthwise;
  /// Grouped layouts: where the group dimension is in the input and the
  /// output memrefs, right before the channels of its group. The two are
  /// collapsed into one (the runtime's channel, g * C + c) before the
  /// positions above apply.
  int groupDim = kAbsent;
};

constexpr ConvLayout kNhwcHwcf{
    {0, 3, 1, 2}, {kAbsent, 3, 2, 0, 1}, {0, 3, 1, 2}, false};
constexpr ConvLayout kNhwcFhwc{
    {0, 3, 1, 2}, {kAbsent, 0, 3, 1, 2}, {0, 3, 1, 2}, false};
constexpr ConvLayout kNchwFchw{
    {0, 1, 2, 3}, {kAbsent, 0, 1, 2, 3}, {0, 1, 2, 3}, false};
constexpr ConvLayout kDepthwiseNhwcHwc{
    {0, 3, 1, 2}, {2, kAbsent, kAbsent, 0, 1}, {0, 3, 1, 2}, true};
// NGCHW / GFCHW: NCHW once G and C are one dimension.
constexpr ConvLayout kNgchwGfchw{
    {0, 1, 2, 3}, {0, 1, 2, 3, 4}, {0, 1, 2, 3}, false, 1};
// NHWGC / GFHWC: NHWC once G and C are one dimension.
constexpr ConvLayout kNhwgcGfhwc{
    {0, 3, 1, 2}, {0, 1, 4, 2, 3}, {0, 3, 1, 2}, false, 3};

/// A convolution this pass converts: its layout, strides and dilations.
struct Convolution {
  ConvLayout layout;
  int64_t strides[2], dilations[2];
};

template <typename ConvOp>
Convolution describe(ConvOp op, const ConvLayout &layout) {
  Convolution conv{layout, {}, {}};
  auto strides = op.getStrides().template getValues<int64_t>();
  auto dilations = op.getDilations().template getValues<int64_t>();
  for (int i = 0; i < 2; ++i) {
    conv.strides[i] = strides[i];
    conv.dilations[i] = dilations[i];
  }
  return conv;
}

std::optional<Convolution> matchConvolution(linalg::LinalgOp op) {
  Operation *operation = op.getOperation();
  if (auto conv = dyn_cast<linalg::Conv2DNhwcHwcfOp>(operation))
    return describe(conv, kNhwcHwcf);
  if (auto conv = dyn_cast<linalg::Conv2DNhwcFhwcOp>(operation))
    return describe(conv, kNhwcFhwc);
  if (auto conv = dyn_cast<linalg::Conv2DNchwFchwOp>(operation))
    return describe(conv, kNchwFchw);
  if (auto conv = dyn_cast<linalg::DepthwiseConv2DNhwcHwcOp>(operation))
    return describe(conv, kDepthwiseNhwcHwc);
  if (auto conv = dyn_cast<linalg::Conv2DNgchwGfchwOp>(operation))
    return describe(conv, kNgchwGfchw);
  if (auto conv = dyn_cast<linalg::Conv2DNhwgcGfhwcOp>(operation))
    return describe(conv, kNhwgcGfhwc);
  return std::nullopt;
}

/// The reassociation that makes dimension `groupDim` of a rank-5 memref
/// and the one after it one dimension.
SmallVector<ReassociationIndices> getGroupCollapse(int groupDim) {
  SmallVector<ReassociationIndices> groups;
  for (int64_t dim = 0; dim < 5; ++dim) {
    if (dim == groupDim + 1)
      groups.back().push_back(dim);
    else
      groups.push_back({dim});
  }
  return groups;
}

/// Whether a grouped convolution's input and output lay each group's
/// channels right after the previous group's, which the runtime's one
/// channel index needs: their layouts say so.
bool hasContiguousGroups(linalg::LinalgOp op, const ConvLayout &layout) {
  if (layout.groupDim == kAbsent)
    return true;
  return llvm::all_of(ArrayRef<Value>{op->getOperand(0), op->getOperand(2)},
                      [&](Value operand) {
                        auto type = dyn_cast<MemRefType>(operand.getType());
                        return type && type.getRank() == 5 &&
                               memref::CollapseShapeOp::isGuaranteedCollapsible(
                                   type, getGroupCollapse(layout.groupDim));
                      });
}

/// Whether `op` is a convolution this pass turns into a call.
bool isConvertible(linalg::LinalgOp op) {
  std::optional<Convolution> conv = matchConvolution(op);
  return conv && op.hasPureBufferSemantics() && op->getNumOperands() == 3 &&
         llvm::all_of(
             op->getOperandTypes(),
             [](Type type) { return getElementTypeOrSelf(type).isF32(); }) &&
         hasContiguousGroups(op, conv->layout);
}

/// `buffer` with its groups and their channels as one dimension, for a
/// grouped layout; `buffer` itself otherwise.
Value collapseGroups(PatternRewriter &rewriter, Location loc, Value buffer,
                     const ConvLayout &layout) {
  if (layout.groupDim == kAbsent)
    return buffer;
  return memref::CollapseShapeOp::create(rewriter, loc, buffer,
                                         getGroupCollapse(layout.groupDim));
}

/// The bias and ReLU after the convolution `op` that oneDNN can apply. A
/// bias is only taken when `accumulating` is false: oneDNN adds it before
/// the old output, which would reorder the sum.
std::optional<nx::Epilogue> findConvolutionEpilogue(linalg::LinalgOp op,
                                                    const ConvLayout &layout,
                                                    bool accumulating) {
  std::optional<nx::Epilogue> epilogue = nx::findEpilogue(op, layout.output[1]);
  if (epilogue && epilogue->bias && accumulating)
    return std::nullopt;
  return epilogue;
}

/// The parameters of nxrt_conv2d_f32: 14 sizes, the padding before rows
/// and columns and the flags, then pointer and strides of the input (4),
/// the filter (5), the bias (1) and the output (4).
SmallVector<Type> getConvParameterTypes(MLIRContext *context) {
  Type i64 = IntegerType::get(context, 64);
  Type ptr = LLVM::LLVMPointerType::get(context);
  SmallVector<Type> types(17, i64);
  for (int strides : {4, 5, 1, 4}) {
    types.push_back(ptr);
    types.append(strides, i64);
  }
  return types;
}

/// The call's first 10 arguments: batch, groups, input and output channels
/// per group, input rows and columns, filter rows and columns, output rows
/// and columns, read from the operands' sizes (`one` for a group of one).
SmallVector<Value> getSizeArguments(const ConvLayout &layout,
                                    const nx::BufferArguments &input,
                                    const nx::BufferArguments &filter,
                                    const nx::BufferArguments &output,
                                    Value one) {
  Value channels = input.sizes[layout.input[1]];
  SmallVector<Value> arguments{input.sizes[layout.input[0]]};
  if (layout.depthwise)
    llvm::append_range(arguments, ArrayRef<Value>{channels, one, one});
  else if (layout.groupDim != kAbsent)
    llvm::append_range(arguments,
                       ArrayRef<Value>{filter.sizes[layout.filter[0]],
                                       filter.sizes[layout.filter[2]],
                                       filter.sizes[layout.filter[1]]});
  else
    llvm::append_range(
        arguments,
        ArrayRef<Value>{one, channels, output.sizes[layout.output[1]]});
  llvm::append_range(
      arguments,
      ArrayRef<Value>{
          input.sizes[layout.input[2]], input.sizes[layout.input[3]],
          filter.sizes[layout.filter[3]], filter.sizes[layout.filter[4]],
          output.sizes[layout.output[2]], output.sizes[layout.output[3]]});
  return arguments;
}

struct ConvolutionToDnnl : OpInterfaceRewritePattern<linalg::LinalgOp> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;

  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rewriter) const override {
    if (!isConvertible(op))
      return rewriter.notifyMatchFailure(
          op, "not an f32 2-D convolution on buffers of a known layout");
    auto module = op->getParentOfType<ModuleOp>();
    if (!module)
      return rewriter.notifyMatchFailure(op, "not in a module");
    MLIRContext *context = op.getContext();
    // The declaration first: nothing may change when the match fails.
    FailureOr<LLVM::LLVMFuncOp> callee = LLVM::lookupOrCreateFn(
        rewriter, module, symbols::kConv2dF32, getConvParameterTypes(context),
        LLVM::LLVMVoidType::get(context));
    if (failed(callee))
      return rewriter.notifyMatchFailure(op,
                                         "nxrt_conv2d_f32 has another type");

    Convolution conv = *matchConvolution(op);
    const ConvLayout &layout = conv.layout;
    // Looked for before the call's operands add uses of the values they
    // inspect.
    // A grouped convolution's padding and epilogue stay ops of their own:
    // their buffers have the group dimension the call's do not.
    bool grouped = layout.groupDim != kAbsent;
    linalg::FillOp zeroFill = nx::dnnl::findZeroFill(op);
    std::optional<nx::dnnl::ZeroPad> pad;
    std::optional<nx::Epilogue> epilogue;
    if (!grouped) {
      pad = nx::dnnl::findZeroPad(op, layout.input[2], layout.input[3]);
      epilogue =
          findConvolutionEpilogue(op, layout, /*accumulating=*/!zeroFill);
    }
    Location loc = op.getLoc();
    Type i64 = rewriter.getI64Type();
    auto constant = [&](int64_t value) -> Value {
      return arith::ConstantIntOp::create(rewriter, loc, i64, value);
    };
    nx::BufferArguments input = nx::getBufferArguments(
        rewriter, loc,
        collapseGroups(rewriter, loc, pad ? pad->source : op->getOperand(0),
                       layout));
    nx::BufferArguments filter =
        nx::getBufferArguments(rewriter, loc, op->getOperand(1));
    nx::BufferArguments output = nx::getBufferArguments(
        rewriter, loc,
        collapseGroups(rewriter, loc, op->getOperand(2), layout));
    Value zero = constant(0), one = constant(1);

    SmallVector<Value> arguments =
        getSizeArguments(layout, input, filter, output, one);
    int64_t flags = zeroFill ? 0 : NXRT_CONV2D_ACCUMULATE;
    if (epilogue && epilogue->relu)
      flags |= NXRT_CONV2D_RELU;
    for (int64_t value :
         {conv.strides[0], conv.strides[1], conv.dilations[0],
          conv.dilations[1], pad ? pad->top : 0, pad ? pad->left : 0, flags})
      arguments.push_back(constant(value));
    auto appendOperand = [&](const nx::BufferArguments &buffer,
                             ArrayRef<int> positions) {
      arguments.push_back(buffer.pointer);
      for (int position : positions)
        arguments.push_back(position == kAbsent ? zero
                                                : buffer.strides[position]);
    };
    appendOperand(input, layout.input);
    appendOperand(filter, layout.filter);
    if (epilogue && epilogue->bias) {
      appendOperand(nx::getBufferArguments(rewriter, loc, epilogue->bias), {0});
    } else {
      arguments.push_back(LLVM::ZeroOp::create(
          rewriter, loc, LLVM::LLVMPointerType::get(context)));
      arguments.push_back(zero);
    }
    appendOperand(output, layout.output);
    auto call = LLVM::CallOp::create(rewriter, loc, *callee, arguments);

    if (epilogue)
      rewriter.eraseOp(epilogue->op);
    rewriter.eraseOp(op);
    if (zeroFill)
      rewriter.eraseOp(zeroFill);
    if (pad) {
      // The call reads the source where the copy did: it must stay alive
      // until then.
      for (memref::DeallocOp dealloc : pad->earlyDeallocs)
        rewriter.moveOpAfter(dealloc, call);
      for (Operation *dead : pad->deadOps)
        rewriter.eraseOp(dead);
    }
    return success();
  }
};

} // namespace

void nx::populateLinalgToDnnlPatterns(RewritePatternSet &patterns) {
  patterns.add<ConvolutionToDnnl>(patterns.getContext());
}

namespace {

struct NxLinalgToDnnlPass
    : nx::impl::NxLinalgToDnnlPassBase<NxLinalgToDnnlPass> {
  using NxLinalgToDnnlPassBase::NxLinalgToDnnlPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (failed(nx::verifyStaticBoundsBeforeRewrite(module)))
      return signalPassFailure();
    // A symbol of the runtime's name that is not its declaration would
    // make every convolution fail to convert, silently.
    auto expected =
        LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(&getContext()),
                                    getConvParameterTypes(&getContext()));
    if (failed(nx::verifyRuntimeDeclaration(module, symbols::kConv2dF32,
                                            expected, "convolutions")))
      return signalPassFailure();
    int64_t pads = 0, epilogues = 0;
    SmallVector<Operation *> convolutions;
    module.walk([&](linalg::LinalgOp op) {
      if (!isConvertible(op))
        return;
      convolutions.push_back(op);
      ConvLayout layout = matchConvolution(op)->layout;
      if (layout.groupDim != kAbsent)
        return;
      if (nx::dnnl::findZeroPad(op, layout.input[2], layout.input[3]))
        ++pads;
      if (findConvolutionEpilogue(op, layout, !nx::dnnl::findZeroFill(op)))
        ++epilogues;
    });
    RewritePatternSet patterns(&getContext());
    nx::populateLinalgToDnnlPatterns(patterns);
    // A conversion erases ops after the convolution (its epilogue), which a
    // walk would visit next: the convolutions are collected first.
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingOps)
        .enableFolding(false);
    if (failed(
            applyOpPatternsGreedily(convolutions, std::move(patterns), config)))
      return signalPassFailure();
    nx::addStatistic(numConvolutions, convolutions.size());
    nx::addStatistic(numFoldedPads, pads);
    nx::addStatistic(numFoldedEpilogues, epilogues);
  }
};

} // namespace

#undef DEBUG_TYPE

//===- ExpandBf16.cpp - bf16 without the compiler runtime's helpers -------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Upstream offers bf16 emulation as a pass of its own and the bf16
// expansion only inside arith-expand, which also rewrites maxima and
// divisions nx-lower-to-cpu leaves to LLVM; this pass runs just the two.
//
//===----------------------------------------------------------------------===//

#include "nx/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#define DEBUG_TYPE "nx-expand-bf16"

namespace mlir::nx {
#define GEN_PASS_DEF_NXEXPANDBF16PASS
#include "nx/Codegen/CPU/Passes.h.inc"
} // namespace mlir::nx

using namespace mlir;

namespace {

/// f32 to bf16, to nearest with ties to even, on the bits: a NaN first
/// becomes the quiet NaN 0x7fc00000 (an f32 select), then the bits plus
/// 0x7fff plus the lowest bit kept, the upper half taken. Upstream's
/// expansion selects the quiet NaN after narrowing to i16, and LLVM then
/// moves that select past the bitcast to bf16: x86 without AVX-512 BF16 has
/// no select of bf16 vectors, and lowered it lane by lane, 30% of a 512^3
/// bf16 product's time in an object for x86-64-v4. A select of f32 lanes is
/// one blend.
struct TruncateF32ToBf16 : OpRewritePattern<arith::TruncFOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(arith::TruncFOp op,
                                PatternRewriter &rewriter) const override {
    Type inType = op.getIn().getType(), outType = op.getType();
    if (!getElementTypeOrSelf(inType).isF32() ||
        !getElementTypeOrSelf(outType).isBF16())
      return rewriter.notifyMatchFailure(op, "not f32 to bf16");
    if (op.getRoundingmode() &&
        *op.getRoundingmode() != arith::RoundingMode::to_nearest_even)
      return rewriter.notifyMatchFailure(op, "not to nearest even");
    auto withElement = [&](Type element) -> Type {
      if (auto shaped = dyn_cast<ShapedType>(inType))
        return shaped.clone(element);
      return element;
    };
    Type i32 = withElement(rewriter.getI32Type());
    Type i16 = withElement(rewriter.getI16Type());
    auto constant = [&](Type type, TypedAttr scalar) -> Value {
      TypedAttr value = scalar;
      if (auto shaped = dyn_cast<ShapedType>(type))
        value = SplatElementsAttr::get(shaped, scalar);
      return arith::ConstantOp::create(rewriter, op.getLoc(), type, value);
    };
    Location loc = op.getLoc();
    Value x = op.getIn();
    Value isNaN =
        arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::UNO, x, x);
    Value quietNaN = constant(
        inType, rewriter.getF32FloatAttr(
                    APFloat::getQNaN(APFloat::IEEEsingle()).convertToFloat()));
    Value clean = arith::SelectOp::create(rewriter, loc, isNaN, quietNaN, x);
    Value bits = arith::BitcastOp::create(rewriter, loc, i32, clean);
    Value sixteen = constant(i32, rewriter.getI32IntegerAttr(16));
    Value lowestKept = arith::AndIOp::create(
        rewriter, loc, arith::ShRUIOp::create(rewriter, loc, bits, sixteen),
        constant(i32, rewriter.getI32IntegerAttr(1)));
    Value bias = arith::AddIOp::create(
        rewriter, loc, lowestKept,
        constant(i32, rewriter.getI32IntegerAttr(0x7fff)));
    Value rounded = arith::ShRUIOp::create(
        rewriter, loc, arith::AddIOp::create(rewriter, loc, bits, bias),
        sixteen);
    Value narrow = arith::TruncIOp::create(rewriter, loc, i16, rounded);
    rewriter.replaceOpWithNewOp<arith::BitcastOp>(op, outType, narrow);
    return success();
  }
};

struct NxExpandBf16Pass : nx::impl::NxExpandBf16PassBase<NxExpandBf16Pass> {
  using NxExpandBf16PassBase::NxExpandBf16PassBase;

  void runOnOperation() override {
    MLIRContext *context = &getContext();
    Type bf16 = BFloat16Type::get(context);
    Type f32 = Float32Type::get(context);
    // arith on bf16 becomes arith on f32 between an extension and a
    // truncation.
    TypeConverter converter;
    arith::populateEmulateUnsupportedFloatsConversions(converter, {bf16}, f32);
    RewritePatternSet emulation(context);
    arith::populateEmulateUnsupportedFloatsPatterns(emulation, converter);
    ConversionTarget target(*context);
    arith::populateEmulateUnsupportedFloatsLegality(target, converter);
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(emulation))))
      return signalPassFailure();
    // The extensions and truncations become integer operations on the bits.
    RewritePatternSet expansion(context);
    expansion.add<TruncateF32ToBf16>(context, /*benefit=*/2);
    arith::populateExpandBFloat16Patterns(expansion);
    if (failed(applyPatternsGreedily(getOperation(), std::move(expansion))))
      return signalPassFailure();
  }
};

} // namespace

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
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#define DEBUG_TYPE "nx-expand-bf16"

namespace mlir::nx {
#define GEN_PASS_DEF_NXEXPANDBF16PASS
#include "nx/Codegen/CPU/Passes.h.inc"
} // namespace mlir::nx

using namespace mlir;

namespace {

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
    arith::populateExpandBFloat16Patterns(expansion);
    if (failed(applyPatternsGreedily(getOperation(), std::move(expansion))))
      return signalPassFailure();
  }
};

} // namespace

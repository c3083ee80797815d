//===- CheckStaticBounds.cpp - contradictions of known sizes, reported ----===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "nx/Support/StaticBounds.h"
#include "nx/Transforms/Passes.h"

namespace mlir::nx {
#define GEN_PASS_DEF_NXCHECKSTATICBOUNDSPASS
#include "nx/Transforms/Passes.h.inc"
} // namespace mlir::nx

using namespace mlir;

namespace {
struct NxCheckStaticBoundsPass final
    : nx::impl::NxCheckStaticBoundsPassBase<NxCheckStaticBoundsPass> {
  void runOnOperation() final {
    markAllAnalysesPreserved();
    if (failed(nx::verifyStaticBounds(getOperation())))
      signalPassFailure();
  }
};
} // namespace

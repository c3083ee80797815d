//===- CheckStaticBounds.cpp - contradictions of known sizes, reported ----===//

#include "nx/Support/StaticBounds.h"
#include "nx/Transforms/Passes.h"

namespace mlir::nx {
#define GEN_PASS_DEF_CHECKSTATICBOUNDSPASS
#include "nx/Transforms/Passes.h.inc"
} // namespace mlir::nx

using namespace mlir;

namespace {
struct CheckStaticBoundsPass final
    : nx::impl::CheckStaticBoundsPassBase<CheckStaticBoundsPass> {
  void runOnOperation() final {
    markAllAnalysesPreserved();
    if (failed(nx::verifyStaticBounds(getOperation())))
      signalPassFailure();
  }
};
} // namespace

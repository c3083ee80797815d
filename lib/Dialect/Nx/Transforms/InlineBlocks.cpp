//===- InlineBlocks.cpp - replace blocks by their default implementation --===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "nx/Dialect/Nx/IR/NxOps.h"
#include "nx/Dialect/Nx/Transforms/Passes.h"
#include "nx/Support/PassStatistics.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"

#define DEBUG_TYPE "nx-inline-blocks"

namespace mlir::nx {
#define GEN_PASS_DEF_NXINLINEBLOCKSPASS
#include "nx/Dialect/Nx/Transforms/Passes.h.inc"
} // namespace mlir::nx

using namespace mlir;
using namespace mlir::nx;

namespace {
struct InlineBlocksPass final
    : nx::impl::NxInlineBlocksPassBase<InlineBlocksPass> {
  void runOnOperation() final {
    // Post-order: nested blocks are inlined into their parent's region
    // before the parent itself is inlined.
    SmallVector<BlockOp> blocks;
    getOperation().walk([&](BlockOp block) { blocks.push_back(block); });
    IRRewriter rewriter(&getContext());
    for (BlockOp block : blocks) {
      rewriter.setInsertionPoint(block);
      block.inlineDefaultImplementation(rewriter);
    }
    nx::addStatistic(numBlocksInlined, blocks.size());
  }
};
} // namespace

#undef DEBUG_TYPE

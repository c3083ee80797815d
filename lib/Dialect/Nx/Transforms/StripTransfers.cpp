//===- StripTransfers.cpp - host <-> device copies as identities ----------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// When a segmented program is compiled for the CPU, the "device" the stages
// were placed on is host memory too: every nx.to_device / nx.to_host is the
// identity and is replaced by its operand.
//
//===----------------------------------------------------------------------===//

#include "nx/Dialect/Nx/IR/NxOps.h"
#include "nx/Dialect/Nx/Transforms/Passes.h"
#include "nx/Support/PassStatistics.h"

#include "mlir/IR/BuiltinOps.h"

#define DEBUG_TYPE "nx-strip-transfers"

namespace mlir::nx {
#define GEN_PASS_DEF_NXSTRIPTRANSFERSPASS
#include "nx/Dialect/Nx/Transforms/Passes.h.inc"
} // namespace mlir::nx

using namespace mlir;
using namespace mlir::nx;

namespace {
struct StripTransfersPass final
    : nx::impl::NxStripTransfersPassBase<StripTransfersPass> {
  void runOnOperation() final {
    getOperation().walk([&](Operation *op) {
      if (!isa<ToDeviceOp, ToHostOp>(op))
        return;
      // Both ops have SameOperandsAndResultType: a plain value forward.
      op->getResult(0).replaceAllUsesWith(op->getOperand(0));
      op->erase();
      nx::addStatistic(numTransfers);
    });
  }
};
} // namespace

#undef DEBUG_TYPE

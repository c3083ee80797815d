//===- CheckCpuInput.cpp - input nx-lower-to-cpu cannot take, reported ----===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "nx/Codegen/CPU/Passes.h"

#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::nx {
#define GEN_PASS_DEF_NXCHECKCPUINPUTPASS
#include "nx/Codegen/CPU/Passes.h.inc"
} // namespace mlir::nx

using namespace mlir;

namespace {
struct NxCheckCpuInputPass final
    : nx::impl::NxCheckCpuInputPassBase<NxCheckCpuInputPass> {
  void runOnOperation() final {
    markAllAnalysesPreserved();
    // Outermost first: the op a user would look at. By the dialect's name,
    // so that a module that never loaded OpenMP costs one compare per op.
    auto isOpenMP = [](Operation *op) {
      return op->getName().getDialectNamespace() ==
             omp::OpenMPDialect::getDialectNamespace();
    };
    WalkResult found =
        getOperation().walk<WalkOrder::PreOrder>([&](Operation *op) {
          if (!isOpenMP(op))
            return WalkResult::advance();
          op->emitOpError()
              << "is already parallelized with OpenMP: nx-lower-to-cpu "
                 "parallelizes loops itself (nx-linalg-to-openmp) and "
                 "takes the program before that";
          return WalkResult::interrupt();
        });
    if (found.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace

//===- LinalgToOpenMP.h - large linalg loop nests on every core -*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef NX_CONVERSION_LINALGTOOPENMP_LINALGTOOPENMP_H
#define NX_CONVERSION_LINALGTOOPENMP_LINALGTOOPENMP_H

#include "mlir/Support/LLVM.h"

#include <cstdint>

namespace mlir {
class ModuleOp;
class RewritePatternSet;
} // namespace mlir

namespace mlir::nx {

/// Patterns that lower a linalg op on buffers to loops and run its outermost
/// loop as an OpenMP worksharing loop, when that loop is parallel, indexes
/// every output and the nest may reach `minWork` iteration points (an `if`
/// clause checks the actual count at run time). When `numThreadsFunction` is
/// not empty, it names a `func.func` of type `() -> i32`, which the caller
/// declares, that gives each parallel region its team size.
void populateLinalgToOpenMPPatterns(RewritePatternSet &patterns,
                                    int64_t minWork,
                                    StringRef numThreadsFunction,
                                    bool splitOuterReductions);

/// Declares `name` in `module` as a private `func.func` of type `() -> i32`,
/// the function an OpenMP region asks for its team size, or checks that
/// the module's symbol of that name is such a function (an error at it
/// otherwise).
LogicalResult declareNumThreadsFunction(ModuleOp module, StringRef name);

} // namespace mlir::nx

#endif // NX_CONVERSION_LINALGTOOPENMP_LINALGTOOPENMP_H

//===- InitNx.h - register nx dialects and passes ---------------*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// One place that knows every dialect and pass nx-mlir provides, shared by
// nx-opt, the mlir-opt plugin and embedders.
//
//===----------------------------------------------------------------------===//

#ifndef NX_INITNX_H
#define NX_INITNX_H

namespace mlir {
class DialectRegistry;
namespace nx {

/// Adds the nx dialect (and the dialects its passes create) to `registry`.
void registerNxDialects(DialectRegistry &registry);

/// Registers every nx pass and pipeline with the global pass registry, and
/// the names and descriptions of the nx passes' statistics
/// (registerNxPassStatistics).
void registerNxPasses();

/// Makes the nx passes' statistics known to nx's statistics report
/// (nx/Support/PassStatistics.h). Idempotent.
void registerNxPassStatistics();

} // namespace nx
} // namespace mlir

#endif // NX_INITNX_H

//===- IndexingMaps.h - what loops an operand's indices follow --*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Passes that tile or share a linalg op by how it walks memory ask which
// loop walks an operand's contiguous dimension.
//
//===----------------------------------------------------------------------===//

#ifndef NX_SUPPORT_INDEXINGMAPS_H
#define NX_SUPPORT_INDEXINGMAPS_H

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"

#include <optional>

namespace mlir::nx {

/// The loop that indexes the innermost dimension of `map`'s operand, if a
/// loop alone does.
inline std::optional<unsigned> getInnermostLoop(AffineMap map) {
  if (map.getNumResults() == 0)
    return std::nullopt;
  auto dim = dyn_cast<AffineDimExpr>(map.getResults().back());
  if (!dim)
    return std::nullopt;
  return dim.getPosition();
}

} // namespace mlir::nx

#endif // NX_SUPPORT_INDEXINGMAPS_H

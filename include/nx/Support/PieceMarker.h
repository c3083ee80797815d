//===- PieceMarker.h - the marker of outlined pieces ------------*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// nx-split-functions marks the functions it outlines, and nx-inline-pieces
// inlines exactly those. The name sits in the `nx.` attribute namespace, so
// the nx dialect verifies the marker whenever it is loaded. Both the passes
// (generic, outside the dialect) and the dialect read it from here, a layer
// below both.
//
//===----------------------------------------------------------------------===//

#ifndef NX_SUPPORT_PIECEMARKER_H
#define NX_SUPPORT_PIECEMARKER_H

#include "llvm/ADT/StringRef.h"

namespace mlir::nx {

/// Unit attribute on a private function that nx-split-functions outlined.
inline constexpr llvm::StringLiteral kPieceAttrName = "nx.piece";

} // namespace mlir::nx

#endif // NX_SUPPORT_PIECEMARKER_H

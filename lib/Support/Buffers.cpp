//===- Buffers.cpp - where a buffer's memory comes from -------------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "nx/Support/Buffers.h"

#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;

Value nx::getRootBuffer(Value value) {
  while (auto view = value.getDefiningOp<ViewLikeOpInterface>())
    value = view.getViewSource();
  return value;
}

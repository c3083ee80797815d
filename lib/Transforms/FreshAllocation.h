//===- FreshAllocation.h - buffers no other value can alias -----*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef NX_LIB_TRANSFORMS_FRESHALLOCATION_H
#define NX_LIB_TRANSFORMS_FRESHALLOCATION_H

#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::nx {

/// The op that allocated `value` (an `Allocate` effect on it) if `value` is
/// a fresh allocation, else null. Nothing that existed before that op ran
/// can alias the value.
inline Operation *getAllocatingOp(Value value) {
  auto result = dyn_cast<OpResult>(value);
  if (!result)
    return nullptr;
  auto effects = dyn_cast<MemoryEffectOpInterface>(result.getOwner());
  if (!effects ||
      !effects.getEffectOnValue<MemoryEffects::Allocate>(value).has_value())
    return nullptr;
  return result.getOwner();
}

} // namespace mlir::nx

#endif // NX_LIB_TRANSFORMS_FRESHALLOCATION_H

//===- Buffers.h - where a buffer's memory comes from -----------*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Passes on bufferized programs ask whether two operands share memory, or
// whether an op's output is a fresh allocation: both start from the buffer
// that a chain of subviews, casts and reshapes is carved from.
//
//===----------------------------------------------------------------------===//

#ifndef NX_SUPPORT_BUFFERS_H
#define NX_SUPPORT_BUFFERS_H

#include "mlir/IR/Value.h"

namespace mlir::nx {

/// The buffer a view of `value` is carved from, through view-like ops: its
/// allocation, a call's result or a block argument. `value` itself when it
/// is no view.
Value getRootBuffer(Value value);

} // namespace mlir::nx

#endif // NX_SUPPORT_BUFFERS_H

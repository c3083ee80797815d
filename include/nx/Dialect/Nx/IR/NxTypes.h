//===- NxTypes.h - type rules for the host boundary -------------*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef NX_DIALECT_NX_IR_NXTYPES_H
#define NX_DIALECT_NX_IR_NXTYPES_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Types.h"
#include "mlir/Support/LLVM.h"

#define GET_TYPEDEF_CLASSES
#include "nx/Dialect/Nx/IR/NxTypes.h.inc"

namespace mlir::nx {

/// True for element types a host callback can exchange: i1, i8-i64,
/// ui8-ui64, f16, bf16, f32, f64, complex<f32>, complex<f64>.
bool isHostElementType(Type type);

/// Byte size of a host element type (i1 is stored as one byte).
int64_t getHostElementByteSize(Type type);

/// True for tensors that can cross the host boundary: ranked, statically
/// shaped, of a host element type, with a byte size that fits in int64.
bool isHostTensorType(Type type);

/// Explains why `type` is not a host tensor type, or returns success. The
/// message names `what` (e.g. "input #0") and the offending type.
LogicalResult verifyHostTensorType(function_ref<InFlightDiagnostic()> emitError,
                                   Type type, const Twine &what);

} // namespace mlir::nx

#endif // NX_DIALECT_NX_IR_NXTYPES_H

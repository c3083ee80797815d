//===- RuntimeTypes.h - MLIR element types as libnxrt dtypes ----*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The one mapping from MLIR element types to the runtime's nxrt_dtype_t,
// generated from nxrt/nxrt_dtypes.def and shared by the dialect (which
// element types host ops accept), convert-nx-to-llvm (views built by
// compiled code) and hosts such as nx-runner (views built by the host).
//
//===----------------------------------------------------------------------===//

#ifndef NX_DIALECT_NX_IR_RUNTIMETYPES_H
#define NX_DIALECT_NX_IR_RUNTIMETYPES_H

#include "nxrt/nxrt.h"

#include "mlir/IR/BuiltinTypes.h"

namespace mlir::nx {

namespace detail {
// Whether `type` is the element type of an nxrt_dtypes.def entry of this
// kind and width.
inline bool isInt(Type type, unsigned width) {
  auto integer = dyn_cast<IntegerType>(type);
  return integer && integer.isSignless() && integer.getWidth() == width;
}
inline bool isUInt(Type type, unsigned width) {
  auto integer = dyn_cast<IntegerType>(type);
  return integer && integer.isUnsigned() && integer.getWidth() == width;
}
inline bool isFloat(Type type, unsigned width) {
  return (width == 16 && type.isF16()) || (width == 32 && type.isF32()) ||
         (width == 64 && type.isF64());
}
inline bool isBFloat(Type type, unsigned width) {
  return width == 16 && type.isBF16();
}
inline bool isComplex(Type type, unsigned width) {
  auto complex = dyn_cast<ComplexType>(type);
  return complex && isFloat(complex.getElementType(), width);
}
} // namespace detail

/// The runtime dtype of a host element type (see nx::isHostElementType), or
/// NXRT_DTYPE_INVALID for any other type.
inline nxrt_dtype_t getRuntimeDType(Type type) {
#define NXRT_DTYPE(dtype, bytes, mlir, npy, kind, width, ctype)                \
  if (detail::is##kind(type, width))                                           \
    return dtype;
#include "nxrt/nxrt_dtypes.def"
  return NXRT_DTYPE_INVALID;
}

} // namespace mlir::nx

#endif // NX_DIALECT_NX_IR_RUNTIMETYPES_H

//===- RuntimeTypes.h - MLIR element types as libnxrt dtypes ----*- C++ -*-===//
//
// The one mapping from MLIR element types to the runtime's nxrt_dtype_t,
// shared by convert-nx-to-llvm (views built by compiled code) and hosts such
// as nx-runner (views built by the host).
//
//===----------------------------------------------------------------------===//

#ifndef NX_CONVERSION_NXTOLLVM_RUNTIMETYPES_H
#define NX_CONVERSION_NXTOLLVM_RUNTIMETYPES_H

#include "nxrt/nxrt.h"

#include "mlir/IR/BuiltinTypes.h"

namespace mlir::nx {

/// The runtime dtype of a host element type (see nx::isHostElementType), or
/// NXRT_DTYPE_INVALID for any other type.
inline nxrt_dtype_t getRuntimeDType(Type type) {
  if (auto complex = dyn_cast<ComplexType>(type)) {
    Type element = complex.getElementType();
    if (element.isF32())
      return NXRT_C64;
    return element.isF64() ? NXRT_C128 : NXRT_DTYPE_INVALID;
  }
  if (type.isF16())
    return NXRT_F16;
  if (type.isBF16())
    return NXRT_BF16;
  if (type.isF32())
    return NXRT_F32;
  if (type.isF64())
    return NXRT_F64;
  auto integer = dyn_cast<IntegerType>(type);
  if (!integer || integer.isSigned())
    return NXRT_DTYPE_INVALID;
  bool isUnsigned = integer.isUnsigned();
  switch (integer.getWidth()) {
  case 1:
    return isUnsigned ? NXRT_DTYPE_INVALID : NXRT_PRED;
  case 8:
    return isUnsigned ? NXRT_U8 : NXRT_I8;
  case 16:
    return isUnsigned ? NXRT_U16 : NXRT_I16;
  case 32:
    return isUnsigned ? NXRT_U32 : NXRT_I32;
  case 64:
    return isUnsigned ? NXRT_U64 : NXRT_I64;
  default:
    return NXRT_DTYPE_INVALID;
  }
}

} // namespace mlir::nx

#endif // NX_CONVERSION_NXTOLLVM_RUNTIMETYPES_H

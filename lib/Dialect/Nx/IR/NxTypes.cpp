//===- NxTypes.cpp - type rules for the host boundary ---------------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "nx/Dialect/Nx/IR/NxTypes.h"
#include "nx/Dialect/Nx/IR/NxDialect.h"
#include "nx/Dialect/Nx/IR/RuntimeTypes.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace mlir::nx;

#define GET_TYPEDEF_CLASSES
#include "nx/Dialect/Nx/IR/NxTypes.cpp.inc"

void NxDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "nx/Dialect/Nx/IR/NxTypes.cpp.inc"
      >();
}

bool nx::isHostElementType(Type type) {
  return getRuntimeDType(type) != NXRT_DTYPE_INVALID;
}

int64_t nx::getHostElementByteSize(Type type) {
  switch (getRuntimeDType(type)) {
#define NXRT_DTYPE(dtype, bytes, mlir, npy, kind, width, ctype)                \
  case dtype:                                                                  \
    return bytes;
#include "nxrt/nxrt_dtypes.def"
  default:
    return 0;
  }
}

/// Returns the byte size of a statically shaped tensor of host elements, or
/// nullopt when it does not fit in int64.
static std::optional<int64_t> getByteSize(RankedTensorType type) {
  int64_t size = nx::getHostElementByteSize(type.getElementType());
  for (int64_t dim : type.getShape()) {
    std::optional<int64_t> product = llvm::checkedMul(size, dim);
    if (!product)
      return std::nullopt;
    size = *product;
  }
  return size;
}

LogicalResult
nx::verifyHostTensorType(function_ref<InFlightDiagnostic()> emitError,
                         Type type, const Twine &what) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return emitError() << what << " must be a ranked tensor, got " << type;
  if (!tensor.hasStaticShape())
    return emitError() << what << " must have a static shape, got " << type;
  if (tensor.getEncoding())
    return emitError() << what << " must not have a tensor encoding, got "
                       << type;
  if (!isHostElementType(tensor.getElementType()))
    return emitError() << what << " has unsupported element type "
                       << tensor.getElementType()
                       << "; expected i1, i8-i64, ui8-ui64, f16, bf16, f32, "
                          "f64, complex<f32> or complex<f64>";
  if (!getByteSize(tensor))
    return emitError() << what << " of rank " << tensor.getRank()
                       << " is too large: its byte size does not fit in int64";
  return success();
}

bool nx::isHostTensorType(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.hasStaticShape() && !tensor.getEncoding() &&
         isHostElementType(tensor.getElementType()) && getByteSize(tensor);
}

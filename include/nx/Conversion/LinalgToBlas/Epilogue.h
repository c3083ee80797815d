//===- Epilogue.h - the bias and ReLU a library kernel absorbs --*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A dense layer or a convolution as a front end writes it is a product
// followed by one elementwise op over its result: `+ bias[channel]`, a
// ReLU, or both. Once bufferized, that op is a pass of its own over memory
// the kernel just wrote. libnxrt's GEMM and oneDNN's convolution both
// apply it inside the call, on data still in the core's cache; this finds
// the ops nx-linalg-to-blas and nx-linalg-to-dnnl can hand them. Nothing
// here changes the IR.
//
//===----------------------------------------------------------------------===//

#ifndef NX_CONVERSION_LINALGTOBLAS_EPILOGUE_H
#define NX_CONVERSION_LINALGTOBLAS_EPILOGUE_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <optional>

namespace mlir::nx {

/// The elementwise op after a kernel, and what it does.
struct Epilogue {
  linalg::GenericOp op;
  /// The 1-D bias, of the output's element type, or null.
  Value bias;
  bool relu = false;
};

/// The elementwise op right after `op` (past ops without memory effects
/// and deallocations of other buffers) that rewrites `op`'s output in
/// place, element for element, with `out + bias[channel]` and/or
/// `maximumf(out, +0.0)`, if there is one. `channelDim` is the output's
/// dimension the bias runs along. The bias must be defined before `op`,
/// where a call in its place reads it, and be no view of the output.
std::optional<Epilogue> findEpilogue(linalg::LinalgOp op, unsigned channelDim);

/// Whether `value` is the constant +0.0 (of any float type): the bound of a
/// ReLU, and the value a zero fill writes.
bool isPositiveZeroConstant(Value value);

} // namespace mlir::nx

#endif // NX_CONVERSION_LINALGTOBLAS_EPILOGUE_H

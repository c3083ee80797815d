//===- FusedNeighbors.h - ops a oneDNN convolution call absorbs -*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A convolution as a front end writes it comes with neighbors that are
// memory passes of their own once bufferized: a zero tensor.pad of its
// input (a fill of a fresh buffer and a copy into its interior), a zero
// fill of its output, and an elementwise bias and ReLU over its result
// (nx/Conversion/LinalgToBlas/Epilogue.h finds that one). oneDNN does each
// inside its kernel, on data in registers; these find the ones
// nx-linalg-to-dnnl can fold into the call. Nothing here changes the IR.
//
//===----------------------------------------------------------------------===//

#ifndef NX_LIB_CONVERSION_LINALGTODNNL_FUSEDNEIGHBORS_H
#define NX_LIB_CONVERSION_LINALGTODNNL_FUSEDNEIGHBORS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace mlir::nx::dnnl {

/// The `linalg.fill` of +0.0 that makes the convolution `op`'s output
/// buffer zeros just before `op` reads it, if there is one: the output is a
/// fresh allocation of this block (or a memref.expand_shape of one that
/// nothing else uses before `op`), and nothing else uses it (or a view of
/// it) between the fill and `op`.
linalg::FillOp findZeroFill(linalg::LinalgOp op);

/// A zero padding of the convolution's input: `op` reads a fresh buffer
/// that is filled with +0.0, then gets `source` copied into its interior,
/// and is used for nothing else. `op` can read `source` instead, with
/// `top` and `left` rows and columns of zeros before it.
struct ZeroPad {
  Value source;
  int64_t top, left;
  /// Ops that become dead once `op` reads `source`: the copy, the view it
  /// writes through, the fill, and the padded buffer with its deallocs.
  SmallVector<Operation *> deadOps;
  /// Deallocations of `source` between the copy and `op`: they must move
  /// after the call.
  SmallVector<memref::DeallocOp> earlyDeallocs;
};

/// The zero padding of `op`'s input (operand 0), if it can be folded.
/// `rowDim` and `columnDim` are the input's row and column dimensions;
/// padding anywhere else cannot be. The copy's source must be an
/// identity-layout buffer (oneDNN runs views with gaps on its reference
/// kernel), and nothing between the copy and `op` may write it.
std::optional<ZeroPad> findZeroPad(linalg::LinalgOp op, int rowDim,
                                   int columnDim);

} // namespace mlir::nx::dnnl

#endif // NX_LIB_CONVERSION_LINALGTODNNL_FUSEDNEIGHBORS_H

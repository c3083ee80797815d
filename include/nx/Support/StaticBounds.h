//===- StaticBounds.h - accesses that static sizes prove out of bounds ----===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Upstream's verifiers check a linalg op's accesses against its operands
// only when every operand is static, and a tensor.expand_shape's static
// output shape not at all. Canonicalization, bufferization and tiling then
// make such sizes static and build ops whose own verifiers reject them:
// IR that verified becomes IR that does not. These checks find the
// contradiction first, from every size that is known, and report it at the
// op that has it.
//
//===----------------------------------------------------------------------===//

#ifndef NX_SUPPORT_STATICBOUNDS_H
#define NX_SUPPORT_STATICBOUNDS_H

#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"

namespace mlir::nx {

/// Emits an error at every linalg op under `root` (itself included) that
/// known sizes prove accesses an operand outside its bounds, or whose
/// operands give one loop two different lengths; and at every
/// tensor.expand_shape whose static output shape contradicts its type.
/// A size is known when it is static or when the value-bounds analysis
/// derives a constant for it (through casts, tensor.empty of constants).
/// Fails when it emitted an error.
LogicalResult verifyStaticBounds(Operation *root);

/// verifyStaticBounds, as the passes that rewrite linalg ops by their
/// static sizes apply it to what they are given before they build anything:
/// nx-linalg-to-openmp, nx-linalg-to-blas, nx-vectorize-linalg,
/// nx-convolutions-to-gemm and nx-tile-transposes make tiles, parts and
/// patches that are subviews at static offsets, which do not verify where
/// known sizes put an access out of bounds; nx-linalg-to-dnnl would
/// make a call that reads past its input.
///
/// nx-lower-to-cpu runs nx-check-static-bounds before all of them, so there
/// this finds nothing new. It stays because each of these passes also runs
/// on its own (nx-opt, the C API, nx-opt-fuzzer's pipelines), on IR that
/// nothing has checked, where an out-of-bounds op must be an error at that
/// op and not a crash or IR that does not verify
/// (test/Transforms/static-bounds-before-tiling.mlir). One walk of the IR
/// costs little next to the rewrite.
LogicalResult verifyStaticBoundsBeforeRewrite(Operation *root);

} // namespace mlir::nx

#endif // NX_SUPPORT_STATICBOUNDS_H

//===- Convolutions1DTo2D.h - 1-D convolutions as 2-D ones ------*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef NX_TRANSFORMS_CONVOLUTIONS1DTO2D_H
#define NX_TRANSFORMS_CONVOLUTIONS1DTO2D_H

namespace mlir {
class RewritePatternSet;
namespace nx {

/// Patterns that rewrite linalg.conv_1d_nwc_wcf, linalg.conv_1d_ncw_fcw and
/// linalg.depthwise_conv_1d_nwc_wc on tensors as the 2-D convolution of the
/// same layout over a height of 1 (tensor.expand_shape of each operand,
/// tensor.collapse_shape of the result).
void populateConvolutions1DTo2DPatterns(RewritePatternSet &patterns);

} // namespace nx
} // namespace mlir

#endif // NX_TRANSFORMS_CONVOLUTIONS1DTO2D_H

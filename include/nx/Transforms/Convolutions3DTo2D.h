//===- Convolutions3DTo2D.h - 3-D convolutions as 2-D ones ------*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef NX_TRANSFORMS_CONVOLUTIONS3DTO2D_H
#define NX_TRANSFORMS_CONVOLUTIONS3DTO2D_H

#include <cstdint>

namespace mlir {
class RewritePatternSet;
namespace nx {

/// Patterns that rewrite linalg.conv_3d_ndhwc_dhwcf and
/// linalg.depthwise_conv_3d_ndhwc_dhwc on tensors of static sizes, whose
/// kernel depth is at most `maxKernelDepth`, as one 2-D NHWC convolution per
/// plane of the kernel: each over the image planes that plane meets, with
/// the batch and the output depth as one batch dimension, accumulating
/// into the same output.
void populateConvolutions3DTo2DPatterns(RewritePatternSet &patterns,
                                        int64_t maxKernelDepth);

} // namespace nx
} // namespace mlir

#endif // NX_TRANSFORMS_CONVOLUTIONS3DTO2D_H

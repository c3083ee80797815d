//===- LinalgToDnnl.h - linalg convolutions to libnxrt's oneDNN -*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef NX_CONVERSION_LINALGTODNNL_LINALGTODNNL_H
#define NX_CONVERSION_LINALGTODNNL_LINALGTODNNL_H

namespace mlir {
class RewritePatternSet;
} // namespace mlir

namespace mlir::nx {

/// Patterns that replace f32 `linalg.conv_2d_nhwc_hwcf`, `conv_2d_nhwc_fhwc`,
/// `conv_2d_nchw_fchw` and `depthwise_conv_2d_nhwc_hwc` on buffers by a call
/// of libnxrt's `nxrt_conv2d_f32`, declared as an `llvm.func` in the
/// enclosing module. Ops on tensors are left alone.
void populateLinalgToDnnlPatterns(RewritePatternSet &patterns);

} // namespace mlir::nx

#endif // NX_CONVERSION_LINALGTODNNL_LINALGTODNNL_H

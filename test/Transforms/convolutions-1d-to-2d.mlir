// RUN: nx-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(nx-convolutions-1d-to-2d))' | FileCheck %s
// RUN: nx-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(nx-convolutions-1d-to-2d))' -mlir-pass-statistics 2>&1 | FileCheck %s --check-prefix=STATS

// NWC by WCF, strided and dilated: NHWC by HWCF one row high, stride and
// dilation 1 along the height.

// CHECK-LABEL: func.func @nwc_wcf
//  CHECK-SAME: (%[[X:.*]]: tensor<4x64x8xf32>, %[[W:.*]]: tensor<3x8x16xf32>, %[[INIT:.*]]: tensor<4x29x16xf32>)
//       CHECK:   %[[X2:.*]] = tensor.expand_shape %[[X]] {{\[}}[0, 1], [2], [3]] output_shape [4, 1, 64, 8]
//       CHECK:   %[[W2:.*]] = tensor.expand_shape %[[W]] {{\[}}[0, 1], [2], [3]] output_shape [1, 3, 8, 16]
//       CHECK:   %[[I2:.*]] = tensor.expand_shape %[[INIT]] {{\[}}[0, 1], [2], [3]] output_shape [4, 1, 29, 16]
//       CHECK:   %[[Y2:.*]] = linalg.conv_2d_nhwc_hwcf
//  CHECK-SAME:     dilations = dense<[1, 2]> : tensor<2xi64>, strides = dense<[1, 2]> : tensor<2xi64>
//  CHECK-SAME:     ins(%[[X2]], %[[W2]] : tensor<4x1x64x8xf32>, tensor<1x3x8x16xf32>) outs(%[[I2]] : tensor<4x1x29x16xf32>)
//       CHECK:   %[[Y:.*]] = tensor.collapse_shape %[[Y2]] {{\[}}[0, 1], [2], [3]] : tensor<4x1x29x16xf32> into tensor<4x29x16xf32>
//       CHECK:   return %[[Y]]
// STATS: 1 rewritten-convolutions
func.func @nwc_wcf(%x: tensor<4x64x8xf32>, %w: tensor<3x8x16xf32>, %init: tensor<4x29x16xf32>) -> tensor<4x29x16xf32> {
  %y = linalg.conv_1d_nwc_wcf {dilations = dense<2> : tensor<1xi64>, strides = dense<2> : tensor<1xi64>}
      ins(%x, %w : tensor<4x64x8xf32>, tensor<3x8x16xf32>) outs(%init : tensor<4x29x16xf32>) -> tensor<4x29x16xf32>
  return %y : tensor<4x29x16xf32>
}

// -----

// NCW by FCW: the height goes right before the width in each.

// CHECK-LABEL: func.func @ncw_fcw
//       CHECK:   tensor.expand_shape %{{.*}} {{\[}}[0], [1, 2], [3]] output_shape [2, 8, 1, 32]
//       CHECK:   tensor.expand_shape %{{.*}} {{\[}}[0], [1, 2], [3]] output_shape [16, 8, 1, 5]
//       CHECK:   tensor.expand_shape %{{.*}} {{\[}}[0], [1, 2], [3]] output_shape [2, 16, 1, 28]
//       CHECK:   linalg.conv_2d_nchw_fchw
//  CHECK-SAME:     dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>
//       CHECK:   tensor.collapse_shape %{{.*}} {{\[}}[0], [1, 2], [3]] : tensor<2x16x1x28xf32> into tensor<2x16x28xf32>
// STATS: 1 rewritten-convolutions
func.func @ncw_fcw(%x: tensor<2x8x32xf32>, %w: tensor<16x8x5xf32>, %init: tensor<2x16x28xf32>) -> tensor<2x16x28xf32> {
  %y = linalg.conv_1d_ncw_fcw {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>}
      ins(%x, %w : tensor<2x8x32xf32>, tensor<16x8x5xf32>) outs(%init : tensor<2x16x28xf32>) -> tensor<2x16x28xf32>
  return %y : tensor<2x16x28xf32>
}

// -----

// Depthwise NWC by WC, with dynamic sizes.

// CHECK-LABEL: func.func @depthwise_dynamic
//       CHECK:   tensor.expand_shape %{{.*}} {{\[}}[0, 1], [2], [3]] output_shape [%{{.*}}, 1, %{{.*}}, %{{.*}}] : tensor<?x?x?xf32> into tensor<?x1x?x?xf32>
//       CHECK:   tensor.expand_shape %{{.*}} {{\[}}[0, 1], [2]] output_shape [1, 3, %{{.*}}] : tensor<3x?xf32> into tensor<1x3x?xf32>
//       CHECK:   linalg.depthwise_conv_2d_nhwc_hwc
//       CHECK:   tensor.collapse_shape
// STATS: 1 rewritten-convolutions
func.func @depthwise_dynamic(%x: tensor<?x?x?xf32>, %w: tensor<3x?xf32>, %init: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %y = linalg.depthwise_conv_1d_nwc_wc {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>}
      ins(%x, %w : tensor<?x?x?xf32>, tensor<3x?xf32>) outs(%init : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  return %y : tensor<?x?x?xf32>
}

// -----

// Left alone: a convolution on buffers, and linalg.conv_1d (no batch, no
// channels), which no 2-D op of the same layout takes.

// CHECK-LABEL: func.func @left_alone
//       CHECK:   linalg.conv_1d_nwc_wcf {{.*}} ins(%{{.*}} : memref<1x8x2xf32>
//       CHECK:   linalg.conv_1d ins
//   CHECK-NOT:   expand_shape
// STATS: 0 rewritten-convolutions
func.func @left_alone(%x: memref<1x8x2xf32>, %w: memref<3x2x2xf32>, %o: memref<1x6x2xf32>,
                      %v: tensor<8xf32>, %k: tensor<3xf32>, %init: tensor<6xf32>) -> tensor<6xf32> {
  linalg.conv_1d_nwc_wcf {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>}
      ins(%x, %w : memref<1x8x2xf32>, memref<3x2x2xf32>) outs(%o : memref<1x6x2xf32>)
  %y = linalg.conv_1d ins(%v, %k : tensor<8xf32>, tensor<3xf32>) outs(%init : tensor<6xf32>) -> tensor<6xf32>
  return %y : tensor<6xf32>
}

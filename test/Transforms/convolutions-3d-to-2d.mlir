// RUN: nx-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(nx-convolutions-3d-to-2d))' | FileCheck %s
// RUN: nx-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(nx-convolutions-3d-to-2d))' -mlir-pass-statistics 2>&1 | FileCheck %s --check-prefix=STATS
// RUN: nx-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(nx-convolutions-3d-to-2d{max-kernel-depth=2}))' | FileCheck %s --check-prefix=SHALLOW

// NDHWC by DHWCF: one NHWC convolution per kernel plane, each over the 7
// image planes it meets (batch and depth as one batch of 7), accumulating
// into the collapsed init one after the other.

// CHECK-LABEL: func.func @ndhwc_dhwcf
//  CHECK-SAME: (%[[X:.*]]: tensor<1x8x16x16x4xf32>, %[[W:.*]]: tensor<2x3x3x4x8xf32>, %[[INIT:.*]]: tensor<1x7x14x14x8xf32>)
//       CHECK:   %[[ACC0:.*]] = tensor.collapse_shape %[[INIT]] {{\[}}[0, 1], [2], [3], [4]] : tensor<1x7x14x14x8xf32> into tensor<7x14x14x8xf32>
//       CHECK:   %[[X0:.*]] = tensor.extract_slice %[[X]][0, 0, 0, 0, 0] [1, 7, 16, 16, 4] [1, 1, 1, 1, 1]
//       CHECK:   %[[B0:.*]] = tensor.collapse_shape %[[X0]] {{\[}}[0, 1], [2], [3], [4]] : tensor<1x7x16x16x4xf32> into tensor<7x16x16x4xf32>
//       CHECK:   %[[W0:.*]] = tensor.extract_slice %[[W]][0, 0, 0, 0, 0] [1, 3, 3, 4, 8] [1, 1, 1, 1, 1] : tensor<2x3x3x4x8xf32> to tensor<3x3x4x8xf32>
//       CHECK:   %[[ACC1:.*]] = linalg.conv_2d_nhwc_hwcf
//  CHECK-SAME:     dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>
//  CHECK-SAME:     ins(%[[B0]], %[[W0]] : tensor<7x16x16x4xf32>, tensor<3x3x4x8xf32>) outs(%[[ACC0]] : tensor<7x14x14x8xf32>)
//       CHECK:   %[[X1:.*]] = tensor.extract_slice %[[X]][0, 1, 0, 0, 0] [1, 7, 16, 16, 4] [1, 1, 1, 1, 1]
//       CHECK:   %[[B1:.*]] = tensor.collapse_shape %[[X1]]
//       CHECK:   %[[W1:.*]] = tensor.extract_slice %[[W]][1, 0, 0, 0, 0] [1, 3, 3, 4, 8] [1, 1, 1, 1, 1]
//       CHECK:   %[[ACC2:.*]] = linalg.conv_2d_nhwc_hwcf
//  CHECK-SAME:     ins(%[[B1]], %[[W1]] : tensor<7x16x16x4xf32>, tensor<3x3x4x8xf32>) outs(%[[ACC1]] : tensor<7x14x14x8xf32>)
//   CHECK-NOT:   linalg.conv_2d_nhwc_hwcf
//       CHECK:   %[[Y:.*]] = tensor.expand_shape %[[ACC2]] {{\[}}[0, 1], [2], [3], [4]] output_shape [1, 7, 14, 14, 8] : tensor<7x14x14x8xf32> into tensor<1x7x14x14x8xf32>
//       CHECK:   return %[[Y]]
// STATS: 1 rewritten-convolutions
// SHALLOW-LABEL: func.func @ndhwc_dhwcf
//       SHALLOW:   linalg.conv_2d_nhwc_hwcf
func.func @ndhwc_dhwcf(%x: tensor<1x8x16x16x4xf32>, %w: tensor<2x3x3x4x8xf32>, %init: tensor<1x7x14x14x8xf32>) -> tensor<1x7x14x14x8xf32> {
  %y = linalg.conv_3d_ndhwc_dhwcf {dilations = dense<1> : tensor<3xi64>, strides = dense<1> : tensor<3xi64>}
      ins(%x, %w : tensor<1x8x16x16x4xf32>, tensor<2x3x3x4x8xf32>) outs(%init : tensor<1x7x14x14x8xf32>) -> tensor<1x7x14x14x8xf32>
  return %y : tensor<1x7x14x14x8xf32>
}

// -----

// A batch of two, strided along the depth and dilated along it: kernel
// plane kd meets image planes 2 * kd, 2 * kd + 3, ... (dilation 2, stride
// 3). The height's and width's strides and dilations stay.

// CHECK-LABEL: func.func @strided_dilated
//       CHECK:   tensor.extract_slice %{{.*}}[0, 0, 0, 0, 0] [2, 3, 20, 20, 8] [1, 3, 1, 1, 1] : tensor<2x11x20x20x8xf32> to tensor<2x3x20x20x8xf32>
//       CHECK:   tensor.collapse_shape %{{.*}} {{\[}}[0, 1], [2], [3], [4]] : tensor<2x3x20x20x8xf32> into tensor<6x20x20x8xf32>
//       CHECK:   linalg.conv_2d_nhwc_hwcf
//  CHECK-SAME:     dilations = dense<[2, 1]> : tensor<2xi64>, strides = dense<[1, 2]> : tensor<2xi64>
//  CHECK-SAME:     outs(%{{.*}} : tensor<6x16x9x16xf32>)
//       CHECK:   tensor.extract_slice %{{.*}}[0, 2, 0, 0, 0] [2, 3, 20, 20, 8] [1, 3, 1, 1, 1]
//       CHECK:   linalg.conv_2d_nhwc_hwcf
//       CHECK:   tensor.extract_slice %{{.*}}[0, 4, 0, 0, 0] [2, 3, 20, 20, 8] [1, 3, 1, 1, 1]
//       CHECK:   linalg.conv_2d_nhwc_hwcf
//       CHECK:   tensor.expand_shape %{{.*}} output_shape [2, 3, 16, 9, 16]
// STATS: 1 rewritten-convolutions
// SHALLOW-LABEL: func.func @strided_dilated
//       SHALLOW:   linalg.conv_3d_ndhwc_dhwcf
func.func @strided_dilated(%x: tensor<2x11x20x20x8xf32>, %w: tensor<3x3x3x8x16xf32>, %init: tensor<2x3x16x9x16xf32>) -> tensor<2x3x16x9x16xf32> {
  %y = linalg.conv_3d_ndhwc_dhwcf {dilations = dense<[2, 2, 1]> : tensor<3xi64>, strides = dense<[3, 1, 2]> : tensor<3xi64>}
      ins(%x, %w : tensor<2x11x20x20x8xf32>, tensor<3x3x3x8x16xf32>) outs(%init : tensor<2x3x16x9x16xf32>) -> tensor<2x3x16x9x16xf32>
  return %y : tensor<2x3x16x9x16xf32>
}

// -----

// Depthwise NDHWC by DHWC.

// CHECK-LABEL: func.func @depthwise
//       CHECK:   tensor.extract_slice %{{.*}}[0, 0, 0, 0] [1, 3, 3, 32] [1, 1, 1, 1] : tensor<3x3x3x32xf32> to tensor<3x3x32xf32>
//       CHECK:   linalg.depthwise_conv_2d_nhwc_hwc
//  CHECK-SAME:     ins(%{{.*}}, %{{.*}} : tensor<6x16x16x32xf32>, tensor<3x3x32xf32>) outs(%{{.*}} : tensor<6x14x14x32xf32>)
//       CHECK:   linalg.depthwise_conv_2d_nhwc_hwc
//       CHECK:   linalg.depthwise_conv_2d_nhwc_hwc
//   CHECK-NOT:   linalg.depthwise_conv_2d_nhwc_hwc
// STATS: 1 rewritten-convolutions
func.func @depthwise(%x: tensor<1x8x16x16x32xf32>, %w: tensor<3x3x3x32xf32>, %init: tensor<1x6x14x14x32xf32>) -> tensor<1x6x14x14x32xf32> {
  %y = linalg.depthwise_conv_3d_ndhwc_dhwc {dilations = dense<1> : tensor<3xi64>, strides = dense<1> : tensor<3xi64>}
      ins(%x, %w : tensor<1x8x16x16x32xf32>, tensor<3x3x3x32xf32>) outs(%init : tensor<1x6x14x14x32xf32>) -> tensor<1x6x14x14x32xf32>
  return %y : tensor<1x6x14x14x32xf32>
}

// -----

// Left alone: dynamic sizes, even with a static kernel depth.

// CHECK-LABEL: func.func @dynamic
//       CHECK:   linalg.conv_3d_ndhwc_dhwcf
//   CHECK-NOT:   linalg.conv_2d
// STATS: 0 rewritten-convolutions
func.func @dynamic(%x: tensor<?x?x?x?x4xf32>, %w: tensor<2x3x3x4x8xf32>, %init: tensor<?x?x?x?x8xf32>) -> tensor<?x?x?x?x8xf32> {
  %y = linalg.conv_3d_ndhwc_dhwcf {dilations = dense<1> : tensor<3xi64>, strides = dense<1> : tensor<3xi64>}
      ins(%x, %w : tensor<?x?x?x?x4xf32>, tensor<2x3x3x4x8xf32>) outs(%init : tensor<?x?x?x?x8xf32>) -> tensor<?x?x?x?x8xf32>
  return %y : tensor<?x?x?x?x8xf32>
}

// -----

// Left as they are: a dynamic kernel depth (the number of planes is not
// known), NCDHW of dynamic sizes, and convolutions on buffers.

// CHECK-LABEL: func.func @left_alone
//       CHECK:   linalg.conv_3d_ndhwc_dhwcf
//       CHECK:   linalg.conv_3d_ncdhw_fcdhw
//       CHECK:   linalg.conv_3d_ndhwc_dhwcf
//   CHECK-NOT:   linalg.conv_2d
//   CHECK-NOT:   linalg.transpose
// STATS: 0 rewritten-convolutions
func.func @left_alone(%x: tensor<1x8x8x8x4xf32>, %w: tensor<?x3x3x4x8xf32>, %init: tensor<1x?x6x6x8xf32>,
                      %xc: tensor<1x4x?x8x8xf32>, %wc: tensor<8x4x3x3x3xf32>, %initc: tensor<1x8x?x6x6xf32>,
                      %xb: memref<1x8x8x8x4xf32>, %wb: memref<3x3x3x4x8xf32>, %ob: memref<1x6x6x6x8xf32>)
    -> (tensor<1x?x6x6x8xf32>, tensor<1x8x?x6x6xf32>) {
  %y = linalg.conv_3d_ndhwc_dhwcf {dilations = dense<1> : tensor<3xi64>, strides = dense<1> : tensor<3xi64>}
      ins(%x, %w : tensor<1x8x8x8x4xf32>, tensor<?x3x3x4x8xf32>) outs(%init : tensor<1x?x6x6x8xf32>) -> tensor<1x?x6x6x8xf32>
  %yc = linalg.conv_3d_ncdhw_fcdhw {dilations = dense<1> : tensor<3xi64>, strides = dense<1> : tensor<3xi64>}
      ins(%xc, %wc : tensor<1x4x?x8x8xf32>, tensor<8x4x3x3x3xf32>) outs(%initc : tensor<1x8x?x6x6xf32>) -> tensor<1x8x?x6x6xf32>
  linalg.conv_3d_ndhwc_dhwcf {dilations = dense<1> : tensor<3xi64>, strides = dense<1> : tensor<3xi64>}
      ins(%xb, %wb : memref<1x8x8x8x4xf32>, memref<3x3x3x4x8xf32>) outs(%ob : memref<1x6x6x6x8xf32>)
  return %y, %yc : tensor<1x?x6x6x8xf32>, tensor<1x8x?x6x6xf32>
}

// -----

// Left as they are: dilations that are not positive, which the linalg
// verifier takes (a plane's slice would start at -1; found by fuzzing).

// CHECK-LABEL: func.func @negative_dilation
//       CHECK:   linalg.conv_3d_ndhwc_dhwcf
//       CHECK:   linalg.conv_3d_ncdhw_fcdhw
//   CHECK-NOT:   linalg.conv_2d
//   CHECK-NOT:   linalg.transpose
// STATS: 0 rewritten-convolutions
func.func @negative_dilation(%x: tensor<1x8x8x8x4xf32>, %w: tensor<3x3x3x4x8xf32>, %init: tensor<1x6x6x6x8xf32>,
                             %xc: tensor<1x4x8x8x8xf32>, %wc: tensor<8x4x3x3x3xf32>, %initc: tensor<1x8x6x6x6xf32>)
    -> (tensor<1x6x6x6x8xf32>, tensor<1x8x6x6x6xf32>) {
  %y = linalg.conv_3d_ndhwc_dhwcf {dilations = dense<-1> : tensor<3xi64>, strides = dense<1> : tensor<3xi64>}
      ins(%x, %w : tensor<1x8x8x8x4xf32>, tensor<3x3x3x4x8xf32>) outs(%init : tensor<1x6x6x6x8xf32>) -> tensor<1x6x6x6x8xf32>
  %yc = linalg.conv_3d_ncdhw_fcdhw {dilations = dense<-1> : tensor<3xi64>, strides = dense<1> : tensor<3xi64>}
      ins(%xc, %wc : tensor<1x4x8x8x8xf32>, tensor<8x4x3x3x3xf32>) outs(%initc : tensor<1x8x6x6x6xf32>) -> tensor<1x8x6x6x6xf32>
  return %y, %yc : tensor<1x6x6x6x8xf32>, tensor<1x8x6x6x6xf32>
}

// -----

// NCDHW by FCDHW, PyTorch's layouts: the depth is not next to the batch,
// so the image, the filters and the init are transposed to NDHWC and
// DHWCF first, the NDHWC convolution is three NHWC ones as above, and the
// sum is transposed back.

// CHECK-LABEL: func.func @ncdhw_fcdhw
//  CHECK-SAME: (%[[X:.*]]: tensor<1x4x8x8x8xf32>, %[[W:.*]]: tensor<8x4x3x3x3xf32>, %[[INIT:.*]]: tensor<1x8x6x6x6xf32>)
//       CHECK:   %[[XT:.*]] = linalg.transpose ins(%[[X]] : tensor<1x4x8x8x8xf32>) outs(%{{.*}} : tensor<1x8x8x8x4xf32>) permutation = [0, 2, 3, 4, 1]
//       CHECK:   %[[WT:.*]] = linalg.transpose ins(%[[W]] : tensor<8x4x3x3x3xf32>) outs(%{{.*}} : tensor<3x3x3x4x8xf32>) permutation = [2, 3, 4, 1, 0]
//       CHECK:   %[[IT:.*]] = linalg.transpose ins(%[[INIT]] : tensor<1x8x6x6x6xf32>) outs(%{{.*}} : tensor<1x6x6x6x8xf32>) permutation = [0, 2, 3, 4, 1]
//       CHECK:   tensor.collapse_shape %[[IT]]
//       CHECK:   tensor.extract_slice %[[XT]][0, 0, 0, 0, 0] [1, 6, 8, 8, 4]
//       CHECK:   tensor.extract_slice %[[WT]][0, 0, 0, 0, 0] [1, 3, 3, 4, 8]
//       CHECK:   linalg.conv_2d_nhwc_hwcf
//       CHECK:   linalg.conv_2d_nhwc_hwcf
//       CHECK:   %[[SUM:.*]] = linalg.conv_2d_nhwc_hwcf
//       CHECK:   %[[Y:.*]] = tensor.expand_shape %[[SUM]] {{\[}}[0, 1], [2], [3], [4]] output_shape [1, 6, 6, 6, 8]
//       CHECK:   %[[R:.*]] = linalg.transpose ins(%[[Y]] : tensor<1x6x6x6x8xf32>) outs(%{{.*}} : tensor<1x8x6x6x6xf32>) permutation = [0, 4, 1, 2, 3]
//       CHECK:   return %[[R]]
// STATS: 1 rewritten-convolutions
// SHALLOW-LABEL: func.func @ncdhw_fcdhw
//       SHALLOW:   linalg.conv_3d_ncdhw_fcdhw
func.func @ncdhw_fcdhw(%x: tensor<1x4x8x8x8xf32>, %w: tensor<8x4x3x3x3xf32>, %init: tensor<1x8x6x6x6xf32>) -> tensor<1x8x6x6x6xf32> {
  %y = linalg.conv_3d_ncdhw_fcdhw {dilations = dense<1> : tensor<3xi64>, strides = dense<1> : tensor<3xi64>}
      ins(%x, %w : tensor<1x4x8x8x8xf32>, tensor<8x4x3x3x3xf32>) outs(%init : tensor<1x8x6x6x6xf32>) -> tensor<1x8x6x6x6xf32>
  return %y : tensor<1x8x6x6x6xf32>
}

// -----

// A depthwise NCDHW convolution by a CDHW kernel, strided along the depth:
// the kernel becomes DHWC, each of its two planes a depthwise NHWC
// convolution over every other image plane.

// CHECK-LABEL: func.func @depthwise_ncdhw_cdhw
//       CHECK:   linalg.transpose ins(%{{.*}} : tensor<1x4x7x8x8xf32>) outs(%{{.*}} : tensor<1x7x8x8x4xf32>) permutation = [0, 2, 3, 4, 1]
//       CHECK:   linalg.transpose ins(%{{.*}} : tensor<4x2x3x3xf32>) outs(%{{.*}} : tensor<2x3x3x4xf32>) permutation = [1, 2, 3, 0]
//       CHECK:   tensor.extract_slice %{{.*}}[0, 0, 0, 0, 0] [1, 3, 8, 8, 4] [1, 2, 1, 1, 1]
//       CHECK:   linalg.depthwise_conv_2d_nhwc_hwc
//       CHECK:   tensor.extract_slice %{{.*}}[0, 1, 0, 0, 0] [1, 3, 8, 8, 4] [1, 2, 1, 1, 1]
//       CHECK:   linalg.depthwise_conv_2d_nhwc_hwc
//       CHECK:   linalg.transpose ins(%{{.*}} : tensor<1x3x6x6x4xf32>) outs(%{{.*}} : tensor<1x4x3x6x6xf32>) permutation = [0, 4, 1, 2, 3]
//   CHECK-NOT:   linalg.depthwise_conv_3d
// STATS: 1 rewritten-convolutions
func.func @depthwise_ncdhw_cdhw(%x: tensor<1x4x7x8x8xf32>, %w: tensor<4x2x3x3xf32>, %init: tensor<1x4x3x6x6xf32>) -> tensor<1x4x3x6x6xf32> {
  %y = linalg.depthwise_conv_3d_ncdhw_cdhw {dilations = dense<1> : tensor<3xi64>, strides = dense<[2, 1, 1]> : tensor<3xi64>}
      ins(%x, %w : tensor<1x4x7x8x8xf32>, tensor<4x2x3x3xf32>) outs(%init : tensor<1x4x3x6x6xf32>) -> tensor<1x4x3x6x6xf32>
  return %y : tensor<1x4x3x6x6xf32>
}

// RUN: nx-opt %s -split-input-file -nx-convolutions-to-gemm | FileCheck %s --enable-var-scope

// What the pass does not handle stays as it is, without a diagnostic:
// tensors, dynamic shapes, other element types, mixed element types,
// depthwise convolutions, and outputs or filters that cannot be viewed as a
// matrix without a copy.

// CHECK-LABEL: func.func @on_tensors
// CHECK: linalg.conv_2d_nhwc_hwcf
// CHECK-NOT: linalg.matmul
func.func @on_tensors(%in: tensor<1x6x6x3xf32>, %filter: tensor<3x3x3x4xf32>, %out: tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32> {
  %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%in, %filter : tensor<1x6x6x3xf32>, tensor<3x3x3x4xf32>) outs(%out : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %0 : tensor<1x4x4x4xf32>
}

// -----

// CHECK-LABEL: func.func @dynamic
// CHECK: linalg.conv_2d_nhwc_hwcf
// CHECK-NOT: linalg.matmul
func.func @dynamic(%in: memref<?x6x6x3xf32>, %filter: memref<3x3x3x4xf32>, %out: memref<?x4x4x4xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%in, %filter : memref<?x6x6x3xf32>, memref<3x3x3x4xf32>) outs(%out : memref<?x4x4x4xf32>)
  return
}

// -----

// CHECK-LABEL: func.func @integers
// CHECK: linalg.conv_2d_nchw_fchw
// CHECK-NOT: linalg.matmul
func.func @integers(%in: memref<1x3x6x6xi32>, %filter: memref<4x3x3x3xi32>, %out: memref<1x4x4x4xi32>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%in, %filter : memref<1x3x6x6xi32>, memref<4x3x3x3xi32>) outs(%out : memref<1x4x4x4xi32>)
  return
}

// -----

// CHECK-LABEL: func.func @half
// CHECK: linalg.conv_2d_nhwc_fhwc
// CHECK-NOT: linalg.matmul
func.func @half(%in: memref<1x6x6x3xf16>, %filter: memref<4x3x3x3xf16>, %out: memref<1x4x4x4xf16>) {
  linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%in, %filter : memref<1x6x6x3xf16>, memref<4x3x3x3xf16>) outs(%out : memref<1x4x4x4xf16>)
  return
}

// -----

// CHECK-LABEL: func.func @mixed_types
// CHECK: linalg.conv_2d_nhwc_hwcf
// CHECK-NOT: linalg.matmul
func.func @mixed_types(%in: memref<1x6x6x3xf16>, %filter: memref<3x3x3x4xf16>, %out: memref<1x4x4x4xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%in, %filter : memref<1x6x6x3xf16>, memref<3x3x3x4xf16>) outs(%out : memref<1x4x4x4xf32>)
  return
}

// -----

// CHECK-LABEL: func.func @depthwise
// CHECK: linalg.depthwise_conv_2d_nhwc_hwc
// CHECK-NOT: linalg.matmul
func.func @depthwise(%in: memref<1x6x6x3xf32>, %filter: memref<3x3x3xf32>, %out: memref<1x4x4x3xf32>) {
  linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%in, %filter : memref<1x6x6x3xf32>, memref<3x3x3xf32>) outs(%out : memref<1x4x4x3xf32>)
  return
}

// -----

// A strided output (every other channel) and a filter whose (KH, KW, C)
// are not contiguous are no matrices.
// CHECK-LABEL: func.func @strided_output
// CHECK: linalg.conv_2d_nhwc_hwcf
// CHECK-NOT: linalg.matmul
func.func @strided_output(%in: memref<1x6x6x3xf32>, %filter: memref<3x3x3x4xf32>, %out: memref<1x4x4x4xf32, strided<[128, 32, 8, 2]>>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%in, %filter : memref<1x6x6x3xf32>, memref<3x3x3x4xf32>) outs(%out : memref<1x4x4x4xf32, strided<[128, 32, 8, 2]>>)
  return
}

// CHECK-LABEL: func.func @strided_filter
// CHECK: linalg.conv_2d_nhwc_hwcf
// CHECK-NOT: linalg.matmul
func.func @strided_filter(%in: memref<1x6x6x3xf32>, %filter: memref<3x3x3x4xf32, strided<[96, 32, 8, 1]>>, %out: memref<1x4x4x4xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%in, %filter : memref<1x6x6x3xf32>, memref<3x3x3x4xf32, strided<[96, 32, 8, 1]>>) outs(%out : memref<1x4x4x4xf32>)
  return
}

// -----

// A patch matrix whose element count overflows int64_t is left alone.
// CHECK-LABEL: func.func @overflowing_patch
// CHECK: linalg.conv_2d_nhwc_hwcf
func.func @overflowing_patch(%in: memref<1x4294967296x3x4294967296xf32>, %f: memref<1x1x4294967296x2xf32>, %out: memref<1x4294967296x3x2xf32>) {
  linalg.conv_2d_nhwc_hwcf ins(%in, %f : memref<1x4294967296x3x4294967296xf32>, memref<1x1x4294967296x2xf32>) outs(%out : memref<1x4294967296x3x2xf32>)
  return
}

// RUN: nx-opt %s -nx-reassociate-reductions -nx-vectorize-linalg=vector-bits=512 -canonicalize | FileCheck %s --enable-var-scope

// Max and min pooling (2x2, stride 2) take the depthwise convolutions'
// path: tiles of 8 output columns by 16 channels, one 1-D pooling per
// window row, whose maxima (minima) keep the flags nx-reassociate-reductions
// gave the op's combiner and stay in registers through the window-row
// loop. Sum pooling is tested in the Integration/Ops suite.
// CHECK-LABEL: func.func @pooling
// CHECK-SAME: (%[[X:.*]]: memref<1x8x16x32xf32>, %[[W:.*]]: memref<2x2xf32>, %[[Y:.*]]: memref<1x4x8x32xf32>, %[[Z:.*]]: memref<1x4x8x32xf32>)
// CHECK: %[[ACC:.*]] = vector.transfer_read %[[Y]]{{.*}} : memref<1x4x8x32xf32>, vector<8x16xf32>
// CHECK: %[[R:.*]] = scf.for %{{.*}} iter_args(%{{.*}} = %[[ACC]]) -> (vector<8x16xf32>) {
// CHECK: vector.transfer_read %[[X]]{{.*}} : memref<1x8x16x32xf32>, vector<16x16xf32>
// CHECK: arith.maximumf {{.*}} fastmath<reassoc,nsz> : vector<16xf32>
// CHECK: scf.yield
// CHECK: vector.transfer_write %[[R]], %[[Y]]
// CHECK: arith.minimumf {{.*}} fastmath<reassoc,nsz> : vector<16xf32>
// CHECK: vector.transfer_write %{{.*}}, %[[Z]]
// CHECK-NOT: linalg.pooling
func.func @pooling(%x: memref<1x8x16x32xf32>, %w: memref<2x2xf32>, %y: memref<1x4x8x32xf32>, %z: memref<1x4x8x32xf32>) {
  linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %w : memref<1x8x16x32xf32>, memref<2x2xf32>) outs(%y : memref<1x4x8x32xf32>)
  linalg.pooling_nhwc_min {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %w : memref<1x8x16x32xf32>, memref<2x2xf32>) outs(%z : memref<1x4x8x32xf32>)
  return
}

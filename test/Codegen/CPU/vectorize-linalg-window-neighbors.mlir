// RUN: nx-opt %s -split-input-file -nx-reassociate-reductions -nx-vectorize-linalg=vector-bits=512 -canonicalize | FileCheck %s --enable-var-scope

// A channel window's fill and in-place elementwise epilogue move into its
// tiles: the accumulators start from the fill's value and the epilogue
// applies to them before the one store; the output is never read.

// CHECK-LABEL: func.func @average_pool
// CHECK-SAME: (%[[X:.*]]: memref<1x8x16x32xf32>, %{{.*}}: memref<2x2xf32>, %[[Y:.*]]: memref<1x4x8x32xf32>)
// CHECK-DAG: %[[FOURS:.*]] = arith.constant dense<4.000000e+00> : vector<8x16xf32>
// CHECK-DAG: %[[ZEROS:.*]] = arith.constant dense<0.000000e+00> : vector<8x16xf32>
// CHECK-NOT: linalg.
// CHECK-NOT: vector.transfer_read %[[Y]]
// CHECK: %[[SUMS:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %[[ZEROS]]) -> (vector<8x16xf32>)
// CHECK: vector.transfer_read %[[X]]
// CHECK: arith.addf {{.*}} fastmath<reassoc> : vector<16xf32>
// CHECK: scf.yield
// CHECK: %[[AVG:.*]] = arith.divf %[[SUMS]], %[[FOURS]] : vector<8x16xf32>
// CHECK-NEXT: vector.transfer_write %[[AVG]], %[[Y]]
// CHECK-NOT: vector.transfer_write
// CHECK: return
func.func @average_pool(%x: memref<1x8x16x32xf32>, %w: memref<2x2xf32>, %y: memref<1x4x8x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %four = arith.constant 4.0 : f32
  linalg.fill ins(%zero : f32) outs(%y : memref<1x4x8x32xf32>)
  linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %w : memref<1x8x16x32xf32>, memref<2x2xf32>) outs(%y : memref<1x4x8x32xf32>)
  linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y : memref<1x4x8x32xf32>) outs(%y : memref<1x4x8x32xf32>) {
  ^bb0(%v: f32, %o: f32):
    %d = arith.divf %v, %four : f32
    linalg.yield %d : f32
  }
  return
}

// -----

// A depthwise convolution with its zero fill and a ReLU reading only its
// output.
// CHECK-LABEL: func.func @depthwise_relu
// CHECK-SAME: (%{{.*}}: memref<1x10x18x32xf32>, %{{.*}}: memref<3x3x32xf32>, %[[Y:.*]]: memref<1x8x16x32xf32>)
// CHECK: %[[ZEROS:.*]] = arith.constant dense<0.000000e+00> : vector<8x16xf32>
// CHECK-NOT: linalg.
// CHECK-NOT: vector.transfer_read %[[Y]]
// CHECK: %[[ACC:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %[[ZEROS]]) -> (vector<8x16xf32>)
// CHECK: vector.fma
// CHECK: scf.yield
// CHECK: %[[RELU:.*]] = arith.maximumf %[[ACC]], %[[ZEROS]] : vector<8x16xf32>
// CHECK-NEXT: vector.transfer_write %[[RELU]], %[[Y]]
// CHECK-NOT: vector.transfer_write
// CHECK: return
func.func @depthwise_relu(%x: memref<1x10x18x32xf32>, %w: memref<3x3x32xf32>, %y: memref<1x8x16x32xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%y : memref<1x8x16x32xf32>)
  linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : memref<1x10x18x32xf32>, memref<3x3x32xf32>) outs(%y : memref<1x8x16x32xf32>)
  linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%y : memref<1x8x16x32xf32>) {
  ^bb0(%o: f32):
    %r = arith.maximumf %o, %zero : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// Neighbors that do more than initialize or rewrite the window's output
// stay passes of their own: a fill of another buffer, and an epilogue that
// also reads another buffer.
// CHECK-LABEL: func.func @other_buffers
// CHECK-SAME: (%{{.*}}: memref<1x8x16x32xf32>, %{{.*}}: memref<2x2xf32>, %[[Y:.*]]: memref<1x4x8x32xf32>, %[[Z:.*]]: memref<1x4x8x32xf32>, %[[B:.*]]: memref<1x4x8x32xf32>)
// CHECK: vector.transfer_write %{{.*}}, %[[Z]]
// CHECK: %[[OLD:.*]] = vector.transfer_read %[[Y]]{{.*}} vector<8x16xf32>
// CHECK: %[[MAX:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %[[OLD]])
// CHECK: vector.transfer_write %[[MAX]], %[[Y]]
// CHECK: %[[BIAS:.*]] = vector.transfer_read %[[B]]
// CHECK: %[[BACK:.*]] = vector.transfer_read %[[Y]]
// CHECK: %[[SUM:.*]] = arith.addf %[[BIAS]], %[[BACK]] : vector<16xf32>
// CHECK: vector.transfer_write %[[SUM]], %[[Y]]
func.func @other_buffers(%x: memref<1x8x16x32xf32>, %w: memref<2x2xf32>, %y: memref<1x4x8x32xf32>, %z: memref<1x4x8x32xf32>, %b: memref<1x4x8x32xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  linalg.fill ins(%ninf : f32) outs(%z : memref<1x4x8x32xf32>)
  linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %w : memref<1x8x16x32xf32>, memref<2x2xf32>) outs(%y : memref<1x4x8x32xf32>)
  linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%b : memref<1x4x8x32xf32>) outs(%y : memref<1x4x8x32xf32>) {
  ^bb0(%v: f32, %o: f32):
    %s = arith.addf %v, %o : f32
    linalg.yield %s : f32
  }
  return
}

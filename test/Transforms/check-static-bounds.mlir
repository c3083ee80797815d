// RUN: nx-opt %s -nx-check-static-bounds | FileCheck %s --enable-var-scope

// Programs whose known sizes agree pass unchanged, as do accesses the pass
// cannot bound: unknown sizes, indices that are not linear in the loops.

// CHECK-LABEL: func.func @window_within_the_input
// CHECK:         linalg.conv_2d_nhwc_hwcf
func.func @window_within_the_input(%in: memref<?x9x9x3xf32>, %filter: memref<3x3x3x4xf32>,
                                   %out: memref<?x4x4x4xf32>) {
  // Rows 0..(3 * 2 + 2 * 1) = 0..8 of 9.
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%in, %filter : memref<?x9x9x3xf32>, memref<3x3x3x4xf32>) outs(%out : memref<?x4x4x4xf32>)
  return
}

// CHECK-LABEL: func.func @unknown_sizes
// CHECK:         linalg.conv_2d_nhwc_hwcf
func.func @unknown_sizes(%in: memref<?x?x?x?xf32>, %filter: memref<?x?x?x?xf32>,
                         %out: memref<?x?x?x?xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<128> : tensor<2xi64>, strides = dense<9> : tensor<2xi64>}
    ins(%in, %filter : memref<?x?x?x?xf32>, memref<?x?x?x?xf32>) outs(%out : memref<?x?x?x?xf32>)
  return
}

// An index modulo the size is not linear: left to the op's own semantics.
// CHECK-LABEL: func.func @rotation
// CHECK:         linalg.generic
func.func @rotation(%a: memref<8xf32>, %b: memref<8xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> ((d0 + 3) mod 8)>, affine_map<(d0) -> (d0)>],
                  iterator_types = ["parallel"]}
      ins(%a : memref<8xf32>) outs(%b : memref<8xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }
  return
}

// No iterations, no accesses: the index d1 + 7 is past the input's 4
// elements but is never taken.
// CHECK-LABEL: func.func @empty_iteration_space
// CHECK:         linalg.generic
func.func @empty_iteration_space(%a: memref<4xf32>, %b: memref<0x4xf32>) {
  %c = memref.cast %a : memref<4xf32> to memref<?xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1 + 7)>, affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<?xf32>) outs(%b : memref<0x4xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }
  return
}

// CHECK-LABEL: func.func @expand_shape_agreeing
// CHECK:         tensor.expand_shape
func.func @expand_shape_agreeing(%a: tensor<?xf32>, %n: index) -> tensor<4x?xf32> {
  %r = tensor.expand_shape %a [[0, 1]] output_shape [4, %n] : tensor<?xf32> into tensor<4x?xf32>
  return %r : tensor<4x?xf32>
}

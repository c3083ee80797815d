// RUN: nx-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(nx-collapse-reduction-dims))' | FileCheck %s
// RUN: nx-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(nx-collapse-reduction-dims))' -mlir-pass-statistics 2>&1 | FileCheck %s --check-prefix=STATS

// The sum of a whole matrix: one reduction loop over the matrix read as a
// vector.

// CHECK-LABEL: func.func @whole_matrix
//       CHECK:   %[[FLAT:.+]] = tensor.collapse_shape %{{.*}} {{\[}}[0, 1]] : tensor<64x32xf32> into tensor<2048xf32>
//       CHECK:   linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}], iterator_types = ["reduction"]}
//  CHECK-SAME:     ins(%[[FLAT]] : tensor<2048xf32>)
//       CHECK:     arith.addf
// STATS: 1 collapsed-reductions
func.func @whole_matrix(%x: tensor<64x32xf32>, %init: tensor<f32>) -> tensor<f32> {
  %s = linalg.reduce ins(%x : tensor<64x32xf32>) outs(%init : tensor<f32>) dimensions = [0, 1]
    (%in: f32, %acc: f32) {
      %t = arith.addf %in, %acc : f32
      linalg.yield %t : f32
    }
  return %s : tensor<f32>
}

// -----

// A mean's sum over an NHWC image's height and width: one middle axis.

// CHECK-LABEL: func.func @height_and_width
//       CHECK:   %[[IMAGE:.+]] = tensor.collapse_shape %{{.*}} {{\[}}[0], [1, 2], [3]] : tensor<2x7x5x16xf32> into tensor<2x35x16xf32>
//       CHECK:   linalg.generic {{.*}}iterator_types = ["parallel", "reduction", "parallel"]
//  CHECK-SAME:     ins(%[[IMAGE]] : tensor<2x35x16xf32>)
//       CHECK:     arith.maximumf
// STATS: 1 collapsed-reductions
func.func @height_and_width(%x: tensor<2x7x5x16xf32>, %init: tensor<2x16xf32>) -> tensor<2x16xf32> {
  %s = linalg.reduce ins(%x : tensor<2x7x5x16xf32>) outs(%init : tensor<2x16xf32>) dimensions = [1, 2]
    (%in: f32, %acc: f32) {
      %t = arith.maximumf %in, %acc : f32
      linalg.yield %t : f32
    }
  return %s : tensor<2x16xf32>
}

// -----

// Dynamic sizes collapse too; a fused generic keeps its body.

// CHECK-LABEL: func.func @dynamic_sum_of_squares
//       CHECK:   tensor.collapse_shape %{{.*}} {{\[}}[0, 1]] : tensor<?x?xf32> into tensor<?xf32>
//       CHECK:   linalg.generic {{.*}}iterator_types = ["reduction"]
//       CHECK:     arith.mulf
//       CHECK:     arith.addf
// STATS: 1 collapsed-reductions
func.func @dynamic_sum_of_squares(%x: tensor<?x?xf32>, %init: tensor<f32>) -> tensor<f32> {
  %s = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>],
                       iterator_types = ["reduction", "reduction"]}
      ins(%x : tensor<?x?xf32>) outs(%init : tensor<f32>) {
  ^bb0(%in: f32, %acc: f32):
    %sq = arith.mulf %in, %in : f32
    %t = arith.addf %sq, %acc : f32
    linalg.yield %t : f32
  } -> tensor<f32>
  return %s : tensor<f32>
}

// -----

// Left alone: reduced dimensions that are not adjacent, an operand that
// reads them in the other order, a contraction over two dimensions (BLAS's
// to take or not), an op that reads its indices, and an op on buffers.

// CHECK-LABEL: func.func @left_alone
//   CHECK-NOT:   tensor.collapse_shape
//   CHECK-NOT:   memref.collapse_shape
//       CHECK:   return
// STATS: 0 collapsed-reductions
func.func @left_alone(%x: tensor<4x8x16xf32>, %y: tensor<16x4xf32>, %a: tensor<4x8x16xf32>,
                      %b: tensor<8x16x3xf32>, %m: memref<8x16xf32>, %mi: memref<f32>)
    -> (tensor<8xf32>, tensor<f32>, tensor<4x3xf32>, tensor<f32>) {
  %zero = arith.constant 0.0 : f32
  %e8 = tensor.empty() : tensor<8xf32>
  %z8 = linalg.fill ins(%zero : f32) outs(%e8 : tensor<8xf32>) -> tensor<8xf32>
  %ends = linalg.reduce ins(%x : tensor<4x8x16xf32>) outs(%z8 : tensor<8xf32>) dimensions = [0, 2]
    (%in: f32, %acc: f32) {
      %t = arith.addf %in, %acc : f32
      linalg.yield %t : f32
    }
  %e0 = tensor.empty() : tensor<f32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %transposed = linalg.generic {indexing_maps = [affine_map<(i, j) -> (j, i)>, affine_map<(i, j) -> ()>],
                                iterator_types = ["reduction", "reduction"]}
      ins(%y : tensor<16x4xf32>) outs(%z0 : tensor<f32>) {
  ^bb0(%in: f32, %acc: f32):
    %t = arith.addf %in, %acc : f32
    linalg.yield %t : f32
  } -> tensor<f32>
  %e43 = tensor.empty() : tensor<4x3xf32>
  %z43 = linalg.fill ins(%zero : f32) outs(%e43 : tensor<4x3xf32>) -> tensor<4x3xf32>
  %contracted = linalg.generic {indexing_maps = [affine_map<(m, n, k, l) -> (m, k, l)>,
                                                 affine_map<(m, n, k, l) -> (k, l, n)>,
                                                 affine_map<(m, n, k, l) -> (m, n)>],
                                iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%a, %b : tensor<4x8x16xf32>, tensor<8x16x3xf32>) outs(%z43 : tensor<4x3xf32>) {
  ^bb0(%l: f32, %r: f32, %acc: f32):
    %p = arith.mulf %l, %r : f32
    %t = arith.addf %p, %acc : f32
    linalg.yield %t : f32
  } -> tensor<4x3xf32>
  %indexed = linalg.generic {indexing_maps = [affine_map<(i, j) -> (j, i)>, affine_map<(i, j) -> ()>],
                             iterator_types = ["reduction", "reduction"]}
      ins(%y : tensor<16x4xf32>) outs(%z0 : tensor<f32>) {
  ^bb0(%in: f32, %acc: f32):
    %i = linalg.index 0 : index
    %f = arith.index_cast %i : index to i32
    %g = arith.sitofp %f : i32 to f32
    %w = arith.mulf %in, %g : f32
    %t = arith.addf %w, %acc : f32
    linalg.yield %t : f32
  } -> tensor<f32>
  linalg.reduce ins(%m : memref<8x16xf32>) outs(%mi : memref<f32>) dimensions = [0, 1]
    (%in: f32, %acc: f32) {
      %t = arith.addf %in, %acc : f32
      linalg.yield %t : f32
    }
  return %ends, %transposed, %contracted, %indexed : tensor<8xf32>, tensor<f32>, tensor<4x3xf32>, tensor<f32>
}

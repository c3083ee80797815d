// RUN: nx-opt %s -nx-reassociate-reductions | FileCheck %s --enable-var-scope

// The combiner, which reads the running value, may reassociate; the op
// computing the reduced value from the input alone keeps its flags.
// CHECK-LABEL: func.func @sum_of_squares
// CHECK: %[[SQUARE:.+]] = arith.mulf %{{.+}}, %{{.+}} : f32
// CHECK: arith.addf %[[SQUARE]], %{{.+}} fastmath<reassoc> : f32
func.func @sum_of_squares(%x: memref<1024xf32>, %acc: memref<f32>) {
  linalg.reduce ins(%x : memref<1024xf32>) outs(%acc : memref<f32>) dimensions = [0]
    (%in: f32, %sum: f32) {
      %sq = arith.mulf %in, %in : f32
      %0 = arith.addf %sq, %sum : f32
      linalg.yield %0 : f32
    }
  return
}

// Flags already there are kept; the maximum of a generic reduction gets
// reassoc too.
// CHECK-LABEL: func.func @row_max
// CHECK: arith.maximumf %{{.+}}, %{{.+}} fastmath<reassoc,nnan> : f32
func.func @row_max(%x: tensor<8x16xf32>, %init: tensor<8xf32>) -> tensor<8xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x16xf32>) outs(%init : tensor<8xf32>) {
    ^bb0(%in: f32, %m: f32):
      %0 = arith.maximumf %in, %m fastmath<nnan> : f32
      linalg.yield %0 : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// Without a reduction iterator nothing reassociates, even where the
// payload reads the output (an in-place update).
// CHECK-LABEL: func.func @elementwise_update
// CHECK: arith.addf %{{.+}}, %{{.+}} : f32
// CHECK-NOT: reassoc
func.func @elementwise_update(%x: memref<16xf32>, %y: memref<16xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                  iterator_types = ["parallel"]}
      ins(%x : memref<16xf32>) outs(%y : memref<16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = arith.addf %in, %out : f32
      linalg.yield %0 : f32
  }
  return
}

// RUN: nx-opt %s -nx-reassociate-reductions | FileCheck %s --enable-var-scope
// RUN: nx-opt %s -nx-reassociate-reductions -linalg-generalize-named-ops \
// RUN:   | FileCheck %s --check-prefix=GENERIC --enable-var-scope

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
// reassoc too, and nsz: +0 and -0 need not be ordered.
// CHECK-LABEL: func.func @row_max
// CHECK: arith.maximumf %{{.+}}, %{{.+}} fastmath<reassoc,nnan,nsz> : f32
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

// A max pooling's and a min reduction's combiners get nsz too; an addition
// does not.
// (Named ops print without their payload: GENERIC shows it.)
// CHECK-LABEL: func.func @pool_and_min
// CHECK: linalg.pooling_nhwc_max
// CHECK: arith.minimumf %{{.+}}, %{{.+}} fastmath<reassoc,nsz> : f32
// GENERIC-LABEL: func.func @pool_and_min
// GENERIC: arith.maximumf %{{.+}}, %{{.+}} fastmath<reassoc,nsz> : f32
// GENERIC: arith.minimumf %{{.+}}, %{{.+}} fastmath<reassoc,nsz> : f32
func.func @pool_and_min(%x: memref<1x4x4x8xf32>, %w: memref<2x2xf32>, %y: memref<1x2x2x8xf32>, %m: memref<8xf32>) {
  linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%x, %w : memref<1x4x4x8xf32>, memref<2x2xf32>) outs(%y : memref<1x2x2x8xf32>)
  linalg.reduce ins(%x : memref<1x4x4x8xf32>) outs(%m : memref<8xf32>) dimensions = [0, 1, 2]
    (%in: f32, %acc: f32) {
      %0 = arith.minimumf %in, %acc : f32
      linalg.yield %0 : f32
    }
  return
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

// A product's multiply and the sum that adds it may fuse into one
// multiply-add (contract), as in every BLAS; the operands' extension from
// bf16 keeps its flags.
// CHECK-LABEL: func.func @products
// GENERIC-LABEL: func.func @products
// GENERIC: %[[P:.+]] = arith.mulf %{{.+}}, %{{.+}} fastmath<contract> : f32
// GENERIC: arith.addf %{{.+}}, %[[P]] fastmath<reassoc,contract> : f32
// GENERIC: arith.extf %{{.+}} : bf16 to f32
// GENERIC: arith.extf %{{.+}} : bf16 to f32
// GENERIC: %[[Q:.+]] = arith.mulf %{{.+}}, %{{.+}} fastmath<contract> : f32
// GENERIC: arith.addf %{{.+}}, %[[Q]] fastmath<reassoc,contract> : f32
func.func @products(%a: memref<4x8xf32>, %b: memref<8x16xf32>, %c: memref<4x16xf32>,
                    %a16: memref<4x8xbf16>, %b16: memref<8x16xbf16>) {
  linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x16xf32>) outs(%c : memref<4x16xf32>)
  linalg.matmul ins(%a16, %b16 : memref<4x8xbf16>, memref<8x16xbf16>) outs(%c : memref<4x16xf32>)
  return
}

// A sum of squares of one input is no contraction: its multiply keeps its
// own rounding.
// CHECK-LABEL: func.func @squares_not_contracted
// CHECK: arith.mulf %{{.+}}, %{{.+}} : f32
// CHECK-NOT: contract
func.func @squares_not_contracted(%x: memref<8x16xf32>, %acc: memref<8xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<8x16xf32>) outs(%acc : memref<8xf32>) {
    ^bb0(%in: f32, %sum: f32):
      %sq = arith.mulf %in, %in : f32
      %0 = arith.addf %sq, %sum : f32
      linalg.yield %0 : f32
  }
  return
}

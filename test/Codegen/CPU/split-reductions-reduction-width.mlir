// RUN: nx-opt %s -split-input-file -nx-split-reductions="vector-bits=512 reduction-vector-bits=256" | FileCheck %s --enable-var-scope
// RUN: nx-opt %s -split-input-file -nx-split-reductions=vector-bits=512 | FileCheck %s --check-prefix=WIDE --enable-var-scope

// A sum that only adds what it reads splits for reduction-vector-bits: 8
// lanes x 4 accumulators = 32 partial sums per row. Without it, 16 lanes.
// CHECK-LABEL: func.func @row_sums
// CHECK: tensor.expand_shape {{.*}} output_shape [8, 32, 32]
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<8x32xf32>)
// WIDE-LABEL: func.func @row_sums
// WIDE: tensor.expand_shape {{.*}} output_shape [8, 16, 64]
func.func @row_sums(%x: tensor<8x1024xf32>, %init: tensor<8xf32>) -> tensor<8xf32> {
  %r = linalg.reduce ins(%x : tensor<8x1024xf32>) outs(%init : tensor<8xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<8xf32>
}

// -----

// A sum of exponentials computes per element: it keeps vector-bits.
// CHECK-LABEL: func.func @sum_of_exponentials
// CHECK: tensor.expand_shape {{.*}} output_shape [8, 16, 64]
// WIDE-LABEL: func.func @sum_of_exponentials
// WIDE: tensor.expand_shape {{.*}} output_shape [8, 16, 64]
func.func @sum_of_exponentials(%x: tensor<8x1024xf32>, %init: tensor<8xf32>) -> tensor<8xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x1024xf32>) outs(%init : tensor<8xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %e = math.exp %in : f32
    %s = arith.addf %e, %acc : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// RUN: nx-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(nx-decompose-aggregated-ops))' | FileCheck %s
// RUN: nx-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(nx-decompose-aggregated-ops))' -mlir-pass-statistics 2>&1 | FileCheck %s --check-prefix=STATS

// A softmax over rows: the maximum, the exponential of the difference, the
// sum and the division, each a linalg op of its own.

// CHECK-LABEL: func.func @softmax_rows
//  CHECK-NOT:    linalg.softmax
//      CHECK:    %[[MAX:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
//      CHECK:      arith.maxnumf
//      CHECK:    %[[EXP:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]
// CHECK-SAME:      ins(%{{.*}}, %[[MAX]] :
//      CHECK:      arith.subf
//      CHECK:      math.exp
//      CHECK:    %[[SUM:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK-SAME:      ins(%[[EXP]] :
//      CHECK:      arith.addf
//      CHECK:    %[[DIV:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]
// CHECK-SAME:      ins(%[[EXP]], %[[SUM]] :
//      CHECK:      arith.divf
//      CHECK:    return %[[DIV]]
// STATS: 1 decomposed-ops
func.func @softmax_rows(%x: tensor<2x16xf32>) -> tensor<2x16xf32> {
  %e = tensor.empty() : tensor<2x16xf32>
  %s = linalg.softmax dimension(1) ins(%x : tensor<2x16xf32>) outs(%e : tensor<2x16xf32>) -> tensor<2x16xf32>
  return %s : tensor<2x16xf32>
}

// -----

// Over the outer dimension of a dynamic tensor: the reductions keep the
// other dimension.

// CHECK-LABEL: func.func @softmax_columns_dynamic
//  CHECK-NOT:    linalg.softmax
//      CHECK:    tensor.empty(%{{.*}}) : tensor<?xf32>
//      CHECK:    linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}], iterator_types = ["reduction", "parallel"]}
//      CHECK:    math.exp
//      CHECK:    arith.divf
// STATS: 1 decomposed-ops
func.func @softmax_columns_dynamic(%x: tensor<?x?xf32>, %e: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %s = linalg.softmax dimension(0) ins(%x : tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %s : tensor<?x?xf32>
}

// -----

// Every other linalg op is left as it is.

// CHECK-LABEL: func.func @not_aggregated
//      CHECK:    linalg.fill
//      CHECK:    linalg.matmul
//  CHECK-NOT:    linalg.generic
func.func @not_aggregated(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>) -> tensor<4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %m = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>) outs(%z : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %m : tensor<4x4xf32>
}

// RUN: nx-opt %s -split-input-file -nx-fuse-linalg | FileCheck %s --enable-var-scope
// RUN: nx-opt %s -split-input-file -nx-fuse-linalg -mlir-pass-statistics 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS

// STATS: 1 refused-fusions

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>

// An elementwise producer read once per element fuses: into an elementwise
// consumer, and into a row reduction that reads it as it is laid out.
// CHECK-LABEL: func.func @read_once
// CHECK:         %[[S:.+]] = linalg.generic
// CHECK-SAME:        iterator_types = ["parallel", "reduction"]
// CHECK-NEXT:    ^bb0(%[[V:.+]]: f32, %[[ACC:.+]]: f32):
// CHECK-NEXT:      %[[E:.+]] = math.exp %[[V]] : f32
// CHECK-NEXT:      %[[M:.+]] = arith.mulf %[[E]], %[[E]] : f32
// CHECK-NEXT:      %[[T:.+]] = arith.addf %[[M]], %[[ACC]] : f32
// CHECK-NEXT:      linalg.yield %[[T]] : f32
// CHECK-NOT:     linalg.generic
// CHECK:         return %[[S]]
func.func @read_once(%x: tensor<8x16xf32>, %acc: tensor<8xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8x16xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%v: f32, %out: f32):
    %r = math.exp %v : f32
    linalg.yield %r : f32
  } -> tensor<8x16xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%0 : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%v: f32, %out: f32):
    %r = arith.mulf %v, %v : f32
    linalg.yield %r : f32
  } -> tensor<8x16xf32>
  %2 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%1 : tensor<8x16xf32>) outs(%acc : tensor<8xf32>) {
  ^bb0(%v: f32, %a: f32):
    %t = arith.addf %v, %a : f32
    linalg.yield %t : f32
  } -> tensor<8xf32>
  return %2 : tensor<8xf32>
}

// -----

#id = affine_map<(i, j) -> (i, j)>
#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>

// A contraction reads each element of its A once per column of its result:
// the erf stays a loop of its own instead of running 16 times per element.
// CHECK-LABEL: func.func @contraction_consumer
// CHECK:         %[[H:.+]] = linalg.generic
// CHECK:           math.erf
// CHECK:         linalg.generic
// CHECK-SAME:        ins(%[[H]], %{{.+}} : tensor<64x32xf32>, tensor<32x16xf32>)
// CHECK-NOT:       math.erf
func.func @contraction_consumer(%x: tensor<64x32xf32>, %w: tensor<32x16xf32>,
                                %c: tensor<64x16xf32>) -> tensor<64x16xf32> {
  %e = tensor.empty() : tensor<64x32xf32>
  %h = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<64x32xf32>) outs(%e : tensor<64x32xf32>) {
  ^bb0(%v: f32, %out: f32):
    %g = math.erf %v : f32
    linalg.yield %g : f32
  } -> tensor<64x32xf32>
  %y = linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%h, %w : tensor<64x32xf32>, tensor<32x16xf32>) outs(%c : tensor<64x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<64x16xf32>
  return %y : tensor<64x16xf32>
}

// -----

#id3 = affine_map<(b, i, j) -> (b, i, j)>

// A reshape of a matmul's result stays where it is: the matmul keeps its
// named form and the two dimensions BLAS takes (upstream's fusion makes it a
// generic of three loops).
// CHECK-LABEL: func.func @reshape_around_matmul
// CHECK:         %[[MM:.+]] = linalg.matmul
// CHECK:         %[[EXP:.+]] = tensor.expand_shape %[[MM]]
// CHECK:         linalg.generic
// CHECK-SAME:        ins(%[[EXP]] : tensor<4x16x32xf32>)
func.func @reshape_around_matmul(%a: tensor<64x8xf32>, %b: tensor<8x32xf32>,
                                 %c: tensor<64x32xf32>) -> tensor<4x16x32xf32> {
  %mm = linalg.matmul ins(%a, %b : tensor<64x8xf32>, tensor<8x32xf32>)
                      outs(%c : tensor<64x32xf32>) -> tensor<64x32xf32>
  %r = tensor.expand_shape %mm [[0, 1], [2]] output_shape [4, 16, 32]
      : tensor<64x32xf32> into tensor<4x16x32xf32>
  %e = tensor.empty() : tensor<4x16x32xf32>
  %y = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%r : tensor<4x16x32xf32>) outs(%e : tensor<4x16x32xf32>) {
  ^bb0(%v: f32, %out: f32):
    %t = math.tanh %v : f32
    linalg.yield %t : f32
  } -> tensor<4x16x32xf32>
  return %y : tensor<4x16x32xf32>
}

// -----

// A transpose of a small constant folds into a constant.
// CHECK-LABEL: func.func @small_constant_transpose
// CHECK:         %[[C:.+]] = arith.constant dense<{{\[\[}}1.000000e+00, 3.000000e+00], [2.000000e+00, 4.000000e+00]]> : tensor<2x2xf32>
// CHECK-NOT:     linalg.transpose
// CHECK:         return %[[C]]
func.func @small_constant_transpose() -> tensor<2x2xf32> {
  %c = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %e = tensor.empty() : tensor<2x2xf32>
  %t = linalg.transpose ins(%c : tensor<2x2xf32>) outs(%e : tensor<2x2xf32>) permutation = [1, 0]
  return %t : tensor<2x2xf32>
}

// -----

// One of more than 2^20 elements stays a transpose: upstream's folding would
// hold each of its 10^10 elements as an APFloat (found by fuzzing).
// CHECK-LABEL: func.func @huge_constant_transpose
// CHECK:         %[[C:.+]] = arith.constant dense<1.000000e+00> : tensor<100000x100000xf32>
// CHECK:         linalg.transpose ins(%[[C]]
func.func @huge_constant_transpose() -> tensor<100000x100000xf32> {
  %c = arith.constant dense<1.0> : tensor<100000x100000xf32>
  %e = tensor.empty() : tensor<100000x100000xf32>
  %t = linalg.transpose ins(%c : tensor<100000x100000xf32>) outs(%e : tensor<100000x100000xf32>) permutation = [1, 0]
  return %t : tensor<100000x100000xf32>
}

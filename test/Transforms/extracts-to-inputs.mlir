// RUN: nx-opt %s -split-input-file -nx-extracts-to-inputs -mlir-pass-statistics 2>%t.stats | FileCheck %s --enable-var-scope
// RUN: FileCheck %s --input-file=%t.stats --check-prefix=STATS

// tosa.reverse's lowering: the extract at 7 - j becomes an input of that map,
// ahead of the init, and the body reads its block argument.
// CHECK-DAG: #[[$REV:.*]] = affine_map<(d0, d1) -> (d0, -d1 + 7)>
// CHECK-DAG: #[[$ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @reverse_last_axis
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>)
// CHECK: linalg.generic {indexing_maps = [#[[$REV]], #[[$ID]]]
// CHECK-SAME: ins(%[[X]] : tensor<4x8xf32>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK-NOT: tensor.extract
// CHECK: linalg.yield %[[IN]] : f32
func.func @reverse_last_axis(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %c7 = arith.constant 7 : index
  %e = tensor.empty() : tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<4x8xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %k = arith.subi %c7, %j : index
    %v = tensor.extract %x[%i, %k] : tensor<4x8xf32>
    linalg.yield %v : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

// Sums, differences and products by constants, on both sides, and an index
// that depends on no loop; existing inputs keep their place before the new
// ones, and two extracts of one tensor at one map share an input.
// CHECK-DAG: #[[$ROW:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-DAG: #[[$WINDOW:.*]] = affine_map<(d0, d1) -> (d0 * 2 + d1 + 1, 3)>
// CHECK-DAG: #[[$OUT:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @linear_indices
// CHECK-SAME: (%[[B:[^:]*]]: tensor<4xf32>, %[[X:[^:]*]]: tensor<16x5xf32>)
// CHECK: linalg.generic {indexing_maps = [#[[$ROW]], #[[$WINDOW]], #[[$OUT]]]
// CHECK-SAME: ins(%[[B]], %[[X]] : tensor<4xf32>, tensor<16x5xf32>)
// CHECK-NEXT: ^bb0(%[[BIAS:.*]]: f32, %[[V:.*]]: f32, %{{.*}}: f32):
// CHECK-NOT: tensor.extract
// CHECK: %[[S:.*]] = arith.addf %[[V]], %[[V]] : f32
// CHECK: arith.addf %[[S]], %[[BIAS]] : f32
func.func @linear_indices(%b: tensor<4xf32>, %x: tensor<16x5xf32>) -> tensor<4x3xf32> {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %e = tensor.empty() : tensor<4x3xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>,
                                        affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%b : tensor<4xf32>) outs(%e : tensor<4x3xf32>) {
  ^bb0(%bias: f32, %out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %i2 = arith.muli %c2, %i : index
    %s = arith.addi %i2, %j : index
    %row = arith.addi %s, %c1 : index
    %v = tensor.extract %x[%row, %c3] : tensor<16x5xf32>
    %w = tensor.extract %x[%row, %c3] : tensor<16x5xf32>
    %t = arith.addf %v, %w : f32
    %u = arith.addf %t, %bias : f32
    linalg.yield %u : f32
  } -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}

// -----

// A reduction's body reads on every iteration too; a 0-d tensor's element
// has a map of no results.
// CHECK-DAG: #[[$K:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #[[$COL:.*]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-DAG: #[[$NONE:.*]] = affine_map<(d0, d1) -> ()>
// CHECK-LABEL: func.func @reduction_and_scalar
// CHECK: linalg.generic {indexing_maps = [#[[$K]], #[[$COL]], #[[$NONE]], #{{.*}}], iterator_types = ["parallel", "reduction"]}
// CHECK-NOT: tensor.extract
func.func @reduction_and_scalar(%w: tensor<6xf32>, %x: tensor<6x4xf32>, %s: tensor<f32>, %init: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>,
                                        affine_map<(d0, d1) -> (d0)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%w : tensor<6xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%weight: f32, %acc: f32):
    %i = linalg.index 0 : index
    %k = linalg.index 1 : index
    %v = tensor.extract %x[%k, %i] : tensor<6x4xf32>
    %scale = tensor.extract %s[] : tensor<f32>
    %p = arith.mulf %v, %scale : f32
    %q = arith.mulf %p, %weight : f32
    %t = arith.addf %q, %acc : f32
    linalg.yield %t : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// Left alone: the index could leave the tensor (j + 1 reaches 8 on the last
// iteration), an index read from data (a gather), an extract that runs on
// some iterations only, and loops of dynamic extent.
// CHECK-LABEL: func.func @out_of_bounds
// CHECK: tensor.extract
func.func @out_of_bounds(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %c1 = arith.constant 1 : index
  %e = tensor.empty() : tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<4x8xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %k = arith.addi %j, %c1 : index
    %v = tensor.extract %x[%i, %k] : tensor<4x8xf32>
    linalg.yield %v : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @gather
// CHECK: tensor.extract
func.func @gather(%x: tensor<16xf32>, %idx: tensor<4xi32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%idx : tensor<4xi32>) outs(%e : tensor<4xf32>) {
  ^bb0(%n: i32, %out: f32):
    %k = arith.index_cast %n : i32 to index
    %v = tensor.extract %x[%k] : tensor<16xf32>
    linalg.yield %v : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// CHECK-LABEL: func.func @conditional
// CHECK: scf.if
// CHECK: tensor.extract
func.func @conditional(%x: tensor<8xf32>, %c: i1) -> tensor<8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      outs(%e : tensor<8xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %v = scf.if %c -> f32 {
      %w = tensor.extract %x[%i] : tensor<8xf32>
      scf.yield %w : f32
    } else {
      scf.yield %zero : f32
    }
    linalg.yield %v : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// CHECK-LABEL: func.func @dynamic_loops
// CHECK: tensor.extract
func.func @dynamic_loops(%x: tensor<8xf32>, %e: tensor<?xf32>) -> tensor<?xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      outs(%e : tensor<?xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %v = tensor.extract %x[%i] : tensor<8xf32>
    linalg.yield %v : f32
  } -> tensor<?xf32>
  return %r : tensor<?xf32>
}

// Coefficients whose corner values overflow int64 are no map either.
// CHECK-LABEL: func.func @overflowing_index
// CHECK: tensor.extract
func.func @overflowing_index(%x: tensor<8xf32>) -> tensor<8xf32> {
  %big = arith.constant 4611686018427387904 : index
  %e = tensor.empty() : tensor<8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      outs(%e : tensor<8xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %k = arith.muli %i, %big : index
    %v = tensor.extract %x[%k] : tensor<8xf32>
    linalg.yield %v : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// STATS: 1 extracts-to-inputs
// STATS: 2 extracts-to-inputs
// STATS: 2 extracts-to-inputs
// STATS: 0 extracts-to-inputs

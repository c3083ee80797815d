// RUN: nx-opt %s -split-input-file -nx-reciprocal-divisors | FileCheck %s --enable-var-scope
// RUN: nx-opt %s -split-input-file -nx-reciprocal-divisors --mlir-pass-statistics 2>&1 | FileCheck %s --check-prefix=STATISTICS

// Each of the first four functions has one input rewritten, the six after
// them none.
// STATISTICS-COUNT-4: (S) 1 reciprocal-divisors
// STATISTICS-COUNT-6: (S) 0 reciprocal-divisors

// A softmax's last step: every element of a row divided by the row's sum.
// The sums are inverted once each, the rows multiplied, with the
// division's flags.
// CHECK-LABEL: func.func @row_sums
// CHECK-SAME: (%[[E:.*]]: tensor<2048x1024xf32>, %[[SUM:.*]]: tensor<2048xf32>)
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-DAG: %[[EMPTY:.*]] = tensor.empty() : tensor<2048xf32>
// CHECK: %[[INVERSE:.*]] = linalg.generic {{.*}} iterator_types = ["parallel"]} ins(%[[SUM]] : tensor<2048xf32>) outs(%[[EMPTY]] : tensor<2048xf32>)
// CHECK-NEXT: ^bb0(%[[S:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[R:.*]] = arith.divf %[[ONE]], %[[S]] fastmath<contract> : f32
// CHECK-NEXT: linalg.yield %[[R]]
// CHECK: linalg.generic {{.*}} ins(%[[E]], %[[INVERSE]] : tensor<2048x1024xf32>, tensor<2048xf32>)
// CHECK-NEXT: ^bb0(%[[V:.*]]: f32, %[[W:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[Q:.*]] = arith.mulf %[[V]], %[[W]] fastmath<contract> : f32
// CHECK-NEXT: linalg.yield %[[Q]]
// CHECK-NOT: arith.divf
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
func.func @row_sums(%e: tensor<2048x1024xf32>, %sum: tensor<2048xf32>) -> tensor<2048x1024xf32> {
  %out = tensor.empty() : tensor<2048x1024xf32>
  %p = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%e, %sum : tensor<2048x1024xf32>, tensor<2048xf32>) outs(%out : tensor<2048x1024xf32>) {
  ^bb0(%v: f32, %s: f32, %o: f32):
    %q = arith.divf %v, %s fastmath<contract> : f32
    linalg.yield %q : f32
  } -> tensor<2048x1024xf32>
  return %p : tensor<2048x1024xf32>
}

// -----

// An attention's sums, over the last of three dimensions, of dynamic
// sizes: the reciprocals' tensor takes the divisor's sizes. Two divisions
// by the same sum share one reciprocal, and the flags both have.
// CHECK-LABEL: func.func @dynamic_heads
// CHECK-SAME: (%[[E:.*]]: tensor<?x?x?xf32>, %[[SUM:.*]]: tensor<?x?xf32>)
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[D0:.*]] = tensor.dim %[[SUM]], %[[C0]]
// CHECK-DAG: %[[D1:.*]] = tensor.dim %[[SUM]], %[[C1]]
// CHECK: %[[EMPTY:.*]] = tensor.empty(%[[D0]], %[[D1]]) : tensor<?x?xf32>
// CHECK: %[[INVERSE:.*]] = linalg.generic {{.*}} ins(%[[SUM]] : tensor<?x?xf32>) outs(%[[EMPTY]] : tensor<?x?xf32>)
// CHECK: arith.divf %{{.*}}, %{{.*}} fastmath<nnan> : f32
// CHECK: linalg.generic {{.*}} ins(%[[E]], %[[INVERSE]] : tensor<?x?x?xf32>, tensor<?x?xf32>)
// CHECK-NEXT: ^bb0(%[[V:.*]]: f32, %[[W:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[P:.*]] = arith.mulf %[[V]], %[[W]] fastmath<nnan,contract> : f32
// CHECK-NEXT: %[[N:.*]] = arith.negf %[[V]]
// CHECK-NEXT: %[[M:.*]] = arith.mulf %[[N]], %[[W]] fastmath<nnan> : f32
// CHECK-NEXT: arith.addf %[[P]], %[[M]]
#id3 = affine_map<(h, i, j) -> (h, i, j)>
#row3 = affine_map<(h, i, j) -> (h, i)>
func.func @dynamic_heads(%e: tensor<?x?x?xf32>, %sum: tensor<?x?xf32>) -> tensor<?x?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %d0 = tensor.dim %e, %c0 : tensor<?x?x?xf32>
  %d1 = tensor.dim %e, %c1 : tensor<?x?x?xf32>
  %d2 = tensor.dim %e, %c2 : tensor<?x?x?xf32>
  %out = tensor.empty(%d0, %d1, %d2) : tensor<?x?x?xf32>
  %p = linalg.generic {indexing_maps = [#id3, #row3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%e, %sum : tensor<?x?x?xf32>, tensor<?x?xf32>) outs(%out : tensor<?x?x?xf32>) {
  ^bb0(%v: f32, %s: f32, %o: f32):
    %q = arith.divf %v, %s fastmath<nnan,contract> : f32
    %n = arith.negf %v : f32
    %r = arith.divf %n, %s fastmath<nnan> : f32
    %t = arith.addf %q, %r : f32
    linalg.yield %t : f32
  } -> tensor<?x?x?xf32>
  return %p : tensor<?x?x?xf32>
}

// -----

// A scalar divisor, shared by every point: one division outside the
// generic.
// CHECK-LABEL: func.func @scalar
// CHECK-SAME: (%[[X:.*]]: tensor<64xf32>, %[[D:.*]]: f32)
// CHECK: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK: %[[R:.*]] = arith.divf %[[ONE]], %[[D]] : f32
// CHECK: linalg.generic {{.*}} ins(%[[X]], %[[R]] : tensor<64xf32>, f32)
// CHECK: arith.mulf
// CHECK-NOT: arith.divf
func.func @scalar(%x: tensor<64xf32>, %d: f32) -> tensor<64xf32> {
  %out = tensor.empty() : tensor<64xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> ()>, affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%x, %d : tensor<64xf32>, f32) outs(%out : tensor<64xf32>) {
  ^bb0(%v: f32, %s: f32, %o: f32):
    %q = arith.divf %v, %s : f32
    linalg.yield %q : f32
  } -> tensor<64xf32>
  return %p : tensor<64xf32>
}

// -----

// A divisor broadcast along a reduction loop (each column's scale, read by
// every row of a row sum) serves as many points as there are rows.
// CHECK-LABEL: func.func @column_scales_in_a_reduction
// CHECK: %[[INVERSE:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<256xf32>)
// CHECK: linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]} ins(%{{.*}}, %[[INVERSE]] : tensor<64x256xf32>, tensor<256xf32>)
// CHECK: arith.mulf
// CHECK-NOT: arith.divf
func.func @column_scales_in_a_reduction(%x: tensor<64x256xf32>, %scale: tensor<256xf32>, %acc: tensor<256xf32>) -> tensor<256xf32> {
  %p = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (j)>],
                       iterator_types = ["reduction", "parallel"]}
      ins(%x, %scale : tensor<64x256xf32>, tensor<256xf32>) outs(%acc : tensor<256xf32>) {
  ^bb0(%v: f32, %s: f32, %a: f32):
    %q = arith.divf %v, %s : f32
    %t = arith.addf %a, %q : f32
    linalg.yield %t : f32
  } -> tensor<256xf32>
  return %p : tensor<256xf32>
}

// -----

// Left alone: a divisor per point (an elementwise division) has no
// division to save.
// CHECK-LABEL: func.func @elementwise
// CHECK-NOT: arith.mulf
// CHECK: arith.divf %{{.*}}, %{{.*}} : f32
// CHECK-NOT: arith.mulf
#id = affine_map<(i, j) -> (i, j)>
func.func @elementwise(%x: tensor<64x64xf32>, %y: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %out = tensor.empty() : tensor<64x64xf32>
  %p = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : tensor<64x64xf32>, tensor<64x64xf32>) outs(%out : tensor<64x64xf32>) {
  ^bb0(%v: f32, %s: f32, %o: f32):
    %q = arith.divf %v, %s : f32
    linalg.yield %q : f32
  } -> tensor<64x64xf32>
  return %p : tensor<64x64xf32>
}

// -----

// Left alone: each sum serves 4 points, fewer than the 8 that pay for the
// reciprocals' own pass.
// CHECK-LABEL: func.func @few_points
// CHECK-NOT: arith.mulf
// CHECK: arith.divf %{{.*}}, %{{.*}} : f32
// CHECK-NOT: arith.mulf
func.func @few_points(%x: tensor<64x4xf32>, %sum: tensor<64xf32>) -> tensor<64x4xf32> {
  %out = tensor.empty() : tensor<64x4xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum : tensor<64x4xf32>, tensor<64xf32>) outs(%out : tensor<64x4xf32>) {
  ^bb0(%v: f32, %s: f32, %o: f32):
    %q = arith.divf %v, %s : f32
    linalg.yield %q : f32
  } -> tensor<64x4xf32>
  return %p : tensor<64x4xf32>
}

// -----

// Left alone: the divisor is also subtracted, so the generic still needs it.
// CHECK-LABEL: func.func @divisor_read_otherwise
// CHECK-NOT: arith.mulf
// CHECK: arith.divf %{{.*}}, %{{.*}} : f32
// CHECK-NOT: arith.mulf
func.func @divisor_read_otherwise(%x: tensor<64x64xf32>, %sum: tensor<64xf32>) -> tensor<64x64xf32> {
  %out = tensor.empty() : tensor<64x64xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum : tensor<64x64xf32>, tensor<64xf32>) outs(%out : tensor<64x64xf32>) {
  ^bb0(%v: f32, %s: f32, %o: f32):
    %q = arith.divf %v, %s : f32
    %t = arith.subf %q, %s : f32
    linalg.yield %t : f32
  } -> tensor<64x64xf32>
  return %p : tensor<64x64xf32>
}

// -----

// Left alone: the broadcast value is the dividend, not the divisor.
// CHECK-LABEL: func.func @broadcast_dividend
// CHECK-NOT: arith.mulf
// CHECK: arith.divf %{{.*}}, %{{.*}} : f32
// CHECK-NOT: arith.mulf
func.func @broadcast_dividend(%x: tensor<64x64xf32>, %sum: tensor<64xf32>) -> tensor<64x64xf32> {
  %out = tensor.empty() : tensor<64x64xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum : tensor<64x64xf32>, tensor<64xf32>) outs(%out : tensor<64x64xf32>) {
  ^bb0(%v: f32, %s: f32, %o: f32):
    %q = arith.divf %s, %v : f32
    linalg.yield %q : f32
  } -> tensor<64x64xf32>
  return %p : tensor<64x64xf32>
}

// -----

// Left alone: f64 divisions keep their exact quotients.
// CHECK-LABEL: func.func @f64
// CHECK-NOT: arith.mulf
// CHECK: arith.divf %{{.*}}, %{{.*}} : f64
// CHECK-NOT: arith.mulf
func.func @f64(%x: tensor<64x64xf64>, %sum: tensor<64xf64>) -> tensor<64x64xf64> {
  %out = tensor.empty() : tensor<64x64xf64>
  %p = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum : tensor<64x64xf64>, tensor<64xf64>) outs(%out : tensor<64x64xf64>) {
  ^bb0(%v: f64, %s: f64, %o: f64):
    %q = arith.divf %v, %s : f64
    linalg.yield %q : f64
  } -> tensor<64x64xf64>
  return %p : tensor<64x64xf64>
}

// -----

// Left alone: buffers (the pass runs before bufferization).
// CHECK-LABEL: func.func @buffers
// CHECK-NOT: arith.mulf
// CHECK: arith.divf %{{.*}}, %{{.*}} : f32
// CHECK-NOT: arith.mulf
func.func @buffers(%x: memref<64x64xf32>, %sum: memref<64xf32>, %out: memref<64x64xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum : memref<64x64xf32>, memref<64xf32>) outs(%out : memref<64x64xf32>) {
  ^bb0(%v: f32, %s: f32, %o: f32):
    %q = arith.divf %v, %s : f32
    linalg.yield %q : f32
  }
  return
}

// RUN: nx-opt %s -split-input-file -nx-split-index-reductions=vector-bits=512 | FileCheck %s --enable-var-scope
// RUN: nx-opt %s -split-input-file -nx-split-index-reductions=vector-bits=128 | FileCheck %s --check-prefix=NARROW

#rows = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>

// An argmax along rows of 1024 f32 into i32 indices: 16 lanes x 4 vectors =
// 64 pairs per row, each lane taking every 64th element from the row's own
// init; the four vectors of pairs combined into one (an op whose innermost
// loop is parallel); then those 16 pairs combined in order, an equal value
// taken only at a smaller index.
// CHECK-LABEL: func.func @argmax
//  CHECK-SAME: (%[[X:.*]]: tensor<8x1024xf32>, %[[MAX:.*]]: tensor<8xf32>, %[[ARG:.*]]: tensor<8xi32>)
//       CHECK:   %[[E:.*]] = tensor.expand_shape %[[X]] {{\[}}[0], [1, 2]] output_shape [8, 16, 64]
//       CHECK:   %[[MAX64:.*]] = linalg.broadcast ins(%[[MAX]] : tensor<8xf32>) outs(%{{.*}} : tensor<8x64xf32>) dimensions = [1]
//       CHECK:   %[[ARG64:.*]] = linalg.broadcast ins(%[[ARG]] : tensor<8xi32>) outs(%{{.*}} : tensor<8x64xi32>) dimensions = [1]
//       CHECK:   %[[LANES:.*]]:2 = linalg.generic
//  CHECK-SAME:     iterator_types = ["parallel", "reduction", "parallel"]
//  CHECK-SAME:     ins(%[[E]] : tensor<8x16x64xf32>) outs(%[[MAX64]], %[[ARG64]] : tensor<8x64xf32>, tensor<8x64xi32>)
//       CHECK:     %[[K:.*]] = linalg.index 1 : index
//       CHECK:     %[[L:.*]] = linalg.index 2 : index
//       CHECK:     %[[KR:.*]] = arith.muli %[[K]], %{{.*}} : index
//       CHECK:     %[[J:.*]] = arith.addi %[[KR]], %[[L]] : index
//       CHECK:     arith.index_cast %[[J]] : index to i32
//       CHECK:     arith.cmpf ogt
//       CHECK:   %[[V4:.*]] = tensor.expand_shape %[[LANES]]#0 {{\[}}[0], [1, 2]] output_shape [8, 4, 16]
//       CHECK:   %[[I4:.*]] = tensor.expand_shape %[[LANES]]#1 {{\[}}[0], [1, 2]] output_shape [8, 4, 16]
//       CHECK:   %[[MAX16:.*]] = linalg.broadcast ins(%[[MAX]] : tensor<8xf32>) outs(%{{.*}} : tensor<8x16xf32>) dimensions = [1]
//       CHECK:   %[[ARG16:.*]] = linalg.broadcast ins(%[[ARG]] : tensor<8xi32>) outs(%{{.*}} : tensor<8x16xi32>) dimensions = [1]
//       CHECK:   %[[VECTOR:.*]]:2 = linalg.generic
//  CHECK-SAME:     iterator_types = ["parallel", "reduction", "parallel"]
//  CHECK-SAME:     ins(%[[V4]], %[[I4]] : tensor<8x4x16xf32>, tensor<8x4x16xi32>) outs(%[[MAX16]], %[[ARG16]] : tensor<8x16xf32>, tensor<8x16xi32>)
//       CHECK:     arith.cmpf oeq
//       CHECK:   %[[R:.*]]:2 = linalg.generic
//  CHECK-SAME:     iterator_types = ["parallel", "reduction"]
//  CHECK-SAME:     ins(%[[VECTOR]]#0, %[[VECTOR]]#1 : tensor<8x16xf32>, tensor<8x16xi32>) outs(%[[MAX]], %[[ARG]] : tensor<8xf32>, tensor<8xi32>)
//  CHECK-NEXT:   ^bb0(%[[V:.*]]: f32, %[[VI:.*]]: i32, %[[BEST:.*]]: f32, %[[BESTI:.*]]: i32):
//  CHECK-NEXT:     %[[BETTER:.*]] = arith.cmpf ogt, %[[V]], %[[BEST]] : f32
//  CHECK-NEXT:     %[[EQUAL:.*]] = arith.cmpf oeq, %[[V]], %[[BEST]] : f32
//  CHECK-NEXT:     %[[EARLIER:.*]] = arith.cmpi slt, %[[VI]], %[[BESTI]] : i32
//  CHECK-NEXT:     %[[TIE:.*]] = arith.andi %[[EQUAL]], %[[EARLIER]] : i1
//  CHECK-NEXT:     %[[TAKE:.*]] = arith.ori %[[BETTER]], %[[TIE]] : i1
//  CHECK-NEXT:     %[[NV:.*]] = arith.select %[[TAKE]], %[[V]], %[[BEST]] : f32
//  CHECK-NEXT:     %[[NI:.*]] = arith.select %[[TAKE]], %[[VI]], %[[BESTI]] : i32
//  CHECK-NEXT:     linalg.yield %[[NV]], %[[NI]] : f32, i32
//       CHECK:   return %[[R]]#0, %[[R]]#1
// At 128 bits: 4 lanes x 4 vectors.
// NARROW-LABEL: func.func @argmax
//       NARROW:   tensor.expand_shape %{{.*}} {{\[}}[0], [1, 2]] output_shape [8, 64, 16]
//       NARROW:   tensor.expand_shape %{{.*}} {{\[}}[0], [1, 2]] output_shape [8, 4, 4]
func.func @argmax(%x: tensor<8x1024xf32>, %max: tensor<8xf32>, %arg: tensor<8xi32>) -> (tensor<8xf32>, tensor<8xi32>) {
  %r:2 = linalg.generic {indexing_maps = [#rows, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x1024xf32>) outs(%max, %arg : tensor<8xf32>, tensor<8xi32>) {
  ^bb0(%in: f32, %acc: f32, %idx: i32):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i32
    %gt = arith.cmpf ogt, %in, %acc : f32
    %nm = arith.select %gt, %in, %acc : f32
    %ni = arith.select %gt, %ji, %idx : i32
    linalg.yield %nm, %ni : f32, i32
  } -> (tensor<8xf32>, tensor<8xi32>)
  return %r#0, %r#1 : tensor<8xf32>, tensor<8xi32>
}

// -----

#rows = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>

// An argmin of i64 written with the running value on the left (sgt of the
// running value: slt of the input), into i64 indices through an unsigned
// cast: 8 lanes x 4 vectors of i64. The lanes' body has the input on the
// left.
// CHECK-LABEL: func.func @argmin_swapped
//       CHECK:   tensor.expand_shape %{{.*}} output_shape [4, 8, 32]
//       CHECK:   linalg.generic
//       CHECK:   ^bb0(%[[IN:.*]]: i64, %[[ACC:.*]]: i64, %{{.*}}: i64):
//       CHECK:     arith.cmpi slt, %[[IN]], %[[ACC]] : i64
//       CHECK:   linalg.generic
//       CHECK:     arith.cmpi slt, %[[V:.*]], %[[BEST:[^ ]*]] : i64
//       CHECK:     arith.cmpi eq, %[[V]], %[[BEST]] : i64
func.func @argmin_swapped(%x: tensor<4x256xi64>, %min: tensor<4xi64>, %arg: tensor<4xi64>) -> (tensor<4xi64>, tensor<4xi64>) {
  %r:2 = linalg.generic {indexing_maps = [#rows, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x256xi64>) outs(%min, %arg : tensor<4xi64>, tensor<4xi64>) {
  ^bb0(%in: i64, %acc: i64, %idx: i64):
    %j = linalg.index 1 : index
    %ji = arith.index_castui %j : index to i64
    %gt = arith.cmpi sgt, %acc, %in : i64
    %nm = arith.select %gt, %in, %acc : i64
    %ni = arith.select %gt, %ji, %idx : i64
    linalg.yield %nm, %ni : i64, i64
  } -> (tensor<4xi64>, tensor<4xi64>)
  return %r#0, %r#1 : tensor<4xi64>, tensor<4xi64>
}

// -----

#rows = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>

// tosa.argmax's lowering: the index first, and NaN the best value (ugt,
// while the running value is ordered). The lanes are combined with the same
// rule, two NaNs being equal.
// CHECK-LABEL: func.func @nan_is_best
//       CHECK:   linalg.generic
//  CHECK-SAME:     iterator_types = ["parallel", "reduction", "parallel"]
//  CHECK-SAME:     outs(%{{.*}}, %{{.*}} : tensor<4x64xi32>, tensor<4x64xf32>)
//       CHECK:   linalg.generic
//  CHECK-SAME:     outs(%{{.*}}, %{{.*}} : tensor<4x16xi32>, tensor<4x16xf32>)
//       CHECK:   linalg.generic
//  CHECK-SAME:     iterator_types = ["parallel", "reduction"]
//  CHECK-NEXT:   ^bb0(%[[VI:.*]]: i32, %[[V:.*]]: f32, %[[BESTI:.*]]: i32, %[[BEST:.*]]: f32):
//  CHECK-NEXT:     %[[GT:.*]] = arith.cmpf ugt, %[[V]], %[[BEST]] : f32
//  CHECK-NEXT:     %[[ORD:.*]] = arith.cmpf ord, %[[BEST]], %[[BEST]] : f32
//  CHECK-NEXT:     %[[BETTER:.*]] = arith.andi %[[GT]], %[[ORD]] : i1
//  CHECK-NEXT:     %[[EQ:.*]] = arith.cmpf oeq, %[[V]], %[[BEST]] : f32
//   CHECK-DAG:     %[[NAN1:.*]] = arith.cmpf uno, %[[V]], %[[V]] : f32
//   CHECK-DAG:     %[[NAN2:.*]] = arith.cmpf uno, %[[BEST]], %[[BEST]] : f32
//       CHECK:     %[[NANS:.*]] = arith.andi %[[NAN1]], %[[NAN2]] : i1
//  CHECK-NEXT:     %[[EQUAL:.*]] = arith.ori %[[EQ]], %[[NANS]] : i1
//  CHECK-NEXT:     %[[EARLIER:.*]] = arith.cmpi slt, %[[VI]], %[[BESTI]] : i32
//  CHECK-NEXT:     %[[TIE:.*]] = arith.andi %[[EQUAL]], %[[EARLIER]] : i1
//  CHECK-NEXT:     %[[TAKE:.*]] = arith.ori %[[BETTER]], %[[TIE]] : i1
//  CHECK-NEXT:     %[[NV:.*]] = arith.select %[[TAKE]], %[[V]], %[[BEST]] : f32
//  CHECK-NEXT:     %[[NI:.*]] = arith.select %[[TAKE]], %[[VI]], %[[BESTI]] : i32
//  CHECK-NEXT:     linalg.yield %[[NI]], %[[NV]] : i32, f32
func.func @nan_is_best(%x: tensor<4x256xf32>, %arg: tensor<4xi32>, %max: tensor<4xf32>) -> (tensor<4xi32>, tensor<4xf32>) {
  %r:2 = linalg.generic {indexing_maps = [#rows, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x256xf32>) outs(%arg, %max : tensor<4xi32>, tensor<4xf32>) {
  ^bb0(%in: f32, %idx: i32, %acc: f32):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i32
    %gt = arith.cmpf ugt, %in, %acc : f32
    %ord = arith.cmpf ord, %acc, %acc : f32
    %take = arith.andi %gt, %ord : i1
    %nm = arith.select %take, %in, %acc : f32
    %ni = arith.select %take, %ji, %idx : i32
    linalg.yield %ni, %nm : i32, f32
  } -> (tensor<4xi32>, tensor<4xf32>)
  return %r#0, %r#1 : tensor<4xi32>, tensor<4xf32>
}

// -----

#rows = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>

// Left alone: a non-strict comparison (the last of equal elements wins), an
// unordered one, an index type too narrow for 256 positions, the index of
// the wrong loop, a body doing more, a dynamic op, and a row too short for
// two vectors.
// CHECK-LABEL: func.func @left_alone
//   CHECK-NOT:   tensor.expand_shape
//   CHECK-NOT:   linalg.broadcast
// CHECK-COUNT-7: linalg.generic
//   CHECK-NOT:   linalg.generic
func.func @left_alone(%x: tensor<4x256xf32>, %max: tensor<4xf32>, %arg: tensor<4xi32>, %arg8: tensor<4xi8>,
                      %dx: tensor<?x256xf32>, %dmax: tensor<?xf32>, %darg: tensor<?xi32>, %short: tensor<4x16xf32>) {
  %oge:2 = linalg.generic {indexing_maps = [#rows, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x256xf32>) outs(%max, %arg : tensor<4xf32>, tensor<4xi32>) {
  ^bb0(%in: f32, %acc: f32, %idx: i32):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i32
    %gt = arith.cmpf oge, %in, %acc : f32
    %nm = arith.select %gt, %in, %acc : f32
    %ni = arith.select %gt, %ji, %idx : i32
    linalg.yield %nm, %ni : f32, i32
  } -> (tensor<4xf32>, tensor<4xi32>)
  %ugt:2 = linalg.generic {indexing_maps = [#rows, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x256xf32>) outs(%max, %arg : tensor<4xf32>, tensor<4xi32>) {
  ^bb0(%in: f32, %acc: f32, %idx: i32):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i32
    %gt = arith.cmpf ugt, %in, %acc : f32
    %nm = arith.select %gt, %in, %acc : f32
    %ni = arith.select %gt, %ji, %idx : i32
    linalg.yield %nm, %ni : f32, i32
  } -> (tensor<4xf32>, tensor<4xi32>)
  %narrow:2 = linalg.generic {indexing_maps = [#rows, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x256xf32>) outs(%max, %arg8 : tensor<4xf32>, tensor<4xi8>) {
  ^bb0(%in: f32, %acc: f32, %idx: i8):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i8
    %gt = arith.cmpf ogt, %in, %acc : f32
    %nm = arith.select %gt, %in, %acc : f32
    %ni = arith.select %gt, %ji, %idx : i8
    linalg.yield %nm, %ni : f32, i8
  } -> (tensor<4xf32>, tensor<4xi8>)
  %row:2 = linalg.generic {indexing_maps = [#rows, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x256xf32>) outs(%max, %arg : tensor<4xf32>, tensor<4xi32>) {
  ^bb0(%in: f32, %acc: f32, %idx: i32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i32
    %gt = arith.cmpf ogt, %in, %acc : f32
    %nm = arith.select %gt, %in, %acc : f32
    %ni = arith.select %gt, %ii, %idx : i32
    linalg.yield %nm, %ni : f32, i32
  } -> (tensor<4xf32>, tensor<4xi32>)
  %more:2 = linalg.generic {indexing_maps = [#rows, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x256xf32>) outs(%max, %arg : tensor<4xf32>, tensor<4xi32>) {
  ^bb0(%in: f32, %acc: f32, %idx: i32):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i32
    %abs = math.absf %in : f32
    %gt = arith.cmpf ogt, %in, %acc : f32
    %nm = arith.select %gt, %in, %acc : f32
    %ni = arith.select %gt, %ji, %idx : i32
    linalg.yield %nm, %ni : f32, i32
  } -> (tensor<4xf32>, tensor<4xi32>)
  %dynamic:2 = linalg.generic {indexing_maps = [#rows, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%dx : tensor<?x256xf32>) outs(%dmax, %darg : tensor<?xf32>, tensor<?xi32>) {
  ^bb0(%in: f32, %acc: f32, %idx: i32):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i32
    %gt = arith.cmpf ogt, %in, %acc : f32
    %nm = arith.select %gt, %in, %acc : f32
    %ni = arith.select %gt, %ji, %idx : i32
    linalg.yield %nm, %ni : f32, i32
  } -> (tensor<?xf32>, tensor<?xi32>)
  %few:2 = linalg.generic {indexing_maps = [#rows, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%short : tensor<4x16xf32>) outs(%max, %arg : tensor<4xf32>, tensor<4xi32>) {
  ^bb0(%in: f32, %acc: f32, %idx: i32):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i32
    %gt = arith.cmpf ogt, %in, %acc : f32
    %nm = arith.select %gt, %in, %acc : f32
    %ni = arith.select %gt, %ji, %idx : i32
    linalg.yield %nm, %ni : f32, i32
  } -> (tensor<4xf32>, tensor<4xi32>)
  return
}

// -----

#rows = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>

// JAX's argmax through StableHLO's reduction of (values, iota), lowered to
// linalg and its iota fused: the accumulator is kept where it is greater
// or NaN, and its index also on a tie at a later position. With the index
// starting at 0 and the value unread, that is the first best element with
// NaN the best, as tosa.argmax's form: the lanes' body is that form's.
// CHECK-LABEL: func.func @jax_argmax
//       CHECK:   linalg.generic
//  CHECK-SAME:     iterator_types = ["parallel", "reduction", "parallel"]
//  CHECK-NEXT:   ^bb0(%[[IN:.*]]: f32, %[[ACC:.*]]: f32, %[[IDX:.*]]: i32):
//       CHECK:     %[[J:.*]] = arith.index_cast %{{.*}} : index to i32
//  CHECK-NEXT:     %[[GT:.*]] = arith.cmpf ugt, %[[IN]], %[[ACC]] : f32
//  CHECK-NEXT:     %[[ORD:.*]] = arith.cmpf ord, %[[ACC]], %[[ACC]] : f32
//  CHECK-NEXT:     %[[TAKE:.*]] = arith.andi %[[GT]], %[[ORD]] : i1
//  CHECK-NEXT:     arith.select %[[TAKE]], %[[IN]], %[[ACC]] : f32
//  CHECK-NEXT:     arith.select %[[TAKE]], %[[J]], %[[IDX]] : i32
//       CHECK:   linalg.generic
//       CHECK:   %[[R:.*]]:2 = linalg.generic
//       CHECK:     arith.cmpf uno
//       CHECK:   return %[[R]]#1
func.func @jax_argmax(%x: tensor<4x256xf32>) -> tensor<4xi32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<4xf32>
  %ei = tensor.empty() : tensor<4xi32>
  %m = linalg.fill ins(%ninf : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %i = linalg.fill ins(%zero : i32) outs(%ei : tensor<4xi32>) -> tensor<4xi32>
  %r:2 = linalg.generic {indexing_maps = [#rows, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x256xf32>) outs(%m, %i : tensor<4xf32>, tensor<4xi32>) {
  ^bb0(%in: f32, %acc: f32, %acci: i32):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i32
    %gt = arith.cmpf ogt, %acc, %in : f32
    %nan = arith.cmpf une, %acc, %acc : f32
    %keep = arith.ori %gt, %nan : i1
    %eq = arith.cmpf oeq, %acc, %in : f32
    %lt = arith.cmpi slt, %acci, %ji : i32
    %tie = arith.andi %eq, %lt : i1
    %keepi = arith.ori %keep, %tie : i1
    %v = arith.select %keep, %acc, %in : f32
    %k = arith.select %keepi, %acci, %ji : i32
    linalg.yield %v, %k : f32, i32
  } -> (tensor<4xf32>, tensor<4xi32>)
  return %r#1 : tensor<4xi32>
}

// -----

#rows = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>

// JAX's argmin of integers (no NaN check), the index first, the operands
// of each `or` and `and` swapped, the index starting at -1: the lanes take
// the input where it is smaller.
// CHECK-LABEL: func.func @jax_argmin_integers
//       CHECK:   linalg.generic
//  CHECK-SAME:     iterator_types = ["parallel", "reduction", "parallel"]
//  CHECK-NEXT:   ^bb0(%[[IN:.*]]: i32, %[[IDX:.*]]: i32, %[[ACC:.*]]: i32):
//       CHECK:     %[[TAKE:.*]] = arith.cmpi slt, %[[IN]], %[[ACC]] : i32
//  CHECK-NEXT:     arith.select %[[TAKE]], %[[IN]], %[[ACC]] : i32
func.func @jax_argmin_integers(%x: tensor<4x256xi32>) -> tensor<4xi32> {
  %big = arith.constant 2147483647 : i32
  %start = arith.constant -1 : i32
  %e = tensor.empty() : tensor<4xi32>
  %m = linalg.fill ins(%big : i32) outs(%e : tensor<4xi32>) -> tensor<4xi32>
  %i = linalg.fill ins(%start : i32) outs(%e : tensor<4xi32>) -> tensor<4xi32>
  %r:2 = linalg.generic {indexing_maps = [#rows, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x256xi32>) outs(%i, %m : tensor<4xi32>, tensor<4xi32>) {
  ^bb0(%in: i32, %acci: i32, %acc: i32):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i32
    %keep = arith.cmpi slt, %acc, %in : i32
    %eq = arith.cmpi eq, %in, %acc : i32
    %later = arith.cmpi sgt, %ji, %acci : i32
    %tie = arith.andi %later, %eq : i1
    %keepi = arith.ori %tie, %keep : i1
    %v = arith.select %keep, %acc, %in : i32
    %k = arith.select %keepi, %acci, %ji : i32
    linalg.yield %k, %v : i32, i32
  } -> (tensor<4xi32>, tensor<4xi32>)
  return %r#0 : tensor<4xi32>
}

// -----

#rows = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>

// Left alone: JAX's form whose value is read (a tie gives the later
// element's value, -0 for +0, where a split keeps the first), whose index
// starts at 1 (a later start wins the ties before it), and whose kept
// value is checked for NaN on the input instead.
// CHECK-LABEL: func.func @jax_left_alone
//   CHECK-NOT:   tensor.expand_shape
// CHECK-COUNT-3: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
//   CHECK-NOT:   linalg.generic
func.func @jax_left_alone(%x: tensor<4x256xf32>) -> (tensor<4xf32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %e = tensor.empty() : tensor<4xf32>
  %ei = tensor.empty() : tensor<4xi32>
  %m = linalg.fill ins(%ninf : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %i = linalg.fill ins(%zero : i32) outs(%ei : tensor<4xi32>) -> tensor<4xi32>
  %i1 = linalg.fill ins(%one : i32) outs(%ei : tensor<4xi32>) -> tensor<4xi32>
  %read:2 = linalg.generic {indexing_maps = [#rows, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x256xf32>) outs(%m, %i : tensor<4xf32>, tensor<4xi32>) {
  ^bb0(%in: f32, %acc: f32, %acci: i32):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i32
    %gt = arith.cmpf ogt, %acc, %in : f32
    %nan = arith.cmpf une, %acc, %acc : f32
    %keep = arith.ori %gt, %nan : i1
    %eq = arith.cmpf oeq, %acc, %in : f32
    %lt = arith.cmpi slt, %acci, %ji : i32
    %tie = arith.andi %eq, %lt : i1
    %keepi = arith.ori %keep, %tie : i1
    %v = arith.select %keep, %acc, %in : f32
    %k = arith.select %keepi, %acci, %ji : i32
    linalg.yield %v, %k : f32, i32
  } -> (tensor<4xf32>, tensor<4xi32>)
  %late:2 = linalg.generic {indexing_maps = [#rows, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x256xf32>) outs(%m, %i1 : tensor<4xf32>, tensor<4xi32>) {
  ^bb0(%in: f32, %acc: f32, %acci: i32):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i32
    %gt = arith.cmpf ogt, %acc, %in : f32
    %nan = arith.cmpf une, %acc, %acc : f32
    %keep = arith.ori %gt, %nan : i1
    %eq = arith.cmpf oeq, %acc, %in : f32
    %lt = arith.cmpi slt, %acci, %ji : i32
    %tie = arith.andi %eq, %lt : i1
    %keepi = arith.ori %keep, %tie : i1
    %v = arith.select %keep, %acc, %in : f32
    %k = arith.select %keepi, %acci, %ji : i32
    linalg.yield %v, %k : f32, i32
  } -> (tensor<4xf32>, tensor<4xi32>)
  %wrong:2 = linalg.generic {indexing_maps = [#rows, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x256xf32>) outs(%m, %i : tensor<4xf32>, tensor<4xi32>) {
  ^bb0(%in: f32, %acc: f32, %acci: i32):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i32
    %gt = arith.cmpf ogt, %acc, %in : f32
    %nan = arith.cmpf une, %in, %in : f32
    %keep = arith.ori %gt, %nan : i1
    %eq = arith.cmpf oeq, %acc, %in : f32
    %lt = arith.cmpi slt, %acci, %ji : i32
    %tie = arith.andi %eq, %lt : i1
    %keepi = arith.ori %keep, %tie : i1
    %v = arith.select %keep, %acc, %in : f32
    %k = arith.select %keepi, %acci, %ji : i32
    linalg.yield %v, %k : f32, i32
  } -> (tensor<4xf32>, tensor<4xi32>)
  return %read#0, %read#1, %late#1, %wrong#1 : tensor<4xf32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>
}

// RUN: nx-opt %s -split-input-file -nx-vectorize-linalg=vector-bits=512 -canonicalize | FileCheck %s --enable-var-scope

// Reductions over outer loops only, whose combiner (a comparison and two
// selections, an argmax's) upstream's vectorizer takes as no reduction:
// tiled one step at a time along the reduced loops, each tile is an
// elementwise op once its unit reduction loops are dropped, and vectorizes.
// The accumulators stay in registers across the reduced loop.

// nx-split-index-reductions' first step: 4 vectors of (value, index) pairs
// per row, along k.
// CHECK-LABEL: func.func @lanes
//   CHECK-DAG:   %[[STEP:.*]] = vector.step : vector<16xindex>
//       CHECK:   scf.for %[[I:[a-z0-9_]+]] =
//       CHECK:     %[[V0:.*]] = vector.transfer_read %{{.*}}[%[[I]], %{{.*}}]{{.*}} : memref<8x64xf32>, vector<16xf32>
//       CHECK:     %[[R:.*]]:8 = scf.for %[[K:[a-z0-9_]+]] = {{.*}} iter_args(%[[A0:[^ ]*]] = %[[V0]], %[[B0:[^ ]*]] = %{{[^,]*}}
//       CHECK:       %[[X:.*]] = vector.transfer_read %{{.*}}[%[[I]], %[[K]], %{{.*}}]{{.*}} : memref<8x4x64xf32>, vector<16xf32>
//       CHECK:       %[[BASE:.*]] = arith.muli %[[K]], %{{.*}} : index
//       CHECK:       %[[B:.*]] = vector.broadcast %[[BASE]] : index to vector<16xindex>
//       CHECK:       %[[J:.*]] = arith.addi %[[B]], %[[STEP]] : vector<16xindex>
//       CHECK:       %[[JI:.*]] = arith.index_cast %[[J]] : vector<16xindex> to vector<16xi32>
//       CHECK:       %[[GT:.*]] = arith.cmpf ogt, %[[X]], %[[A0]] : vector<16xf32>
//       CHECK:       arith.select %[[GT]], %[[X]], %[[A0]] : vector<16xi1>, vector<16xf32>
//       CHECK:       arith.select %[[GT]], %[[JI]], %[[B0]] : vector<16xi1>, vector<16xi32>
//       CHECK:       scf.yield
//       CHECK:     vector.transfer_write %[[R]]#
//   CHECK-NOT:   linalg.generic
func.func @lanes(%x: memref<8x4x64xf32>, %m: memref<8x64xf32>, %i: memref<8x64xi32>) {
  linalg.generic {indexing_maps = [affine_map<(i, k, l) -> (i, k, l)>, affine_map<(i, k, l) -> (i, l)>, affine_map<(i, k, l) -> (i, l)>],
                  iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x : memref<8x4x64xf32>) outs(%m, %i : memref<8x64xf32>, memref<8x64xi32>) {
  ^bb0(%in: f32, %acc: f32, %idx: i32):
    %k = linalg.index 1 : index
    %l = linalg.index 2 : index
    %c64 = arith.constant 64 : index
    %km = arith.muli %k, %c64 : index
    %j = arith.addi %km, %l : index
    %jj = arith.index_cast %j : index to i32
    %gt = arith.cmpf ogt, %in, %acc : f32
    %nm = arith.select %gt, %in, %acc : f32
    %ni = arith.select %gt, %jj, %idx : i32
    linalg.yield %nm, %ni : f32, i32
  }
  return
}

// -----

// An argmin along the columns (the outermost loop): the reduced loop's index
// is the loop's own variable in each tile.
// CHECK-LABEL: func.func @column_argmin
//       CHECK:   scf.for %[[I:[a-z0-9_]+]] =
//       CHECK:     %[[II:.*]] = arith.index_cast %[[I]] : index to i32
//       CHECK:     vector.broadcast %[[II]] : i32 to vector<16xi32>
//       CHECK:     arith.cmpf olt, %{{.*}}, %{{.*}} : vector<16xf32>
//   CHECK-NOT:   linalg.generic
func.func @column_argmin(%x: memref<64x32xf32>, %m: memref<32xf32>, %i: memref<32xi32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (j)>],
                  iterator_types = ["reduction", "parallel"]}
      ins(%x : memref<64x32xf32>) outs(%m, %i : memref<32xf32>, memref<32xi32>) {
  ^bb0(%in: f32, %acc: f32, %idx: i32):
    %r = linalg.index 0 : index
    %ri = arith.index_cast %r : index to i32
    %lt = arith.cmpf olt, %in, %acc : f32
    %nm = arith.select %lt, %in, %acc : f32
    %ni = arith.select %lt, %ri, %idx : i32
    linalg.yield %nm, %ni : f32, i32
  }
  return
}

// -----

// A reduction over the innermost loop is no such op: left to the loops.
// CHECK-LABEL: func.func @row_argmax
//       CHECK:   linalg.generic
func.func @row_argmax(%x: memref<8x64xf32>, %m: memref<8xf32>, %i: memref<8xi32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<8x64xf32>) outs(%m, %i : memref<8xf32>, memref<8xi32>) {
  ^bb0(%in: f32, %acc: f32, %idx: i32):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i32
    %gt = arith.cmpf ogt, %in, %acc : f32
    %nm = arith.select %gt, %in, %acc : f32
    %ni = arith.select %gt, %ji, %idx : i32
    linalg.yield %nm, %ni : f32, i32
  }
  return
}

// -----

// A body with an op other than arithmetic, math and linalg.index (a load
// from a table) is not tiled: the op stays whole for the loop lowering.
// CHECK-LABEL: func.func @other_body
//   CHECK-NOT:   scf.for
//       CHECK:   linalg.generic
//  CHECK-SAME:     ins(%{{.*}} : memref<64x32xf32>) outs(%{{.*}}, %{{.*}} : memref<32xf32>, memref<32xi32>)
func.func @other_body(%x: memref<64x32xf32>, %m: memref<32xf32>, %i: memref<32xi32>, %table: memref<64xi32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (j)>],
                  iterator_types = ["reduction", "parallel"]}
      ins(%x : memref<64x32xf32>) outs(%m, %i : memref<32xf32>, memref<32xi32>) {
  ^bb0(%in: f32, %acc: f32, %idx: i32):
    %r = linalg.index 0 : index
    %ri = memref.load %table[%r] : memref<64xi32>
    %lt = arith.cmpf olt, %in, %acc : f32
    %nm = arith.select %lt, %in, %acc : f32
    %ni = arith.select %lt, %ri, %idx : i32
    linalg.yield %nm, %ni : f32, i32
  }
  return
}

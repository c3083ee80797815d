// RUN: nx-opt %s -split-input-file -nx-reversed-views -nx-vectorize-linalg=vector-bits=512 -canonicalize | FileCheck %s --enable-var-scope

#id = affine_map<(i, j) -> (i, j)>

// A flip of the last axis runs its columns backwards (nx-reversed-views)
// and writes a view of stride -1: each row's vectors of 16 lanes are read
// from %x in order, reversed by one shuffle, and written in memory order at
// column 32 - 16 - j of %y itself (the view of stride 1 of the view of
// stride -1 of %y is %y).
// CHECK:       #[[$LEFT:.+]] = affine_map<()[s0] -> (-s0 + 16)>
// CHECK-LABEL: func.func @flip_columns
// CHECK-SAME:      %[[X:[a-zA-Z0-9_]+]]: memref<64x32xf32>, %[[Y:[a-zA-Z0-9_]+]]: memref<64x32xf32>
// CHECK:         scf.for %[[I:.+]] =
// CHECK:           scf.for %[[J:.+]] =
// CHECK:             %[[IN_ORDER:.+]] = vector.transfer_read %[[X]][%[[I]], %[[J]]]
// CHECK:             %[[COLUMN:.+]] = affine.apply #[[$LEFT]]()[%[[J]]]
// CHECK:             %[[REVERSED:.+]] = vector.shuffle %[[IN_ORDER]], %[[IN_ORDER]] [15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0]
// CHECK:             vector.transfer_write %[[REVERSED]], %[[Y]][%[[I]], %[[COLUMN]]] {in_bounds = [true]} : vector<16xf32>, memref<64x32xf32>
func.func @flip_columns(%x: memref<64x32xf32>, %y: memref<64x32xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, 31 - j)>, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<64x32xf32>) outs(%y : memref<64x32xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  }
  return
}

// -----

#id = affine_map<(i, j) -> (i, j)>

// A flip of the first 32 of 33 columns keeps its direction and reads a
// view of stride -1: each vector is read in memory order, at column
// 32 - 16 - j of a view of stride 1 that starts 31 elements before the
// reversed one's start, and one shuffle reverses it.
// CHECK:       #[[$LEFT:.+]] = affine_map<()[s0] -> (-s0 + 16)>
// CHECK-LABEL: func.func @flip_inner_columns
// CHECK-SAME:      %[[X:[a-zA-Z0-9_]+]]: memref<64x33xf32>
// CHECK:         scf.for %[[I:.+]] =
// CHECK:           scf.for %[[J:.+]] =
// CHECK:             %[[FORWARD:.+]] = memref.reinterpret_cast %[[X]] to offset: [0], sizes: [64, 32], strides: [33, 1]
// CHECK:             %[[COLUMN:.+]] = affine.apply #[[$LEFT]]()[%[[J]]]
// CHECK:             %[[IN_ORDER:.+]] = vector.transfer_read %[[FORWARD]][%[[I]], %[[COLUMN]]]
// CHECK-SAME:            memref<64x32xf32, strided<[33, 1]>>, vector<16xf32>
// CHECK:             %[[REVERSED:.+]] = vector.shuffle %[[IN_ORDER]], %[[IN_ORDER]] [15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0]
// CHECK:             vector.transfer_write %[[REVERSED]]
func.func @flip_inner_columns(%x: memref<64x33xf32>, %y: memref<64x32xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, 31 - j)>, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<64x33xf32>) outs(%y : memref<64x32xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  }
  return
}

// -----

#id = affine_map<(i, j) -> (i, j)>

// A flip of the first axis only: the rows' stride is negative, the
// columns' is 1, so the vectors are read as they are.
// CHECK-LABEL: func.func @flip_rows
// CHECK:         vector.transfer_read %{{.+}} : memref<64x32xf32, strided<[-32, 1], offset: 2016>>, vector<16xf32>
// CHECK-NOT:     vector.shuffle
func.func @flip_rows(%x: memref<64x32xf32>, %y: memref<64x32xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (63 - i, j)>, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<64x32xf32>) outs(%y : memref<64x32xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  }
  return
}

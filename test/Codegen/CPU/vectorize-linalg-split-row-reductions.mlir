// RUN: nx-opt %s -split-input-file -nx-vectorize-linalg="vector-bits=512 reduction-vector-bits=256" | FileCheck %s --enable-var-scope

// What nx-split-reductions makes of a row sum, on buffers: a fill of the
// partial sums, the sum of 64 steps of 32 into them, and the sum of each
// row's 32. It becomes one loop per row, with four 8-lane accumulators that
// start as the fill's value and end in vector.reduction: the partial sums'
// buffer is gone. Six rows, which four does not divide: one row at a time.
// CHECK-LABEL: func.func @row_sums
// CHECK-SAME: (%[[X:.*]]: memref<6x64x32xf32>, %[[Y:.*]]: memref<6xf32>)
// CHECK-NOT: memref.alloc
// CHECK: %[[FIRST:.*]] = arith.constant dense<0.000000e+00> : vector<8xf32>
// CHECK: scf.for %[[ROW:.*]] = %{{.*}} to %{{.*}} step
// CHECK: %[[SUMS:.*]]:4 = scf.for %[[STEP:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[A:.*]] = %[[FIRST]], %{{.*}} = %[[FIRST]], %{{.*}} = %[[FIRST]], %{{.*}} = %[[FIRST]])
// CHECK: %[[V:.*]] = vector.transfer_read %[[X]][%[[ROW]], %[[STEP]], %{{.*}}], %{{.*}} {in_bounds = [true]} : memref<6x64x32xf32>, vector<8xf32>
// CHECK: arith.addf %[[V]], %[[A]] fastmath<reassoc> : vector<8xf32>
// CHECK: scf.yield
// CHECK: %[[T1:.*]] = arith.addf %[[SUMS]]#1, %[[SUMS]]#0 fastmath<reassoc> : vector<8xf32>
// CHECK: %[[T2:.*]] = arith.addf %[[SUMS]]#2, %[[T1]] fastmath<reassoc> : vector<8xf32>
// CHECK: %[[T3:.*]] = arith.addf %[[SUMS]]#3, %[[T2]] fastmath<reassoc> : vector<8xf32>
// CHECK: %[[START:.*]] = memref.load %[[Y]][%[[ROW]]] : memref<6xf32>
// CHECK: %[[ROWSUM:.*]] = vector.reduction <add>, %[[T3]], %[[START]] fastmath<reassoc> : vector<8xf32> into f32
// CHECK: memref.store %[[ROWSUM]], %[[Y]][%[[ROW]]] : memref<6xf32>
// CHECK-NOT: linalg.
// CHECK-NOT: memref.dealloc
// CHECK: return
func.func @row_sums(%x: memref<6x64x32xf32>, %y: memref<6xf32>) {
  %zero = arith.constant 0.0 : f32
  %partial = memref.alloc() : memref<6x32xf32>
  linalg.fill ins(%zero : f32) outs(%partial : memref<6x32xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, k, l) -> (i, k, l)>, affine_map<(i, k, l) -> (i, l)>],
                  iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x : memref<6x64x32xf32>) outs(%partial : memref<6x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out fastmath<reassoc> : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i, l) -> (i, l)>, affine_map<(i, l) -> (i)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%partial : memref<6x32xf32>) outs(%y : memref<6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out fastmath<reassoc> : f32
    linalg.yield %s : f32
  }
  memref.dealloc %partial : memref<6x32xf32>
  return
}

// -----

// The same in one OpenMP tile of rows (nx-linalg-to-openmp): the three
// ops reach the partial sums through two subviews of the same rows, and
// the number of rows is dynamic (a short last tile).
// CHECK-LABEL: func.func @row_sums_in_a_tile
// CHECK-SAME: (%[[X:.*]]: memref<16x64x32xf32>, %[[Y:.*]]: memref<16xf32>, %[[AT:.*]]: index, %[[ROWS:.*]]: index)
// CHECK-NOT: memref.alloc
// CHECK: %[[YT:.*]] = memref.subview %[[Y]][%[[AT]]] [%[[ROWS]]] [1]
// CHECK: scf.for %[[ROW:.*]] = %{{.*}} to %[[ROWS]] step
// CHECK: %[[R:.*]] = affine.apply #{{.*}}()[%[[AT]], %[[ROW]]]
// CHECK: vector.transfer_read %[[X]][%[[R]], %{{.*}}, %{{.*}}]
// CHECK: vector.reduction <add>
// CHECK: memref.store %{{.*}}, %[[YT]][%[[ROW]]]
// CHECK-NOT: memref.dealloc
// CHECK: return
func.func @row_sums_in_a_tile(%x: memref<16x64x32xf32>, %y: memref<16xf32>, %at: index, %rows: index) {
  %zero = arith.constant 0.0 : f32
  %partial = memref.alloc() : memref<16x32xf32>
  %xt = memref.subview %x[%at, 0, 0] [%rows, 64, 32] [1, 1, 1] : memref<16x64x32xf32> to memref<?x64x32xf32, strided<[2048, 32, 1], offset: ?>>
  %pt = memref.subview %partial[%at, 0] [%rows, 32] [1, 1] : memref<16x32xf32> to memref<?x32xf32, strided<[32, 1], offset: ?>>
  linalg.fill ins(%zero : f32) outs(%pt : memref<?x32xf32, strided<[32, 1], offset: ?>>)
  linalg.generic {indexing_maps = [affine_map<(i, k, l) -> (i, k, l)>, affine_map<(i, k, l) -> (i, l)>],
                  iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%xt : memref<?x64x32xf32, strided<[2048, 32, 1], offset: ?>>) outs(%pt : memref<?x32xf32, strided<[32, 1], offset: ?>>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out fastmath<reassoc> : f32
    linalg.yield %s : f32
  }
  %pt2 = memref.subview %partial[%at, 0] [%rows, 32] [1, 1] : memref<16x32xf32> to memref<?x32xf32, strided<[32, 1], offset: ?>>
  %yt = memref.subview %y[%at] [%rows] [1] : memref<16xf32> to memref<?xf32, strided<[1], offset: ?>>
  linalg.generic {indexing_maps = [affine_map<(i, l) -> (i, l)>, affine_map<(i, l) -> (i)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%pt2 : memref<?x32xf32, strided<[32, 1], offset: ?>>) outs(%yt : memref<?xf32, strided<[1], offset: ?>>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out fastmath<reassoc> : f32
    linalg.yield %s : f32
  }
  memref.dealloc %partial : memref<16x32xf32>
  return
}

// -----

// Rows indexed by two loops (heads and rows, as in attention's softmax):
// one loop nest over both, the same accumulators.
// CHECK-LABEL: func.func @row_sums_per_head
// CHECK-SAME: (%[[X:.*]]: memref<4x16x8x32xf32>, %[[Y:.*]]: memref<4x16xf32>)
// CHECK-NOT: memref.alloc
// CHECK: scf.for %[[HEAD:[^ ]*]] =
// CHECK: scf.for %[[ROW:[^ ]*]] =
// CHECK: scf.for %[[STEP:[^ ]*]] = %{{.*}} iter_args(
// CHECK: vector.transfer_read %[[X]][%[[HEAD]], %[[ROW]], %[[STEP]], %{{.*}}], %{{.*}} {in_bounds = [true]} : memref<4x16x8x32xf32>, vector<8xf32>
// CHECK: %[[START:.*]] = memref.load %[[Y]][%[[HEAD]], %[[ROW]]]
// CHECK: %[[SUM:.*]] = vector.reduction <add>, %{{.*}}, %[[START]]
// CHECK: memref.store %[[SUM]], %[[Y]][%[[HEAD]], %[[ROW]]]
func.func @row_sums_per_head(%x: memref<4x16x8x32xf32>, %y: memref<4x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %partial = memref.alloc() : memref<4x16x32xf32>
  linalg.fill ins(%zero : f32) outs(%partial : memref<4x16x32xf32>)
  linalg.generic {indexing_maps = [affine_map<(h, i, k, l) -> (h, i, k, l)>, affine_map<(h, i, k, l) -> (h, i, l)>],
                  iterator_types = ["parallel", "parallel", "reduction", "parallel"]}
      ins(%x : memref<4x16x8x32xf32>) outs(%partial : memref<4x16x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(h, i, l) -> (h, i, l)>, affine_map<(h, i, l) -> (h, i)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%partial : memref<4x16x32xf32>) outs(%y : memref<4x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  }
  memref.dealloc %partial : memref<4x16x32xf32>
  return
}

// -----

// Row maxima: the same loop with maximumf, reduced by its own kind. The
// combiner may not reassociate (no `reassoc`): four rows at a time would
// have each accumulator take two of a step's vectors, so the 16 rows go one
// at a time, with four accumulators.
// CHECK-LABEL: func.func @row_maxima
// CHECK: %{{.*}}:4 = scf.for
// CHECK: arith.maximumf %{{.*}}, %{{.*}} fastmath<nsz> : vector<8xf32>
// CHECK: vector.reduction <maximumf>, %{{.*}}, %{{.*}} fastmath<nsz> : vector<8xf32> into f32
// CHECK-NOT: memref.alloc
func.func @row_maxima(%x: memref<16x64x32xf32>, %y: memref<16xf32>) {
  %lowest = arith.constant 0xFF800000 : f32
  %partial = memref.alloc() : memref<16x32xf32>
  linalg.fill ins(%lowest : f32) outs(%partial : memref<16x32xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, k, l) -> (i, k, l)>, affine_map<(i, k, l) -> (i, l)>],
                  iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x : memref<16x64x32xf32>) outs(%partial : memref<16x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %out fastmath<nsz> : f32
    linalg.yield %m : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i, l) -> (i, l)>, affine_map<(i, l) -> (i)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%partial : memref<16x32xf32>) outs(%y : memref<16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %out fastmath<nsz> : f32
    linalg.yield %m : f32
  }
  memref.dealloc %partial : memref<16x32xf32>
  return
}

// -----

// Another op reads the partial sums: they must reach memory, so the ops are
// vectorized one by one and the buffer stays.
// CHECK-LABEL: func.func @partial_sums_read_elsewhere
// CHECK: memref.alloc
// CHECK-NOT: vector.reduction
// CHECK: return
func.func @partial_sums_read_elsewhere(%x: memref<16x64x32xf32>, %y: memref<16xf32>, %z: memref<16x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %partial = memref.alloc() : memref<16x32xf32>
  linalg.fill ins(%zero : f32) outs(%partial : memref<16x32xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, k, l) -> (i, k, l)>, affine_map<(i, k, l) -> (i, l)>],
                  iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x : memref<16x64x32xf32>) outs(%partial : memref<16x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i, l) -> (i, l)>, affine_map<(i, l) -> (i)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%partial : memref<16x32xf32>) outs(%y : memref<16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  }
  memref.copy %partial, %z : memref<16x32xf32> to memref<16x32xf32>
  memref.dealloc %partial : memref<16x32xf32>
  return
}

// -----

// The partial results are the caller's buffer, not an allocation of their
// own: they stay.
// CHECK-LABEL: func.func @partial_sums_in_an_argument
// CHECK-NOT: vector.reduction
// CHECK: return
func.func @partial_sums_in_an_argument(%x: memref<16x64x32xf32>, %y: memref<16xf32>, %partial: memref<16x32xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%partial : memref<16x32xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, k, l) -> (i, k, l)>, affine_map<(i, k, l) -> (i, l)>],
                  iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x : memref<16x64x32xf32>) outs(%partial : memref<16x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i, l) -> (i, l)>, affine_map<(i, l) -> (i)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%partial : memref<16x32xf32>) outs(%y : memref<16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// The partial step multiplies and the final one adds: no single reduction.
// CHECK-LABEL: func.func @different_combiners
// CHECK: memref.alloc
// CHECK-NOT: vector.reduction
// CHECK: return
func.func @different_combiners(%x: memref<16x64x32xf32>, %y: memref<16xf32>) {
  %one = arith.constant 1.0 : f32
  %partial = memref.alloc() : memref<16x32xf32>
  linalg.fill ins(%one : f32) outs(%partial : memref<16x32xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, k, l) -> (i, k, l)>, affine_map<(i, k, l) -> (i, l)>],
                  iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x : memref<16x64x32xf32>) outs(%partial : memref<16x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    %p = arith.mulf %in, %out : f32
    linalg.yield %p : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i, l) -> (i, l)>, affine_map<(i, l) -> (i)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%partial : memref<16x32xf32>) outs(%y : memref<16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  }
  memref.dealloc %partial : memref<16x32xf32>
  return
}

// -----

// Nothing fills the partial results right before the partial step.
// CHECK-LABEL: func.func @no_fill
// CHECK: memref.alloc
// CHECK-NOT: vector.reduction
// CHECK: return
func.func @no_fill(%x: memref<16x64x32xf32>, %y: memref<16xf32>, %start: memref<16x32xf32>) {
  %partial = memref.alloc() : memref<16x32xf32>
  memref.copy %start, %partial : memref<16x32xf32> to memref<16x32xf32>
  linalg.generic {indexing_maps = [affine_map<(i, k, l) -> (i, k, l)>, affine_map<(i, k, l) -> (i, l)>],
                  iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x : memref<16x64x32xf32>) outs(%partial : memref<16x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i, l) -> (i, l)>, affine_map<(i, l) -> (i)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%partial : memref<16x32xf32>) outs(%y : memref<16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  }
  memref.dealloc %partial : memref<16x32xf32>
  return
}

// -----

// The output is a view of the input: written row by row, it would change
// rows still to be read.
// CHECK-LABEL: func.func @output_in_the_input
// CHECK: memref.alloc
// CHECK-NOT: vector.reduction
// CHECK: return
func.func @output_in_the_input(%x: memref<16x64x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %y = memref.subview %x[0, 1, 0] [16, 1, 1] [1, 1, 1] : memref<16x64x32xf32> to memref<16xf32, strided<[2048], offset: 32>>
  %partial = memref.alloc() : memref<16x32xf32>
  linalg.fill ins(%zero : f32) outs(%partial : memref<16x32xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, k, l) -> (i, k, l)>, affine_map<(i, k, l) -> (i, l)>],
                  iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x : memref<16x64x32xf32>) outs(%partial : memref<16x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i, l) -> (i, l)>, affine_map<(i, l) -> (i)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%partial : memref<16x32xf32>) outs(%y : memref<16xf32, strided<[2048], offset: 32>>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  }
  memref.dealloc %partial : memref<16x32xf32>
  return
}

// -----

// Sixteen rows: four at a time, one of each quarter (rows r, r+4, r+8 and
// r+12), read together in one loop over the steps so that each quarter is
// a stream of its own; each row in two of the eight accumulators, which
// take its four vectors of a step in turn.
// CHECK-LABEL: func.func @row_sums_four_at_a_time
// CHECK-SAME: (%[[X:.*]]: memref<16x64x32xf32>, %[[Y:.*]]: memref<16xf32>)
// CHECK: scf.for %[[R0:.*]] = %{{.*}} to %[[QUARTER:.*]] step
// CHECK: %[[R1:.*]] = arith.addi %[[R0]], %{{.*}} : index
// CHECK: %[[R2:.*]] = arith.addi %[[R0]], %{{.*}} : index
// CHECK: %[[R3:.*]] = arith.addi %[[R0]], %{{.*}} : index
// CHECK: %[[SUMS:.*]]:8 = scf.for %[[STEP:.*]] = {{.*}} iter_args(%[[A:.*]] = %{{.*}}, %[[B:.*]] = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}})
// CHECK: %[[V0:.*]] = vector.transfer_read %[[X]][%[[R0]], %[[STEP]], %{{.*}}]
// CHECK: %[[S0:.*]] = arith.addf %[[V0]], %[[A]] fastmath<reassoc> : vector<8xf32>
// CHECK: %[[V1:.*]] = vector.transfer_read %[[X]][%[[R0]], %[[STEP]], %{{.*}}]
// CHECK: %[[S1:.*]] = arith.addf %[[V1]], %[[B]] fastmath<reassoc> : vector<8xf32>
// CHECK: %[[V2:.*]] = vector.transfer_read %[[X]][%[[R0]], %[[STEP]], %{{.*}}]
// CHECK: arith.addf %[[V2]], %[[S0]] fastmath<reassoc> : vector<8xf32>
// CHECK: %[[V3:.*]] = vector.transfer_read %[[X]][%[[R0]], %[[STEP]], %{{.*}}]
// CHECK: arith.addf %[[V3]], %[[S1]] fastmath<reassoc> : vector<8xf32>
// CHECK: vector.transfer_read %[[X]][%[[R1]], %[[STEP]], %{{.*}}]
// CHECK: vector.transfer_read %[[X]][%[[R2]], %[[STEP]], %{{.*}}]
// CHECK: vector.transfer_read %[[X]][%[[R3]], %[[STEP]], %{{.*}}]
// CHECK: scf.yield
// CHECK: arith.addf %[[SUMS]]#1, %[[SUMS]]#0 fastmath<reassoc>
// CHECK: memref.store %{{.*}}, %[[Y]][%[[R0]]]
// CHECK: arith.addf %[[SUMS]]#3, %[[SUMS]]#2 fastmath<reassoc>
// CHECK: memref.store %{{.*}}, %[[Y]][%[[R1]]]
// CHECK: arith.addf %[[SUMS]]#5, %[[SUMS]]#4 fastmath<reassoc>
// CHECK: memref.store %{{.*}}, %[[Y]][%[[R2]]]
// CHECK: arith.addf %[[SUMS]]#7, %[[SUMS]]#6 fastmath<reassoc>
// CHECK: memref.store %{{.*}}, %[[Y]][%[[R3]]]
// CHECK-NOT: memref.store
// CHECK: return
func.func @row_sums_four_at_a_time(%x: memref<16x64x32xf32>, %y: memref<16xf32>) {
  %zero = arith.constant 0.0 : f32
  %partial = memref.alloc() : memref<16x32xf32>
  linalg.fill ins(%zero : f32) outs(%partial : memref<16x32xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, k, l) -> (i, k, l)>, affine_map<(i, k, l) -> (i, l)>],
                  iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x : memref<16x64x32xf32>) outs(%partial : memref<16x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out fastmath<reassoc> : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i, l) -> (i, l)>, affine_map<(i, l) -> (i)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%partial : memref<16x32xf32>) outs(%y : memref<16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out fastmath<reassoc> : f32
    linalg.yield %s : f32
  }
  memref.dealloc %partial : memref<16x32xf32>
  return
}

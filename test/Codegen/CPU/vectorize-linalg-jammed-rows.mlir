// RUN: nx-opt %s -split-input-file -nx-vectorize-linalg=vector-bits=512 -canonicalize | FileCheck %s --enable-var-scope

// How a reduction over an outer or middle loop, whose row of accumulators
// stays in memory, jams its rows (lib/Codegen/CPU/JammedRows.h): combiners
// that may reassociate take one row of each of four segments per pass, each
// segment read in order; others take four adjacent rows in order, or one.

// A maximum over the middle axis that may reassociate: rows r, r+8, r+16
// and r+24 of 32 in one pass, one read and one write of each accumulator,
// the row's element first (no masked store of the accumulator on x86).
// CHECK-LABEL: func.func @middle_maxima_in_segments
// CHECK-SAME: (%[[X:.*]]: memref<2x32x256xf32>, %[[Y:.*]]: memref<2x256xf32>)
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : index
// CHECK-DAG: %[[C24:.*]] = arith.constant 24 : index
// CHECK: scf.for %[[B:.*]] = %{{.*}} to %{{.*}} step
// CHECK: scf.for %[[R:.*]] = %{{.*}} to %[[C8]] step %{{.*}} {
// CHECK-DAG: %[[R1:.*]] = arith.addi %[[R]], %[[C8]] : index
// CHECK-DAG: %[[R2:.*]] = arith.addi %[[R]], %[[C16]] : index
// CHECK-DAG: %[[R3:.*]] = arith.addi %[[R]], %[[C24]] : index
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %[[C16]] {
// CHECK: %[[IN0:.*]] = vector.transfer_read %[[X]][%[[B]], %[[R]], %[[J]]]
// CHECK: %[[ACC:.*]] = vector.transfer_read %[[Y]][%[[B]], %[[J]]]
// CHECK: %[[M0:.*]] = arith.maximumf %[[IN0]], %[[ACC]] fastmath<reassoc,nsz> : vector<16xf32>
// CHECK-NOT: vector.transfer_write
// CHECK: %[[IN1:.*]] = vector.transfer_read %[[X]][%[[B]], %[[R1]], %[[J]]]
// CHECK: %[[M1:.*]] = arith.maximumf %[[IN1]], %[[M0]]
// CHECK: %[[IN2:.*]] = vector.transfer_read %[[X]][%[[B]], %[[R2]], %[[J]]]
// CHECK: %[[M2:.*]] = arith.maximumf %[[IN2]], %[[M1]]
// CHECK: %[[IN3:.*]] = vector.transfer_read %[[X]][%[[B]], %[[R3]], %[[J]]]
// CHECK: %[[M3:.*]] = arith.maximumf %[[IN3]], %[[M2]]
// CHECK-NOT: vector.transfer_read %[[Y]]
// CHECK: vector.transfer_write %[[M3]], %[[Y]][%[[B]], %[[J]]]
// CHECK-NOT: vector.transfer_write
func.func @middle_maxima_in_segments(%x: memref<2x32x256xf32>, %y: memref<2x256xf32>) {
  linalg.reduce ins(%x : memref<2x32x256xf32>) outs(%y : memref<2x256xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %m = arith.maximumf %in, %acc fastmath<reassoc,nsz> : f32
      linalg.yield %m : f32
    }
  return
}

// -----

// Column sums that may reassociate: four segments of 16 rows.
// CHECK-LABEL: func.func @column_sums_in_segments
// CHECK-SAME: (%[[X:.*]]: memref<64x256xf32>, %[[Y:.*]]: memref<256xf32>)
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : index
// CHECK-DAG: %[[C32:.*]] = arith.constant 32 : index
// CHECK-DAG: %[[C48:.*]] = arith.constant 48 : index
// CHECK: scf.for %[[R:.*]] = %{{.*}} to %[[C16]] step
// CHECK-DAG: %[[R1:.*]] = arith.addi %[[R]], %[[C16]] : index
// CHECK-DAG: %[[R2:.*]] = arith.addi %[[R]], %[[C32]] : index
// CHECK-DAG: %[[R3:.*]] = arith.addi %[[R]], %[[C48]] : index
// CHECK: scf.for %[[J:.*]] =
// CHECK: %[[IN0:.*]] = vector.transfer_read %[[X]][%[[R]], %[[J]]]
// CHECK: %[[ACC:.*]] = vector.transfer_read %[[Y]][%[[J]]]
// CHECK: %[[S0:.*]] = arith.addf %[[ACC]], %[[IN0]] fastmath<reassoc>
// CHECK: %[[IN1:.*]] = vector.transfer_read %[[X]][%[[R1]], %[[J]]]
// CHECK: %[[S1:.*]] = arith.addf %[[S0]], %[[IN1]]
// CHECK: %[[IN2:.*]] = vector.transfer_read %[[X]][%[[R2]], %[[J]]]
// CHECK: %[[S2:.*]] = arith.addf %[[S1]], %[[IN2]]
// CHECK: %[[IN3:.*]] = vector.transfer_read %[[X]][%[[R3]], %[[J]]]
// CHECK: %[[S3:.*]] = arith.addf %[[S2]], %[[IN3]]
// CHECK: vector.transfer_write %[[S3]], %[[Y]][%[[J]]]
func.func @column_sums_in_segments(%x: memref<64x256xf32>, %y: memref<256xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>],
                  iterator_types = ["reduction", "parallel"]}
      ins(%x : memref<64x256xf32>) outs(%y : memref<256xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out fastmath<reassoc> : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Integer sums are exact in any order: segments without any flag.
// CHECK-LABEL: func.func @integer_column_sums_in_segments
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG: %[[C24:.*]] = arith.constant 24 : index
// CHECK: scf.for %[[R:.*]] = %{{.*}} to %[[C8]] step
// CHECK: arith.addi %[[R]], %[[C24]] : index
// CHECK-COUNT-4: arith.addi %{{.*}}, %{{.*}} : vector<16xi32>
// CHECK: vector.transfer_write
func.func @integer_column_sums_in_segments(%x: memref<32x256xi32>, %y: memref<256xi32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>],
                  iterator_types = ["reduction", "parallel"]}
      ins(%x : memref<32x256xi32>) outs(%y : memref<256xi32>) {
  ^bb0(%in: i32, %out: i32):
    %s = arith.addi %in, %out : i32
    linalg.yield %s : i32
  }
  return
}

// -----

// An integer sum whose intermediate overflow would be poison: other orders
// could overflow where this one does not. Four adjacent rows, in order.
// CHECK-LABEL: func.func @column_sums_without_overflow
// CHECK-SAME: (%[[X:.*]]: memref<32x256xi32>, %[[Y:.*]]: memref<256xi32>)
// CHECK: scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step %c4
// CHECK: scf.for %[[J:.*]] =
// CHECK: vector.transfer_read %[[X]][%[[R]], %[[J]]]
// CHECK-COUNT-4: arith.addi %{{.*}}, %{{.*}} : vector<16xi32>
func.func @column_sums_without_overflow(%x: memref<32x256xi32>, %y: memref<256xi32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>],
                  iterator_types = ["reduction", "parallel"]}
      ins(%x : memref<32x256xi32>) outs(%y : memref<256xi32>) {
  ^bb0(%in: i32, %out: i32):
    %s = arith.addi %in, %out overflow<nsw> : i32
    linalg.yield %s : i32
  }
  return
}

// -----

// Four rows make one pass either way.
// CHECK-LABEL: func.func @four_rows
// CHECK-SAME: (%[[X:.*]]: memref<4x256xf32>, %[[Y:.*]]: memref<256xf32>)
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C3:.*]] = arith.constant 3 : index
// CHECK: scf.for %[[J:.*]] =
// CHECK: vector.transfer_read %[[X]][%[[C1]], %[[J]]]
// CHECK: vector.transfer_read %[[X]][%[[C3]], %[[J]]]
// CHECK: vector.transfer_write
func.func @four_rows(%x: memref<4x256xf32>, %y: memref<256xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>],
                  iterator_types = ["reduction", "parallel"]}
      ins(%x : memref<4x256xf32>) outs(%y : memref<256xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %out fastmath<reassoc,nsz> : f32
    linalg.yield %m : f32
  }
  return
}

// -----

// Rows that four does not divide: one row per pass.
// CHECK-LABEL: func.func @thirty_rows
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c1
// CHECK-COUNT-1: arith.maximumf
// CHECK-NOT: arith.maximumf
func.func @thirty_rows(%x: memref<30x256xf32>, %y: memref<256xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>],
                  iterator_types = ["reduction", "parallel"]}
      ins(%x : memref<30x256xf32>) outs(%y : memref<256xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %out fastmath<reassoc,nsz> : f32
    linalg.yield %m : f32
  }
  return
}

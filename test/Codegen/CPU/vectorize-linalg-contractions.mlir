// RUN: nx-opt %s -split-input-file -nx-vectorize-linalg=vector-bits=512 -canonicalize | FileCheck %s --enable-var-scope
// RUN: nx-opt %s -split-input-file -nx-vectorize-linalg=vector-bits=256 -canonicalize | FileCheck %s --check-prefix=AVX2
// RUN: nx-opt %s -split-input-file -nx-vectorize-linalg=vector-bits=512 -mlir-pass-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS

// Register tiles of 8 rows by two vectors of 16 i32 columns, one reduction
// step per tile: the 8 rows' accumulators are read before the reduction
// loop, carried in registers as its iter_args and written after it. Each
// step broadcasts one element of each row of A and multiplies it by the
// same row of B.
// CHECK-LABEL: func.func @matmul_i32
// CHECK-SAME: (%[[A:.*]]: memref<16x8xi32>, %[[B:.*]]: memref<8x64xi32>, %[[C:.*]]: memref<16x64xi32>)
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG: %[[C32:.*]] = arith.constant 32 : index
// CHECK: scf.for %[[N:.*]] = %{{.*}} to %{{.*}} step %[[C32]] {
// CHECK-NEXT: scf.for %[[M:.*]] = %{{.*}} to %{{.*}} step %[[C8]] {
// CHECK-COUNT-8: vector.transfer_read %[[C]]{{.*}} : memref<16x64xi32>, vector<32xi32>
// CHECK: %[[ACC:.*]]:8 = scf.for %[[K:.*]] = {{.*}} iter_args(%[[A0:[a-z0-9]+]] = {{.*}}) -> (vector<32xi32>, vector<32xi32>, vector<32xi32>, vector<32xi32>, vector<32xi32>, vector<32xi32>, vector<32xi32>, vector<32xi32>) {
// CHECK: %[[E:.*]] = memref.load
// CHECK: %[[ROW:.*]] = vector.transfer_read %[[B]][%[[K]], %[[N]]]{{.*}} : memref<8x64xi32>, vector<32xi32>
// CHECK: %[[SPLAT:.*]] = vector.broadcast %[[E]] : i32 to vector<32xi32>
// CHECK: %[[P:.*]] = arith.muli %[[SPLAT]], %[[ROW]] : vector<32xi32>
// CHECK: arith.addi %[[A0]], %[[P]] : vector<32xi32>
// CHECK: scf.yield
// CHECK-COUNT-8: vector.transfer_write %[[ACC]]#{{[0-7]}}, %[[C]]
// CHECK-NOT: linalg.matmul
//
// 256-bit vectors leave registers for 6 rows of two 8-lane vectors.
// AVX2-LABEL: func.func @matmul_i32
// AVX2: %{{.*}}:6 = scf.for {{.*}} -> (vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>)
func.func @matmul_i32(%a: memref<16x8xi32>, %b: memref<8x64xi32>, %c: memref<16x64xi32>) {
  linalg.matmul ins(%a, %b : memref<16x8xi32>, memref<8x64xi32>) outs(%c : memref<16x64xi32>)
  return
}

// -----

// i8 operands extended in the product's body: B's row is extended once, as
// a vector of 32 i8, not lane by lane after a broadcast over the rows.
// CHECK-LABEL: func.func @matmul_i8
// CHECK: scf.for {{.*}} -> (vector<32xi32>,
// CHECK: %[[ROW:.*]] = vector.transfer_read {{.*}} : memref<8x32xi8>, vector<32xi8>
// CHECK: arith.extsi %[[ROW]] : vector<32xi8> to vector<32xi32>
// CHECK-NOT: vector<8x32xi8>
func.func @matmul_i8(%a: memref<8x8xi8>, %b: memref<8x32xi8>, %c: memref<8x32xi32>) {
  linalg.matmul ins(%a, %b : memref<8x8xi8>, memref<8x32xi8>) outs(%c : memref<8x32xi32>)
  return
}

// -----

// 10 rows by 40 columns: a full tile of 8 rows by 32 columns, the last 2
// rows by 32 columns, then all 10 rows of the last 8 columns (8 and 2
// again), each static and vectorized.
// CHECK-LABEL: func.func @partial_tiles
// CHECK: %{{.*}}:8 = scf.for {{.*}} -> (vector<32xf32>, vector<32xf32>, vector<32xf32>, vector<32xf32>, vector<32xf32>, vector<32xf32>, vector<32xf32>, vector<32xf32>)
// CHECK: %{{.*}}:2 = scf.for {{.*}} -> (vector<32xf32>, vector<32xf32>)
// CHECK: %{{.*}}:8 = scf.for {{.*}} -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
// CHECK: %{{.*}}:2 = scf.for {{.*}} -> (vector<8xf32>, vector<8xf32>)
// CHECK-NOT: linalg.matmul
func.func @partial_tiles(%a: memref<10x4xf32>, %b: memref<4x40xf32>, %c: memref<10x40xf32>) {
  linalg.matmul ins(%a, %b : memref<10x4xf32>, memref<4x40xf32>) outs(%c : memref<10x40xf32>)
  return
}

// -----

// A dynamic number of rows (a short OpenMP tile): the full tiles of 8 rows
// are vectorized; the last rows stay a linalg op for the loop lowering.
// CHECK-LABEL: func.func @dynamic_rows
// CHECK: scf.for %{{.*}} step %{{.*}} {
// CHECK: %{{.*}}:8 = scf.for {{.*}} -> (vector<32xf32>,
// CHECK: scf.for
// CHECK: linalg.matmul {{.*}} outs(%{{.*}} : memref<?x32xf32
func.func @dynamic_rows(%a: memref<?x4xf32>, %b: memref<4x32xf32>, %c: memref<?x32xf32>) {
  linalg.matmul ins(%a, %b : memref<?x4xf32>, memref<4x32xf32>) outs(%c : memref<?x32xf32>)
  return
}

// -----

// A batched product: one batch per tile loop iteration, then rows and
// columns as above.
// CHECK-LABEL: func.func @batch_matmul
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK: %{{.*}}:8 = scf.for {{.*}} -> (vector<32xi32>,
// CHECK-NOT: linalg.batch_matmul
func.func @batch_matmul(%a: memref<2x8x4xi32>, %b: memref<2x4x32xi32>, %c: memref<2x8x32xi32>) {
  linalg.batch_matmul ins(%a, %b : memref<2x8x4xi32>, memref<2x4x32xi32>) outs(%c : memref<2x8x32xi32>)
  return
}

// -----

// A vector times a matrix: no rows, one tile of 32 columns per step.
// CHECK-LABEL: func.func @vecmat
// CHECK: %{{.*}} = scf.for {{.*}} -> (vector<32xi32>) {
// CHECK-NOT: linalg.vecmat
func.func @vecmat(%a: memref<4xi32>, %b: memref<4x32xi32>, %c: memref<32xi32>) {
  linalg.vecmat ins(%a, %b : memref<4xi32>, memref<4x32xi32>) outs(%c : memref<32xi32>)
  return
}

// -----

// One reduction step and one column: no loop is left around the 8-row tile
// and the 7-row tile after it, which share the function's block; each is
// split into its own rows (found by a random test: splitting the first
// took the second's unsplit tile too, which then went twice).
// CHECK-LABEL: func.func @one_step
// CHECK-COUNT-15: vector.transfer_write %{{.*}} : vector<i32>, memref<15x1xi32>
// CHECK-NOT: linalg.matmul
func.func @one_step(%a: memref<15x1xi8>, %b: memref<1x1xi8>, %c: memref<15x1xi32>) {
  linalg.matmul ins(%a, %b : memref<15x1xi8>, memref<1x1xi8>) outs(%c : memref<15x1xi32>)
  return
}

// -----

// A long reduction in blocks of 256 steps (32 KiB of B per column tile of
// 32 f32), the last block of 88 peeled; the accumulators stay in registers
// across the full blocks.
// CHECK-LABEL: func.func @reduction_blocks
// CHECK-DAG: %[[C88:.*]] = arith.constant 88 : index
// CHECK-DAG: %[[C256:.*]] = arith.constant 256 : index
// CHECK-DAG: %[[C512:.*]] = arith.constant 512 : index
// CHECK: %{{.*}}:8 = scf.for %{{.*}} = %{{.*}} to %[[C512]] step %[[C256]] iter_args
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[C256]] step %{{.*}} iter_args
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[C88]] step %{{.*}} iter_args
func.func @reduction_blocks(%a: memref<8x600xf32>, %b: memref<600x32xf32>, %c: memref<8x32xf32>) {
  linalg.matmul ins(%a, %b : memref<8x600xf32>, memref<600x32xf32>) outs(%c : memref<8x32xf32>)
  return
}

// -----

#mk = affine_map<(m, n, k) -> (m, k)>
#nk = affine_map<(m, n, k) -> (n, k)>
#mn = affine_map<(m, n, k) -> (m, n)>

// B read across its rows (transposed): a register tile would gather its
// columns, so the op is left to the loop lowering.
// CHECK-LABEL: func.func @transposed_b
// CHECK: linalg.generic
func.func @transposed_b(%a: memref<8x4xi32>, %b: memref<32x4xi32>, %c: memref<8x32xi32>) {
  linalg.generic {indexing_maps = [#mk, #nk, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<8x4xi32>, memref<32x4xi32>) outs(%c : memref<8x32xi32>) {
  ^bb0(%x: i32, %y: i32, %acc: i32):
    %p = arith.muli %x, %y : i32
    %s = arith.addi %acc, %p : i32
    linalg.yield %s : i32
  }
  return
}

// Per split: one register-tiled contraction in each of the first eight,
// none in the last.
// STATS-COUNT-8: (S) 1 contractions-in-registers
// STATS: (S) 0 contractions-in-registers

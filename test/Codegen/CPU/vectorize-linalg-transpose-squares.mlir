// RUN: nx-opt %s -split-input-file -nx-tile-transposes -nx-vectorize-linalg=vector-bits=256 -canonicalize | FileCheck %s --enable-var-scope

// With eight f32 lanes (AVX2), a row of a square is half a cache line: each
// block is 8 output rows by 16 columns, read as 16 input rows of 8, cut
// into two 8x8 squares, each transposed by three rounds of eight shuffles
// (interleaved pairs, pairs of pairs, halves), and written as 8 rows of a
// whole line. The output is only returned (4 MiB or more), so the rows are
// non-temporal stores of 64 bytes.
// CHECK-LABEL: func.func @returned_transpose
// CHECK: scf.for %{{.*}} = %c0 to %c32 step %c8
// CHECK-NEXT: scf.for %{{.*}} = %c0 to %c32 step %c16
// CHECK: %[[ROWS:.*]] = vector.transfer_read {{.*}} : memref<2048x1024xf32>, vector<16x8xf32>
// CHECK: %[[R0:.*]] = vector.extract %[[ROWS]][0] : vector<8xf32> from vector<16x8xf32>
// CHECK: %[[R1:.*]] = vector.extract %[[ROWS]][1] : vector<8xf32> from vector<16x8xf32>
// CHECK: vector.shuffle %[[R0]], %[[R1]] [0, 8, 1, 9, 4, 12, 5, 13] : vector<8xf32>, vector<8xf32>
// CHECK: vector.shuffle %[[R0]], %[[R1]] [2, 10, 3, 11, 6, 14, 7, 15] : vector<8xf32>, vector<8xf32>
// CHECK: vector.shuffle {{.*}} [0, 1, 8, 9, 4, 5, 12, 13] : vector<8xf32>, vector<8xf32>
// CHECK: vector.shuffle {{.*}} [2, 3, 10, 11, 6, 7, 14, 15] : vector<8xf32>, vector<8xf32>
// CHECK: vector.shuffle {{.*}} [0, 1, 2, 3, 8, 9, 10, 11] : vector<8xf32>, vector<8xf32>
// CHECK: vector.shuffle {{.*}} [4, 5, 6, 7, 12, 13, 14, 15] : vector<8xf32>, vector<8xf32>
// CHECK: vector.insert_strided_slice {{.*}} {offsets = [0, 0], strides = [1, 1]} : vector<8x8xf32> into vector<8x16xf32>
// CHECK: vector.extract %[[ROWS]][8] : vector<8xf32> from vector<16x8xf32>
// CHECK-COUNT-24: vector.shuffle
// CHECK: vector.insert_strided_slice {{.*}} {offsets = [0, 8], strides = [1, 1]} : vector<8x8xf32> into vector<8x16xf32>
// CHECK-COUNT-8: vector.store {{.*}} {alignment = 64 : i64, nontemporal = true} : memref<1024x2048xf32>, vector<16xf32>
// CHECK-NOT: vector.store
// CHECK: llvm.fence seq_cst
func.func @returned_transpose(%x: memref<2048x1024xf32>) -> memref<1024x2048xf32> {
  %y = memref.alloc() {alignment = 64 : i64} : memref<1024x2048xf32>
  linalg.transpose ins(%x : memref<2048x1024xf32>) outs(%y : memref<1024x2048xf32>) permutation = [1, 0]
  return %y : memref<1024x2048xf32>
}

// -----

// A small output keeps ordinary stores, of the same 8x16 blocks.
// CHECK-LABEL: func.func @cached_transpose
// CHECK: vector.transfer_read {{.*}} : memref<64x32xf32>, vector<16x8xf32>
// CHECK-COUNT-48: vector.shuffle
// CHECK: vector.transfer_write {{.*}} : vector<8x16xf32>, memref<32x64xf32>
func.func @cached_transpose(%x: memref<64x32xf32>, %y: memref<32x64xf32>) {
  linalg.transpose ins(%x : memref<64x32xf32>) outs(%y : memref<32x64xf32>) permutation = [1, 0]
  return
}

// -----

// A permutation of the last two of three dimensions: each square has a
// unit dimension around it, which the network sees past.
// CHECK-LABEL: func.func @permuted_squares
// CHECK: vector.transfer_read {{.*}} : memref<2x64x32xf32>, vector<16x8xf32>
// CHECK-COUNT-48: vector.shuffle
// CHECK: vector.transfer_write {{.*}} : vector<8x16xf32>, memref<2x32x64xf32>
func.func @permuted_squares(%x: memref<2x64x32xf32>, %y: memref<2x32x64xf32>) {
  linalg.transpose ins(%x : memref<2x64x32xf32>) outs(%y : memref<2x32x64xf32>) permutation = [0, 2, 1]
  return
}

// -----

// Four f64 lanes fill half a line too: blocks of 4 rows by 8 columns, two
// 4x4 squares, which LLVM's lowering of vector.transpose takes.
// CHECK-LABEL: func.func @transpose_f64
// CHECK: vector.transfer_read {{.*}} : memref<64x32xf64>, vector<8x4xf64>
// CHECK-NOT: vector.shuffle
// CHECK-COUNT-2: vector.transpose {{.*}} : vector<4x4xf64> to vector<4x4xf64>
// CHECK-NOT: vector.shuffle
// CHECK: vector.transfer_write {{.*}} : vector<4x8xf64>, memref<32x64xf64>
func.func @transpose_f64(%x: memref<64x32xf64>, %y: memref<32x64xf64>) {
  linalg.transpose ins(%x : memref<64x32xf64>) outs(%y : memref<32x64xf64>) permutation = [1, 0]
  return
}

// -----

// 32 i8 lanes are half a line, but a line's 64 columns are more than the
// 32 of a tile: squares of 32 as before.
// CHECK-LABEL: func.func @transpose_i8
// CHECK: vector.transfer_read {{.*}} : memref<64x64xi8>, vector<32x32xi8>
// CHECK-NEXT: vector.transpose {{.*}} : vector<32x32xi8> to vector<32x32xi8>
// CHECK-NEXT: vector.transfer_write {{.*}} : vector<32x32xi8>, memref<64x64xi8>
func.func @transpose_i8(%x: memref<64x64xi8>, %y: memref<64x64xi8>) {
  linalg.transpose ins(%x : memref<64x64xi8>) outs(%y : memref<64x64xi8>) permutation = [1, 0]
  return
}

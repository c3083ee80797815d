// RUN: nx-opt %s -split-input-file -nx-tile-transposes -nx-vectorize-linalg=vector-bits=512 -canonicalize | FileCheck %s --enable-var-scope

// An output of at least 4 MiB that the function only writes and returns is
// written with non-temporal stores: each 16x16 square of the transpose
// becomes 16 aligned row stores that skip reading the lines they replace.
// CHECK-LABEL: func.func @returned_transpose
// CHECK-SAME: (%[[X:.*]]: memref<2048x1024xf32>)
// CHECK: %[[Y:.*]] = memref.alloc() {alignment = 64 : i64} : memref<1024x2048xf32>
// CHECK: %[[T:.*]] = vector.transpose %{{.*}}, [1, 0] : vector<16x16xf32> to vector<16x16xf32>
// CHECK: %[[ROW:.*]] = vector.extract %[[T]][0] : vector<16xf32> from vector<16x16xf32>
// CHECK: vector.store %[[ROW]], %[[Y]][%{{.*}}, %{{.*}}] {alignment = 64 : i64, nontemporal = true} : memref<1024x2048xf32>, vector<16xf32>
// CHECK-COUNT-15: vector.store {{.*}} {alignment = 64 : i64, nontemporal = true}
// CHECK-NOT: vector.transfer_write
// CHECK: return %[[Y]]
func.func @returned_transpose(%x: memref<2048x1024xf32>) -> memref<1024x2048xf32> {
  %y = memref.alloc() {alignment = 64 : i64} : memref<1024x2048xf32>
  linalg.transpose ins(%x : memref<2048x1024xf32>) outs(%y : memref<1024x2048xf32>) permutation = [1, 0]
  return %y : memref<1024x2048xf32>
}

// -----

// Below 4 MiB, a caller may read the output from the cache: ordinary stores.
// CHECK-LABEL: func.func @small_output
// CHECK: vector.transfer_write
// CHECK-NOT: nontemporal
func.func @small_output(%x: memref<1024x512xf32>) -> memref<512x1024xf32> {
  %y = memref.alloc() {alignment = 64 : i64} : memref<512x1024xf32>
  linalg.transpose ins(%x : memref<1024x512xf32>) outs(%y : memref<512x1024xf32>) permutation = [1, 0]
  return %y : memref<512x1024xf32>
}

// -----

// An output the function reads again stays in the cache.
// CHECK-LABEL: func.func @read_back
// CHECK-NOT: nontemporal
// CHECK: return
func.func @read_back(%x: memref<2048x1024xf32>, %z: memref<1024x2048xf32>) -> memref<1024x2048xf32> {
  %y = memref.alloc() {alignment = 64 : i64} : memref<1024x2048xf32>
  linalg.transpose ins(%x : memref<2048x1024xf32>) outs(%y : memref<1024x2048xf32>) permutation = [1, 0]
  memref.copy %y, %z : memref<1024x2048xf32> to memref<1024x2048xf32>
  return %y : memref<1024x2048xf32>
}

// -----

// A private function's result goes to another function of the program
// (a piece of a split function), which may read it.
// CHECK-LABEL: func.func private @piece
// CHECK-NOT: nontemporal
// CHECK: return
func.func private @piece(%x: memref<2048x1024xf32>) -> memref<1024x2048xf32> {
  %y = memref.alloc() {alignment = 64 : i64} : memref<1024x2048xf32>
  linalg.transpose ins(%x : memref<2048x1024xf32>) outs(%y : memref<1024x2048xf32>) permutation = [1, 0]
  return %y : memref<1024x2048xf32>
}

// -----

// Without an alignment of a whole vector row, the rows might straddle
// cache lines and MOVNT would fault: ordinary stores.
// CHECK-LABEL: func.func @unaligned_allocation
// CHECK-NOT: nontemporal
// CHECK: return
func.func @unaligned_allocation(%x: memref<2048x1024xf32>) -> memref<1024x2048xf32> {
  %y = memref.alloc() : memref<1024x2048xf32>
  linalg.transpose ins(%x : memref<2048x1024xf32>) outs(%y : memref<1024x2048xf32>) permutation = [1, 0]
  return %y : memref<1024x2048xf32>
}

// -----

// A square starting at a column that is not a multiple of 16 elements
// (here the output is an offset view of the allocation) is not aligned.
// CHECK-LABEL: func.func @offset_view
// CHECK: vector.transpose
// CHECK-NOT: nontemporal
// CHECK: return
func.func @offset_view(%x: memref<2016x1024xf32>) -> memref<1024x2048xf32> {
  %y = memref.alloc() {alignment = 64 : i64} : memref<1024x2048xf32>
  %view = memref.subview %y[0, 8] [1024, 2016] [1, 1] : memref<1024x2048xf32> to memref<1024x2016xf32, strided<[2048, 1], offset: 8>>
  linalg.transpose ins(%x : memref<2016x1024xf32>) outs(%view : memref<1024x2016xf32, strided<[2048, 1], offset: 8>>) permutation = [1, 0]
  return %y : memref<1024x2048xf32>
}

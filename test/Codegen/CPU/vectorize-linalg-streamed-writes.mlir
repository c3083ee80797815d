// RUN: nx-opt %s -split-input-file -nx-tile-transposes -nx-vectorize-linalg=vector-bits=512 -canonicalize | FileCheck %s --enable-var-scope

// An output of at least 4 MiB that the function only writes and returns is
// written with non-temporal stores: each 16x16 square of the transpose
// becomes 16 aligned row stores that skip reading the lines they replace,
// and a fence after the loop nest orders them before anything another
// thread does after the call.
// CHECK-LABEL: func.func @returned_transpose
// CHECK-SAME: (%[[X:.*]]: memref<2048x1024xf32>)
// CHECK: %[[Y:.*]] = memref.alloc() {alignment = 64 : i64} : memref<1024x2048xf32>
// CHECK: %[[T:.*]] = vector.transpose %{{.*}}, [1, 0] : vector<16x16xf32> to vector<16x16xf32>
// CHECK: %[[ROW:.*]] = vector.extract %[[T]][0] : vector<16xf32> from vector<16x16xf32>
// CHECK: vector.store %[[ROW]], %[[Y]][%{{.*}}, %{{.*}}] {alignment = 64 : i64, nontemporal = true} : memref<1024x2048xf32>, vector<16xf32>
// CHECK-COUNT-15: vector.store {{.*}} {alignment = 64 : i64, nontemporal = true}
// CHECK-NOT: vector.transfer_write
// CHECK: llvm.fence seq_cst
// CHECK-NEXT: return %[[Y]]
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
// CHECK-NOT: llvm.fence
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

// -----

// In an OpenMP team, each thread fences once, after all its iterations
// (after the omp.wsloop, before the team's end), not in every iteration.
// CHECK-LABEL: func.func @team
// CHECK: omp.loop_nest
// CHECK: vector.store {{.*}} nontemporal = true
// CHECK-NOT: llvm.fence
// CHECK: omp.yield
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: llvm.fence seq_cst
// CHECK-NEXT: omp.terminator
func.func @team(%x: memref<2048x1024xf32>) -> memref<1024x2048xf32> {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c1024 = arith.constant 1024 : index
  %y = memref.alloc() {alignment = 64 : i64} : memref<1024x2048xf32>
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%c1024) step (%c32) {
        %in = memref.subview %x[0, %i] [2048, 32] [1, 1] : memref<2048x1024xf32> to memref<2048x32xf32, strided<[1024, 1], offset: ?>>
        %out = memref.subview %y[%i, 0] [32, 2048] [1, 1] : memref<1024x2048xf32> to memref<32x2048xf32, strided<[2048, 1], offset: ?>>
        linalg.transpose ins(%in : memref<2048x32xf32, strided<[1024, 1], offset: ?>>) outs(%out : memref<32x2048xf32, strided<[2048, 1], offset: ?>>) permutation = [1, 0]
        omp.yield
      }
    }
    omp.terminator
  }
  return %y : memref<1024x2048xf32>
}

// -----

// A row chain's tiles: each iteration copies its rows of both halves. The
// thread's one fence follows the omp.wsloop, none follows each copy.
// CHECK-LABEL: func.func @team_of_two_copies
// CHECK: omp.loop_nest
// CHECK-COUNT-2: vector.store {{.*}} nontemporal = true
// CHECK-NOT: llvm.fence
// CHECK: omp.yield
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: llvm.fence seq_cst
// CHECK-NEXT: omp.terminator
// CHECK-NOT: llvm.fence
// CHECK: return
func.func @team_of_two_copies(%x: memref<2048x1024xf32>, %z: memref<2048x1024xf32>) -> memref<2048x2048xf32> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c2048 = arith.constant 2048 : index
  %y = memref.alloc() {alignment = 64 : i64} : memref<2048x2048xf32>
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%c2048) step (%c4) {
        %xs = memref.subview %x[%i, 0] [4, 1024] [1, 1] : memref<2048x1024xf32> to memref<4x1024xf32, strided<[1024, 1], offset: ?>>
        %left = memref.subview %y[%i, 0] [4, 1024] [1, 1] : memref<2048x2048xf32> to memref<4x1024xf32, strided<[2048, 1], offset: ?>>
        linalg.copy ins(%xs : memref<4x1024xf32, strided<[1024, 1], offset: ?>>) outs(%left : memref<4x1024xf32, strided<[2048, 1], offset: ?>>)
        %zs = memref.subview %z[%i, 0] [4, 1024] [1, 1] : memref<2048x1024xf32> to memref<4x1024xf32, strided<[1024, 1], offset: ?>>
        %right = memref.subview %y[%i, 1024] [4, 1024] [1, 1] : memref<2048x2048xf32> to memref<4x1024xf32, strided<[2048, 1], offset: ?>>
        linalg.copy ins(%zs : memref<4x1024xf32, strided<[1024, 1], offset: ?>>) outs(%right : memref<4x1024xf32, strided<[2048, 1], offset: ?>>)
        omp.yield
      }
    }
    omp.terminator
  }
  return %y : memref<2048x2048xf32>
}

// -----

// Writes of 1-D vectors are streamed by the same rules: a concatenation
// copies each operand into its half of every row of the output, each
// vector a whole, aligned line (the right half's column is 1024 more).
// CHECK-LABEL: func.func @returned_concat
// CHECK: %[[Y:.*]] = memref.alloc()
// CHECK: vector.store %{{.*}}, %[[Y]][%{{.*}}, %{{.*}}] {alignment = 64 : i64, nontemporal = true} : memref<2048x2048xf32>, vector<16xf32>
// CHECK: llvm.fence seq_cst
// CHECK: %[[COLUMN:.*]] = affine.apply #{{.*}}()[%{{.*}}]
// CHECK: vector.store %{{.*}}, %[[Y]][%{{.*}}, %[[COLUMN]]] {alignment = 64 : i64, nontemporal = true} : memref<2048x2048xf32>, vector<16xf32>
// CHECK-NOT: vector.transfer_write
// CHECK: llvm.fence seq_cst
// CHECK-NEXT: return %[[Y]]
func.func @returned_concat(%x: memref<2048x1024xf32>, %z: memref<2048x1024xf32>) -> memref<2048x2048xf32> {
  %y = memref.alloc() {alignment = 64 : i64} : memref<2048x2048xf32>
  %left = memref.subview %y[0, 0] [2048, 1024] [1, 1] : memref<2048x2048xf32> to memref<2048x1024xf32, strided<[2048, 1]>>
  linalg.copy ins(%x : memref<2048x1024xf32>) outs(%left : memref<2048x1024xf32, strided<[2048, 1]>>)
  %right = memref.subview %y[0, 1024] [2048, 1024] [1, 1] : memref<2048x2048xf32> to memref<2048x1024xf32, strided<[2048, 1], offset: 1024>>
  linalg.copy ins(%z : memref<2048x1024xf32>) outs(%right : memref<2048x1024xf32, strided<[2048, 1], offset: 1024>>)
  return %y : memref<2048x2048xf32>
}

// -----

// A 1-D output: its one row is the whole buffer.
// CHECK-LABEL: func.func @returned_vector
// CHECK: math.exp %{{.*}} : vector<16xf32>
// CHECK: vector.store {{.*}} {alignment = 64 : i64, nontemporal = true} : memref<2097152xf32>, vector<16xf32>
// CHECK: llvm.fence seq_cst
func.func @returned_vector(%x: memref<2097152xf32>) -> memref<2097152xf32> {
  %y = memref.alloc() {alignment = 64 : i64} : memref<2097152xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : memref<2097152xf32>) outs(%y : memref<2097152xf32>) {
  ^bb0(%in: f32, %out: f32):
    %e = math.exp %in : f32
    linalg.yield %e : f32
  }
  return %y : memref<2097152xf32>
}

// -----

// A copy into columns from 8 on: its vectors straddle lines, so ordinary
// stores.
// CHECK-LABEL: func.func @copy_at_unaligned_column
// CHECK: vector.transfer_write
// CHECK-NOT: nontemporal
// CHECK-NOT: llvm.fence
func.func @copy_at_unaligned_column(%x: memref<2048x1024xf32>) -> memref<2048x2048xf32> {
  %y = memref.alloc() {alignment = 64 : i64} : memref<2048x2048xf32>
  %view = memref.subview %y[0, 8] [2048, 1024] [1, 1] : memref<2048x2048xf32> to memref<2048x1024xf32, strided<[2048, 1], offset: 8>>
  linalg.copy ins(%x : memref<2048x1024xf32>) outs(%view : memref<2048x1024xf32, strided<[2048, 1], offset: 8>>)
  return %y : memref<2048x2048xf32>
}

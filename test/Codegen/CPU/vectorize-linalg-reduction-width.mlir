// RUN: nx-opt %s -split-input-file -nx-vectorize-linalg="vector-bits=512 reduction-vector-bits=256" | FileCheck %s --enable-var-scope

// Column sums only add what they read: vectors of reduction-vector-bits.
// CHECK-LABEL: func.func @column_sums
// CHECK: vector.transfer_read {{.*}} : memref<64x64xf32>, vector<8xf32>
// CHECK-NOT: vector<16xf32>
func.func @column_sums(%x: memref<64x64xf32>, %y: memref<64xf32>) {
  linalg.reduce ins(%x : memref<64x64xf32>) outs(%y : memref<64xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return
}

// -----

// Column sums of squares compute per element, and an elementwise op
// reduces nothing: both keep vector-bits.
// CHECK-LABEL: func.func @squares
// CHECK: arith.mulf {{.*}} : vector<16xf32>
// CHECK: math.exp {{.*}} : vector<16xf32>
func.func @squares(%x: memref<64x64xf32>, %y: memref<64xf32>, %z: memref<64x64xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>],
                  iterator_types = ["reduction", "parallel"]}
      ins(%x : memref<64x64xf32>) outs(%y : memref<64xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %m = arith.mulf %in, %in : f32
    %s = arith.addf %m, %acc : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<64x64xf32>) outs(%z : memref<64x64xf32>) {
  ^bb0(%in: f32, %o: f32):
    %e = math.exp %in : f32
    linalg.yield %e : f32
  }
  return
}

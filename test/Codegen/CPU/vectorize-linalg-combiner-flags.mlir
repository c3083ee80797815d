// RUN: nx-opt %s -split-input-file -nx-vectorize-linalg=vector-bits=512 -canonicalize | FileCheck %s --enable-var-scope

// Upstream's vectorizer rebuilds a reduction's combiner without its
// fast-math flags; nx-vectorize-linalg puts them back, so that LLVM drops
// the zero-ordering blends of a maximum that may order +0 and -0 either
// way. A maximum over a middle axis, its accumulators in memory, four rows
// per pass (two segments of two rows: vectorize-linalg-jammed-rows.mlir):
// CHECK-LABEL: func.func @middle_maxima
// CHECK-SAME: (%[[X:.*]]: memref<4x8x256xf32>, %[[Y:.*]]: memref<4x256xf32>)
// CHECK: %[[IN:.*]] = vector.transfer_read %[[X]]{{.*}} : memref<4x8x256xf32>, vector<16xf32>
// CHECK: %[[ACC:.*]] = vector.transfer_read %[[Y]]{{.*}} : memref<4x256xf32>, vector<16xf32>
// CHECK: %[[MAX:.*]] = arith.maximumf %[[IN]], %[[ACC]] fastmath<reassoc,nsz> : vector<16xf32>
// CHECK-COUNT-3: arith.maximumf {{.*}} fastmath<reassoc,nsz> : vector<16xf32>
// CHECK: vector.transfer_write %{{.*}}, %[[Y]]
// CHECK-NOT: vector.multi_reduction
func.func @middle_maxima(%x: memref<4x8x256xf32>, %y: memref<4x256xf32>) {
  linalg.reduce ins(%x : memref<4x8x256xf32>) outs(%y : memref<4x256xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %m = arith.maximumf %in, %acc fastmath<reassoc,nsz> : f32
      linalg.yield %m : f32
    }
  return
}

// -----

// Column minima whose four accumulators stay in registers: every unrolled
// combination keeps the flags.
// CHECK-LABEL: func.func @narrow_column_minima
// CHECK: scf.for
// CHECK-COUNT-4: arith.minimumf {{.*}} fastmath<nsz> : vector<16xf32>
// CHECK: scf.yield
func.func @narrow_column_minima(%x: memref<32x64xf32>, %y: memref<64xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>],
                  iterator_types = ["reduction", "parallel"]}
      ins(%x : memref<32x64xf32>) outs(%y : memref<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.minimumf %in, %out fastmath<nsz> : f32
    linalg.yield %m : f32
  }
  return
}

// -----

// Column sums whose rows are jammed (four segments of eight rows, since
// they may reassociate): each of the four additions per pass over the
// accumulators keeps the flags.
// CHECK-LABEL: func.func @wide_column_sums
// CHECK: scf.for %{{.*}} = %{{.*}} to %c8 step %c1
// CHECK-COUNT-4: arith.addf {{.*}} fastmath<reassoc> : vector<16xf32>
// CHECK: vector.transfer_write
func.func @wide_column_sums(%x: memref<32x256xf32>, %y: memref<256xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>],
                  iterator_types = ["reduction", "parallel"]}
      ins(%x : memref<32x256xf32>) outs(%y : memref<256xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out fastmath<reassoc> : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A body with a second maximum besides its combiner: which vector maximum
// came from which is not known, so no flag moves.
// CHECK-LABEL: func.func @two_maxima
// CHECK: arith.maximumf
// CHECK-NOT: fastmath
// CHECK: return
func.func @two_maxima(%x: memref<4x32x64xf32>, %y: memref<4x64xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.reduce ins(%x : memref<4x32x64xf32>) outs(%y : memref<4x64xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %relu = arith.maximumf %in, %zero : f32
      %m = arith.maximumf %relu, %acc fastmath<reassoc,nsz> : f32
      linalg.yield %m : f32
    }
  return
}

// -----

// A combiner without flags gets none.
// CHECK-LABEL: func.func @strict_maxima
// CHECK: arith.maximumf %{{.*}}, %{{.*}} : vector<16xf32>
// CHECK-NOT: fastmath
// CHECK: return
func.func @strict_maxima(%x: memref<4x32x64xf32>, %y: memref<4x64xf32>) {
  linalg.reduce ins(%x : memref<4x32x64xf32>) outs(%y : memref<4x64xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %m = arith.maximumf %in, %acc : f32
      linalg.yield %m : f32
    }
  return
}

// RUN: nx-opt %s -split-input-file -nx-linalg-to-openmp | FileCheck %s --enable-var-scope

// A fill of a fresh buffer right before the op that accumulates into it
// moves into that op's tiles: each thread fills the slice it then writes,
// and one team is forked instead of two.
// CHECK-LABEL: func.func @max_pool
// CHECK: %[[NINF:.+]] = arith.constant 0xFF800000 : f32
// CHECK: %[[OUT:.+]] = memref.alloc() : memref<1x56x56x64xf32>
// CHECK-NOT: linalg.fill
// CHECK: omp.parallel {
// CHECK: omp.loop_nest (%[[ROW:.+]]) : index
// CHECK: %[[SLICE:.+]] = memref.subview %[[OUT]][0, %[[ROW]], 0, 0] [1, 1, 56, 64]
// CHECK: linalg.fill ins(%[[NINF]] : f32) outs(%[[SLICE]] :
// CHECK-NEXT: linalg.pooling_nhwc_max {{.+}} outs(%[[SLICE]] :
// CHECK-NOT: omp.parallel
func.func @max_pool(%x: memref<1x112x112x64xf32>, %w: memref<2x2xf32>) -> memref<1x56x56x64xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %out = memref.alloc() : memref<1x56x56x64xf32>
  linalg.fill ins(%ninf : f32) outs(%out : memref<1x56x56x64xf32>)
  linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%x, %w : memref<1x112x112x64xf32>, memref<2x2xf32>) outs(%out : memref<1x56x56x64xf32>)
  return %out : memref<1x56x56x64xf32>
}

// -----

// A buffer the caller passed in may be a view of an input: its fill stays
// where it is, a team of its own.
// CHECK-LABEL: func.func @argument_output
// CHECK: omp.parallel {
// CHECK: linalg.fill
// CHECK: omp.parallel {
// CHECK: linalg.generic
func.func @argument_output(%x: memref<512x512xf32>, %out: memref<512x512xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%out : memref<512x512xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<512x512xf32>) outs(%out : memref<512x512xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// The op reads the filled buffer through a view as an input too: a tile
// could read a slice another thread has not filled yet. The fill stays.
// CHECK-LABEL: func.func @reads_its_output
// CHECK: omp.parallel {
// CHECK: linalg.fill
// CHECK: omp.parallel {
// CHECK: linalg.generic
func.func @reads_its_output() -> memref<512x512xf32> {
  %one = arith.constant 1.0 : f32
  %buffer = memref.alloc() : memref<512x512xf32>
  linalg.fill ins(%one : f32) outs(%buffer : memref<512x512xf32>)
  %t = memref.transpose %buffer (i, j) -> (j, i) : memref<512x512xf32> to memref<512x512xf32, strided<[1, 512]>>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%t : memref<512x512xf32, strided<[1, 512]>>) outs(%buffer : memref<512x512xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  }
  return %buffer : memref<512x512xf32>
}

// RUN: nx-opt %s -split-input-file -nx-linalg-to-openmp | FileCheck %s --enable-var-scope

// An in-place elementwise op after a parallel op on the output it owns (an
// average pool's division by its window) moves into that op's tiles, past
// the deallocation of another buffer: each thread divides the slice it
// has just summed, and one team is forked instead of two.
// CHECK-LABEL: func.func @avg_pool
// CHECK: %[[NINE:.+]] = arith.constant 9.0
// CHECK: %[[OUT:.+]] = memref.alloc() : memref<1x55x55x64xf32>
// CHECK-NOT: linalg
// CHECK: omp.parallel {
// CHECK: omp.loop_nest (%[[ROW:.+]]) : index
// CHECK: %[[SLICE:.+]] = memref.subview %[[OUT]][0, %[[ROW]], 0, 0] [1, 1, 55, 64]
// CHECK: linalg.fill {{.+}} outs(%[[SLICE]] :
// CHECK-NEXT: linalg.pooling_nhwc_sum {{.+}} outs(%[[SLICE]] :
// CHECK-NEXT: linalg.generic {{.+}} ins(%[[SLICE]] : {{.+}}) outs(%[[SLICE]] :
// CHECK: arith.divf %{{.+}}, %[[NINE]] : f32
// CHECK: omp.terminator
// CHECK-NEXT: }
// CHECK-NEXT: memref.dealloc %[[WINDOW:.+]] :
// CHECK-NOT: omp.parallel
// CHECK-NOT: linalg
func.func @avg_pool(%x: memref<1x112x112x64xf32>) -> memref<1x55x55x64xf32> {
  %zero = arith.constant 0.0 : f32
  %nine = arith.constant 9.0 : f32
  %window = memref.alloc() : memref<3x3xf32>
  %out = memref.alloc() : memref<1x55x55x64xf32>
  linalg.fill ins(%zero : f32) outs(%out : memref<1x55x55x64xf32>)
  linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%x, %window : memref<1x112x112x64xf32>, memref<3x3xf32>) outs(%out : memref<1x55x55x64xf32>)
  memref.dealloc %window : memref<3x3xf32>
  linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>,
                                   affine_map<(n, h, w, c) -> (n, h, w, c)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%out : memref<1x55x55x64xf32>) outs(%out : memref<1x55x55x64xf32>) {
  ^bb0(%v: f32, %o: f32):
    %d = arith.divf %v, %nine : f32
    linalg.yield %d : f32
  }
  return %out : memref<1x55x55x64xf32>
}

// -----

// The next op reads another buffer: it is no epilogue of the first. Both
// go along the same rows, though, so one team runs them as a row chain
// (linalg-to-openmp-row-chains.mlir), each tile one op after the other.
// CHECK-LABEL: func.func @reads_another_buffer
// CHECK: omp.parallel {
// CHECK: linalg.generic
// CHECK: math.exp
// CHECK: linalg.generic
// CHECK: arith.addf
// CHECK: omp.terminator
// CHECK-NOT: omp.parallel
func.func @reads_another_buffer(%x: memref<512x512xf32>, %y: memref<512x512xf32>) -> memref<512x512xf32> {
  %out = memref.alloc() : memref<512x512xf32>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<512x512xf32>) outs(%out : memref<512x512xf32>) {
  ^bb0(%in: f32, %o: f32):
    %e = math.exp %in : f32
    linalg.yield %e : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>,
                                   affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%out, %y : memref<512x512xf32>, memref<512x512xf32>) outs(%out : memref<512x512xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  }
  return %out : memref<512x512xf32>
}

// -----

// The producer's output was passed in and may be a view of its input: a
// thread's epilogue could change what another thread still reads. Both
// stay separate.
// CHECK-LABEL: func.func @argument_output
// CHECK: omp.parallel {
// CHECK: math.exp
// CHECK: omp.terminator
// CHECK: omp.parallel {
// CHECK: arith.mulf
func.func @argument_output(%x: memref<512x512xf32>, %out: memref<512x512xf32>) {
  %two = arith.constant 2.0 : f32
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (j, i)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<512x512xf32>) outs(%out : memref<512x512xf32>) {
  ^bb0(%in: f32, %o: f32):
    %e = math.exp %in : f32
    linalg.yield %e : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%out : memref<512x512xf32>) outs(%out : memref<512x512xf32>) {
  ^bb0(%in: f32, %o: f32):
    %m = arith.mulf %in, %two : f32
    linalg.yield %m : f32
  }
  return
}

// -----

// An epilogue that reads its output through a transposed view needs other
// threads' slices: it stays a nest of its own.
// CHECK-LABEL: func.func @transposed_epilogue
// CHECK: omp.parallel {
// CHECK: math.exp
// CHECK: omp.terminator
// CHECK: omp.parallel {
// CHECK: arith.addf
func.func @transposed_epilogue(%x: memref<512x512xf32>) -> memref<512x512xf32> {
  %out = memref.alloc() : memref<512x512xf32>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<512x512xf32>) outs(%out : memref<512x512xf32>) {
  ^bb0(%in: f32, %o: f32):
    %e = math.exp %in : f32
    linalg.yield %e : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (j, i)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%out : memref<512x512xf32>) outs(%out : memref<512x512xf32>) {
  ^bb0(%in: f32, %o: f32):
    %s = arith.addf %in, %o : f32
    linalg.yield %s : f32
  }
  return %out : memref<512x512xf32>
}

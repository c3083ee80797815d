// RUN: nx-opt %s -split-input-file -nx-linalg-to-openmp='num-threads-function=threads' | FileCheck %s --enable-var-scope
// RUN: nx-opt %s -split-input-file -nx-linalg-to-openmp | FileCheck %s --enable-var-scope --check-prefix=DEFAULT

#id = affine_map<(d0, d1) -> (d0, d1)>

// A static nest of 2^20 points shares its rows among the team, 4 rows
// (4096 points) per iteration of the shared loop; each iteration runs the
// same op on its slices. No if clause: the size is known.
// CHECK: func.func private @threads() -> i32
// CHECK-LABEL: func.func @elementwise
// CHECK-SAME: (%[[X:.*]]: memref<1024x1024xf32>, %[[Y:.*]]: memref<1024x1024xf32>)
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[ROWS:.*]] = arith.constant 1024 : index
// CHECK-DAG: %[[FOUR:.*]] = arith.constant 4 : index
// CHECK: %[[N:.*]] = call @threads() : () -> i32
// CHECK: omp.parallel num_threads(%[[N]] : i32) {
// CHECK-NEXT: omp.wsloop {
// CHECK-NEXT: omp.loop_nest (%[[I:.*]]) : index = (%[[ZERO]]) to (%[[ROWS]]) step (%[[FOUR]]) {
// CHECK-NEXT: %[[SX:.*]] = memref.subview %[[X]][%[[I]], 0] [4, 1024] [1, 1]
// CHECK-NEXT: %[[SY:.*]] = memref.subview %[[Y]][%[[I]], 0] [4, 1024] [1, 1]
// CHECK-NEXT: linalg.generic
// CHECK-SAME: ins(%[[SX]] : memref<4x1024xf32, strided<[1024, 1], offset: ?>>) outs(%[[SY]] :
// CHECK: math.exp
// CHECK: omp.yield
// CHECK: omp.terminator
// CHECK-NOT: linalg.generic
// DEFAULT-NOT: func.func private
// DEFAULT-LABEL: func.func @elementwise
// DEFAULT-NOT: call
// DEFAULT: omp.parallel {
func.func @elementwise(%x: memref<1024x1024xf32>, %y: memref<1024x1024xf32>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<1024x1024xf32>) outs(%y : memref<1024x1024xf32>) {
  ^bb0(%in: f32, %out: f32):
    %e = math.exp %in : f32
    linalg.yield %e : f32
  }
  return
}

// -----

// Dynamic sizes: the if clause compares the actual points with min-work at
// run time; with the row length unknown, each iteration takes one row.
// CHECK-LABEL: func.func @row_sums
// CHECK-SAME: (%[[X:.*]]: memref<?x?xf32>, %[[Y:.*]]: memref<?xf32>)
// CHECK-DAG: %[[ROWS:.*]] = memref.dim %[[X]], %c0
// CHECK-DAG: %[[COLS:.*]] = memref.dim %[[X]], %c1
// CHECK: %[[ROWS2:.*]] = memref.dim %[[X]], %c0
// CHECK: %[[COLS2:.*]] = memref.dim %[[X]], %c1
// CHECK: %[[POINTS:.*]] = arith.muli %[[ROWS2]], %[[COLS2]] : index
// CHECK: %[[MIN:.*]] = arith.constant 65536 : index
// CHECK: %[[LARGE:.*]] = arith.cmpi sge, %[[POINTS]], %[[MIN]] : index
// CHECK: %[[N:.*]] = call @threads()
// CHECK: omp.parallel if(%[[LARGE]]) num_threads(%[[N]] : i32) {
// CHECK: omp.loop_nest (%[[I:.*]]) : index = (%{{.*}}) to (%{{.*}}) step (%c1{{.*}})
// CHECK: %[[SX:.*]] = memref.subview %[[X]][%[[I]], 0] [1, %{{.*}}] [1, 1]
// CHECK: %[[SY:.*]] = memref.subview %[[Y]][%[[I]]] [1] [1]
// CHECK: linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "reduction"]
// CHECK-SAME: ins(%[[SX]] : {{.*}}) outs(%[[SY]] :
// CHECK: omp.yield
func.func @row_sums(%x: memref<?x?xf32>, %y: memref<?xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<?x?xf32>) outs(%y : memref<?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Left to convert-linalg-to-loops: a static nest below min-work, an
// outermost reduction, an outermost dimension that an output is not indexed
// by, an op on tensors, and ops with an index that does not grow with the
// loops (a reversal, a remainder), whose tiles' slices upstream's tiling
// would get wrong. No declaration is needed then.
// CHECK-NOT: func.func private @threads
// CHECK-LABEL: func.func @small
// CHECK: linalg.copy
// CHECK-NOT: omp.
// CHECK-LABEL: func.func @outer_reduction
// CHECK: linalg.generic
// CHECK-NOT: omp.
// CHECK-LABEL: func.func @broadcast_dimension
// CHECK: linalg.generic
// CHECK-NOT: omp.
// CHECK-LABEL: func.func @reversed_rows
// CHECK: linalg.generic
// CHECK-NOT: omp.
// CHECK-LABEL: func.func @remainder
// CHECK: linalg.generic
// CHECK-NOT: omp.
// CHECK-LABEL: func.func @on_tensors
// CHECK: linalg.generic
// CHECK-NOT: omp.
func.func @small(%x: memref<128x128xf32>, %y: memref<128x128xf32>) {
  linalg.copy ins(%x : memref<128x128xf32>) outs(%y : memref<128x128xf32>)
  return
}

func.func @outer_reduction(%x: memref<1024x1024xf32>, %y: memref<1024xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>],
                  iterator_types = ["reduction", "parallel"]}
      ins(%x : memref<1024x1024xf32>) outs(%y : memref<1024xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  }
  return
}

func.func @broadcast_dimension(%x: memref<1024x1024xf32>, %y: memref<1024xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<1024x1024xf32>) outs(%y : memref<1024xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  return
}

func.func @reversed_rows(%x: memref<1024x1024xf32>, %y: memref<1024x1024xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (1023 - d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<1024x1024xf32>) outs(%y : memref<1024x1024xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  return
}

func.func @remainder(%x: memref<1024x1024xf32>, %y: memref<1024x1024xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0 mod 512, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<1024x1024xf32>) outs(%y : memref<1024x1024xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  return
}

func.func @on_tensors(%x: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<1024x1024xf32>) outs(%x : tensor<1024x1024xf32>) {
  ^bb0(%in: f32, %out: f32):
    %e = math.exp %in : f32
    linalg.yield %e : f32
  } -> tensor<1024x1024xf32>
  return %r : tensor<1024x1024xf32>
}

// -----

// An existing declaration of the thread-count function is used as it is.
// CHECK: func.func private @threads() -> i32 attributes {existing}
// CHECK-NOT: func.func private @threads
// CHECK-LABEL: func.func @fill
// CHECK: call @threads()
// CHECK: omp.parallel
func.func private @threads() -> i32 attributes {existing}

func.func @fill(%y: memref<65536xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%y : memref<65536xf32>)
  return
}

// -----

// A stride so large that a tile's offsets would overflow, on sizes nothing
// bounds: the nest stays serial instead of being tiled into invalid views.
// (With the sizes known, the overflow is reported; see
// static-bounds-before-tiling.mlir.)
// CHECK-LABEL: func.func @huge_stride
// CHECK-NOT: omp.parallel
// CHECK: linalg.conv_2d_nhwc_hwcf
func.func @huge_stride(%in: memref<?x?x?x3xf32>, %filter: memref<3x3x3x4xf32>, %out: memref<?x?x?x4xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<9223372036854775807> : tensor<2xi64>}
    ins(%in, %filter : memref<?x?x?x3xf32>, memref<3x3x3x4xf32>) outs(%out : memref<?x?x?x4xf32>)
  return
}

// -----

// A transpose: the threads share the loop of the columns it writes, each
// a strip of whole cache lines of every output row and so whole rows of
// the input, which it reads along those rows. A strip is a multiple of 32
// columns, so that nx-tile-transposes can cut it into square blocks, and
// as wide as leaves 16 strips, up to 256.
// CHECK-LABEL: func.func @transpose
// CHECK-SAME: (%[[X:.*]]: memref<1024x1024xf32>, %[[Y:.*]]: memref<1024x1024xf32>)
// CHECK-DAG: %[[C64:.*]] = arith.constant 64 : index
// CHECK: omp.loop_nest (%[[J:.*]]) : index = (%{{.*}}) to (%{{.*}}) step (%[[C64]]) {
// CHECK: %[[IN:.*]] = memref.subview %[[X]][%[[J]], 0] [64, 1024] [1, 1]
// CHECK: %[[OUT:.*]] = memref.subview %[[Y]][0, %[[J]]] [1024, 64] [1, 1]
// CHECK: linalg.transpose ins(%[[IN]] : memref<64x1024xf32, {{.*}}>) outs(%[[OUT]] : memref<1024x64xf32, {{.*}}>)
// DEFAULT-LABEL: func.func @transpose
func.func @transpose(%x: memref<1024x1024xf32>, %y: memref<1024x1024xf32>) {
  linalg.transpose ins(%x : memref<1024x1024xf32>) outs(%y : memref<1024x1024xf32>) permutation = [1, 0]
  return
}

// -----

// 4096 columns: strips of 256, an outer block of nx-tile-transposes.
// CHECK-LABEL: func.func @large_transpose
// CHECK-DAG: %[[C256:.*]] = arith.constant 256 : index
// CHECK: omp.loop_nest (%[[I:.*]]) : index = (%{{.*}}) to (%{{.*}}) step (%[[C256]]) {
// CHECK: linalg.transpose ins(%{{.*}} : memref<256x4096xf32, {{.*}}>) outs(%{{.*}} : memref<4096x256xf32, {{.*}}>)
func.func @large_transpose(%x: memref<4096x4096xf32>, %y: memref<4096x4096xf32>) {
  linalg.transpose ins(%x : memref<4096x4096xf32>) outs(%y : memref<4096x4096xf32>) permutation = [1, 0]
  return
}

// -----

// A vector of one value per row, broadcast along each row (a softmax's
// maximum), is no transposed input: the threads share the rows, 4 of 1024
// (4096 points) a tile, and each reads whole rows of the matrix. Sharing
// the columns made each thread read a strip of 64 of every row: the
// softmax took 7.7 ms at one thread on the Intel VM instead of 2.3.
// CHECK-LABEL: func.func @row_broadcast
// CHECK-SAME: (%[[X:[^:]*]]: memref<1024x1024xf32>, %[[M:[^:]*]]: memref<1024xf32>
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK: omp.loop_nest (%[[I:.*]]) : index = (%{{.*}}) to (%{{.*}}) step (%[[C4]]) {
// CHECK: memref.subview %[[X]][%[[I]], 0] [4, 1024] [1, 1]
// CHECK: memref.subview %[[M]][%[[I]]] [4] [1]
func.func @row_broadcast(%x: memref<1024x1024xf32>, %m: memref<1024xf32>, %y: memref<1024x1024xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x, %m : memref<1024x1024xf32>, memref<1024xf32>) outs(%y : memref<1024x1024xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.subf %a, %b : f32
    linalg.yield %d : f32
  }
  return
}

// -----

// Ragged rows of the input do not matter: the strips cut its 1024 rows.
// CHECK-LABEL: func.func @ragged_input_rows
// CHECK-DAG: %[[C64:.*]] = arith.constant 64 : index
// CHECK: omp.loop_nest (%[[I:.*]]) : index = (%{{.*}}) to (%{{.*}}) step (%[[C64]]) {
// CHECK: linalg.transpose ins(%{{.*}} : memref<64x1056xf32, {{.*}}>) outs(%{{.*}} : memref<1056x64xf32, {{.*}}>)
func.func @ragged_input_rows(%x: memref<1024x1056xf32>, %y: memref<1056x1024xf32>) {
  linalg.transpose ins(%x : memref<1024x1056xf32>) outs(%y : memref<1056x1024xf32>) permutation = [1, 0]
  return
}

// -----

// 1040 columns: no multiple of 32 divides them. The threads then share the
// outermost loop, the output's rows, in tiles of 32, the last one short.
// CHECK-LABEL: func.func @ragged_transpose
// CHECK-SAME: (%[[X:[^:]*]]: memref<1040x1040xf32>
// CHECK-DAG: %[[C32:.*]] = arith.constant 32 : index
// CHECK: omp.loop_nest (%[[I:.*]]) : index = (%{{.*}}) to (%{{.*}}) step (%[[C32]]) {
// CHECK: memref.subview %[[X]][0, %[[I]]] [1040, %{{.*}}] [1, 1]
func.func @ragged_transpose(%x: memref<1040x1040xf32>, %y: memref<1040x1040xf32>) {
  linalg.transpose ins(%x : memref<1040x1040xf32>) outs(%y : memref<1040x1040xf32>) permutation = [1, 0]
  return
}

// -----

// Strips of 32 i8 columns are half a cache line, which two threads would
// write: the output's rows, in tiles of 32, as for a ragged side.
// CHECK-LABEL: func.func @narrow_strips
// CHECK-DAG: %[[C32:.*]] = arith.constant 32 : index
// CHECK: omp.loop_nest (%[[I:.*]]) : index = (%{{.*}}) to (%{{.*}}) step (%[[C32]]) {
// CHECK: linalg.transpose ins(%{{.*}} : memref<512x32xi8, {{.*}}>) outs(%{{.*}} : memref<32x512xi8, {{.*}}>)
func.func @narrow_strips(%x: memref<512x512xi8>, %y: memref<512x512xi8>) {
  linalg.transpose ins(%x : memref<512x512xi8>) outs(%y : memref<512x512xi8>) permutation = [1, 0]
  return
}

// -----

// An output that is a view with a layout of its own may start anywhere in
// a cache line: the output's rows.
// CHECK-LABEL: func.func @strided_output
// CHECK-DAG: %[[C64:.*]] = arith.constant 64 : index
// CHECK: omp.loop_nest (%[[I:.*]]) : index = (%{{.*}}) to (%{{.*}}) step (%[[C64]]) {
// CHECK: linalg.transpose ins(%{{.*}} : memref<1024x64xf32, {{.*}}>) outs(%{{.*}} : memref<64x1024xf32, {{.*}}>)
func.func @strided_output(%x: memref<1024x1024xf32>, %y: memref<1024x1024xf32, strided<[1040, 1], offset: 3>>) {
  linalg.transpose ins(%x : memref<1024x1024xf32>) outs(%y : memref<1024x1024xf32, strided<[1040, 1], offset: 3>>) permutation = [1, 0]
  return
}

// -----

// A batch of one: the threads share the first loop of another extent, the
// rows of the image, not the batch loop of one iteration.
// CHECK-LABEL: func.func @batch_of_one
// CHECK-DAG: %[[C56:.*]] = arith.constant 56 : index
// CHECK: omp.loop_nest (%[[H:.*]]) : index = (%{{.*}}) to (%[[C56]]) step (%{{.*}}) {
// CHECK: memref.subview %{{.*}}[0, %[[H]], 0, 0] [1, 1, 56, 128] [1, 1, 1, 1]
// DEFAULT-LABEL: func.func @batch_of_one
func.func @batch_of_one(%x: memref<1x56x56x128xf32>, %y: memref<1x56x56x128xf32>) {
  linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : memref<1x56x56x128xf32>) outs(%y : memref<1x56x56x128xf32>) {
  ^bb0(%in: f32, %out: f32):
    %e = math.exp %in : f32
    linalg.yield %e : f32
  }
  return
}

// -----

// A product along its rows (one row already has 96 x 150 points): a
// thread's tile has whole register tiles of nx-vectorize-linalg (8 rows),
// as many as keep 16 tiles (203 / 16 is 12, 16 rows); the last tile has
// the 11 rows left.
// CHECK-LABEL: func.func @product_rows
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : index
// CHECK: omp.loop_nest (%[[I:.*]]) : index = (%{{.*}}) to (%{{.*}}) step (%[[C16]]) {
// CHECK: %[[ROWS:.*]] = affine.min #{{.*}}(%[[I]])
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : memref<?x96xi32, {{.*}}>, memref<96x150xi32, {{.*}}>) outs(%{{.*}} : memref<?x150xi32, {{.*}}>)
// DEFAULT-LABEL: func.func @product_rows
func.func @product_rows(%a: memref<203x96xi32>, %b: memref<96x150xi32>, %c: memref<203x150xi32>) {
  linalg.matmul ins(%a, %b : memref<203x96xi32>, memref<96x150xi32>) outs(%c : memref<203x150xi32>)
  return
}

// -----

// 2048 rows: 32 rows a tile, the most.
// CHECK-LABEL: func.func @product_many_rows
// CHECK-DAG: %[[C32:.*]] = arith.constant 32 : index
// CHECK: omp.loop_nest (%{{.*}}) : index = (%{{.*}}) to (%{{.*}}) step (%[[C32]]) {
// DEFAULT-LABEL: func.func @product_many_rows
func.func @product_many_rows(%a: memref<2048x64xi32>, %b: memref<64x64xi32>, %c: memref<2048x64xi32>) {
  linalg.matmul ins(%a, %b : memref<2048x64xi32>, memref<64x64xi32>) outs(%c : memref<2048x64xi32>)
  return
}

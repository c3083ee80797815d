// RUN: nx-opt %s -split-input-file -nx-vectorize-linalg=vector-bits=512 -canonicalize | FileCheck %s --enable-var-scope

#id = affine_map<(d0, d1) -> (d0, d1)>

// Rows tiled by 1, columns by 16 f32: six full tiles of one 16-lane vector,
// then the last 4 columns as one 4-lane vector (a static op has a static
// partial tile).
// CHECK-LABEL: func.func @static_rows
// CHECK-SAME: (%[[X:.*]]: memref<8x100xf32>, %[[Y:.*]]: memref<8x100xf32>)
// CHECK-DAG: %[[C96:.*]] = arith.constant 96 : index
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : index
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT: scf.for %[[J:.*]] = %{{.*}} to %[[C96]] step %[[C16]] {
// CHECK: %[[V:.*]] = vector.transfer_read %[[X]][%[[I]], %[[J]]], %{{.*}} {in_bounds = [true]} : memref<8x100xf32>, vector<16xf32>
// CHECK: %[[E:.*]] = math.exp %[[V]] : vector<16xf32>
// CHECK: vector.transfer_write %[[E]], %[[Y]][%[[I]], %[[J]]] {in_bounds = [true]} : vector<16xf32>, memref<8x100xf32>
// CHECK: }
// CHECK: %[[R:.*]] = vector.transfer_read %[[X]][%[[I]], %[[C96]]], %{{.*}} {in_bounds = [true]} : memref<8x100xf32>, vector<4xf32>
// CHECK: math.exp %[[R]] : vector<4xf32>
// CHECK-NOT: linalg.generic
func.func @static_rows(%x: memref<8x100xf32>, %y: memref<8x100xf32>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<8x100xf32>) outs(%y : memref<8x100xf32>) {
  ^bb0(%in: f32, %out: f32):
    %e = math.exp %in : f32
    linalg.yield %e : f32
  }
  return
}

// -----

// A dynamic length: full 8-lane f64 tiles up to the last multiple of 8, the
// rest (fewer than 8 elements) left as a linalg op for the loop lowering.
// CHECK-LABEL: func.func @dynamic
// CHECK: %[[END:.*]] = affine.apply {{.*}}()[%[[N:.*]]]
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[END]] step %c8 {
// CHECK: vector.transfer_read {{.*}} : memref<?xf64>, vector<8xf64>
// CHECK-NOT: linalg.generic
// CHECK: }
// CHECK: scf.for %{{.*}} = %[[END]] to %[[N]] step %c8 {
// CHECK: linalg.generic
// CHECK-SAME: memref<?xf64
func.func @dynamic(%x: memref<?xf64>, %y: memref<?xf64>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x : memref<?xf64>) outs(%y : memref<?xf64>) {
  ^bb0(%in: f64, %out: f64):
    %s = arith.addf %in, %in : f64
    linalg.yield %s : f64
  }
  return
}

// -----

// The widest element type sets the lanes: 8 for f64 in 512 bits, so an i8
// input is read 8 at a time too. An op that fits one vector is vectorized
// without loops.
// CHECK-LABEL: func.func @mixed_widths
// CHECK-NOT: scf.for
// CHECK: vector.transfer_read {{.*}} : memref<8xi8>, vector<8xi8>
// CHECK: arith.sitofp {{.*}} : vector<8xi8> to vector<8xf64>
// CHECK: vector.transfer_write {{.*}} : vector<8xf64>, memref<8xf64>
func.func @mixed_widths(%x: memref<8xi8>, %y: memref<8xf64>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x : memref<8xi8>) outs(%y : memref<8xf64>) {
  ^bb0(%in: i8, %out: f64):
    %f = arith.sitofp %in : i8 to f64
    linalg.yield %f : f64
  }
  return
}

// -----

// A reduction over the outer dimension vectorizes along the inner one: each
// row is added to the accumulator 16 lanes at a time. Four vectors cover
// it, so the tile loop is unrolled and the four accumulators live in
// registers (the reduction loop's iter_args), read before the loop and
// written after it.
// CHECK-LABEL: func.func @column_sums
// CHECK-SAME: (%[[X:.*]]: memref<64x64xf32>, %[[Y:.*]]: memref<64xf32>)
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C48:.*]] = arith.constant 48 : index
// CHECK: %[[A0:.*]] = vector.transfer_read %[[Y]][%[[C0]]]
// CHECK: %[[A3:.*]] = vector.transfer_read %[[Y]][%[[C48]]]
// CHECK: %[[R:.*]]:4 = scf.for %[[I:.*]] = {{.*}} iter_args(%[[S0:.*]] = %[[A0]], %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %[[S3:.*]] = %[[A3]]) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>) {
// CHECK: %[[IN0:.*]] = vector.transfer_read %[[X]][%[[I]], %[[C0]]]
// CHECK: %[[SUM0:.*]] = arith.addf %[[S0]], %[[IN0]] : vector<16xf32>
// CHECK: %[[IN3:.*]] = vector.transfer_read %[[X]][%[[I]], %[[C48]]]
// CHECK: %[[SUM3:.*]] = arith.addf %[[S3]], %[[IN3]] : vector<16xf32>
// CHECK: scf.yield %[[SUM0]], %{{.*}}, %{{.*}}, %[[SUM3]]
// CHECK-NOT: vector.transfer_write
// CHECK: }
// CHECK: vector.transfer_write %[[R]]#3, %[[Y]][%[[C48]]]
// CHECK: vector.transfer_write %[[R]]#0, %[[Y]][%[[C0]]]
func.func @column_sums(%x: memref<64x64xf32>, %y: memref<64xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>],
                  iterator_types = ["reduction", "parallel"]}
      ins(%x : memref<64x64xf32>) outs(%y : memref<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// What nx-split-reductions makes of row sums: the reduction is a middle
// loop, so each tile reduces over a unit dimension, which leaves only the
// add. Per row, four 16-lane vectors of partial sums stay in registers
// through the reduction loop.
// CHECK-LABEL: func.func @split_row_sums
// CHECK-SAME: (%[[X:.*]]: memref<8x16x64xf32>, %[[Y:.*]]: memref<8x64xf32>)
// CHECK: scf.for %[[ROW:.*]] = 
// CHECK: %[[A0:.*]] = vector.transfer_read %[[Y]][%[[ROW]], %{{.*}}]
// CHECK: %[[R:.*]]:4 = scf.for %[[K:.*]] = {{.*}} iter_args(%[[S0:.*]] = %[[A0]], {{.*}}) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>) {
// CHECK: %[[IN:.*]] = vector.transfer_read %[[X]][%[[ROW]], %[[K]], %{{.*}}], %{{.*}} {in_bounds = [true]} : memref<8x16x64xf32>, vector<16xf32>
// CHECK: %[[SUM:.*]] = arith.addf %[[S0]], %[[IN]] : vector<16xf32>
// CHECK-NOT: vector.multi_reduction
// CHECK-NOT: vector.shape_cast
// CHECK-NOT: vector.transfer_write
// CHECK: scf.yield %[[SUM]],
// CHECK: vector.transfer_write %[[R]]#0, %[[Y]][%[[ROW]], %{{.*}}]
func.func @split_row_sums(%x: memref<8x16x64xf32>, %y: memref<8x64xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>],
                  iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x : memref<8x16x64xf32>) outs(%y : memref<8x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Column sums of a matrix wider than four vectors: the accumulators stay
// in memory, read and written along the rows, each of which is read
// contiguously. Four rows are added in one pass over the accumulators:
// one read and one write of each accumulator per four rows.
// CHECK-LABEL: func.func @wide_column_sums
// CHECK-SAME: (%[[X:.*]]: memref<32x256xf32>, %[[Y:.*]]: memref<256xf32>)
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %c4
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %c16
// CHECK: %[[IN0:.*]] = vector.transfer_read %[[X]][%[[I]], %[[J]]]{{.*}} : memref<32x256xf32>, vector<16xf32>
// CHECK: %[[ACC:.*]] = vector.transfer_read %[[Y]][%[[J]]]{{.*}} : memref<256xf32>, vector<16xf32>
// CHECK: %[[SUM0:.*]] = arith.addf %[[ACC]], %[[IN0]] : vector<16xf32>
// CHECK-NOT: vector.transfer_write
// CHECK-NOT: vector.transfer_read %[[Y]]
// CHECK: %[[IN1:.*]] = vector.transfer_read %[[X]]
// CHECK: %[[SUM1:.*]] = arith.addf %[[SUM0]], %[[IN1]] : vector<16xf32>
// CHECK: %[[IN2:.*]] = vector.transfer_read %[[X]]
// CHECK: %[[SUM2:.*]] = arith.addf %[[SUM1]], %[[IN2]] : vector<16xf32>
// CHECK: %[[IN3:.*]] = vector.transfer_read %[[X]]
// CHECK: %[[SUM3:.*]] = arith.addf %[[SUM2]], %[[IN3]] : vector<16xf32>
// CHECK-NOT: vector.transfer_read %[[Y]]
// CHECK: vector.transfer_write %[[SUM3]], %[[Y]][%[[J]]]
// CHECK-NOT: vector.transfer_write
func.func @wide_column_sums(%x: memref<32x256xf32>, %y: memref<256xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>],
                  iterator_types = ["reduction", "parallel"]}
      ins(%x : memref<32x256xf32>) outs(%y : memref<256xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A NaN-propagating maximum is several dependent instructions on x86:
// chaining four rows of them is slower than keeping the accumulators in
// memory, so its rows are not jammed. The row's element comes first and the
// accumulator second, so that x86's NaN test falls on the element and no
// masked store of the accumulator results (see
// Integration/AOT/no-masked-accumulator-stores.mlir).
// CHECK-LABEL: func.func @wide_column_maxima
// CHECK-SAME: (%[[X:.*]]: memref<32x256xf32>, %[[Y:.*]]: memref<256xf32>)
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %c1
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %c16
// CHECK: %[[IN:.*]] = vector.transfer_read %[[X]][%[[I]], %[[J]]]{{.*}} : memref<32x256xf32>, vector<16xf32>
// CHECK: %[[ACC:.*]] = vector.transfer_read %[[Y]][%[[J]]]{{.*}} : memref<256xf32>, vector<16xf32>
// CHECK: %[[MAX:.*]] = arith.maximumf %[[IN]], %[[ACC]] : vector<16xf32>
// CHECK: vector.transfer_write %[[MAX]], %[[Y]][%[[J]]]
func.func @wide_column_maxima(%x: memref<32x256xf32>, %y: memref<256xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>],
                  iterator_types = ["reduction", "parallel"]}
      ins(%x : memref<32x256xf32>) outs(%y : memref<256xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %out : f32
    linalg.yield %m : f32
  }
  return
}

// -----

// A row count that four does not divide: one row per pass, as upstream's
// unroll-and-jam takes only loops it divides evenly.
// CHECK-LABEL: func.func @odd_column_sums
// CHECK-SAME: (%[[X:.*]]: memref<30x256xf32>, %[[Y:.*]]: memref<256xf32>)
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %c1
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %c16
// CHECK: %[[IN:.*]] = vector.transfer_read %[[X]][%[[I]], %[[J]]]{{.*}} : memref<30x256xf32>, vector<16xf32>
// CHECK: %[[ACC:.*]] = vector.transfer_read %[[Y]][%[[J]]]{{.*}} : memref<256xf32>, vector<16xf32>
// CHECK: %[[SUM:.*]] = arith.addf %[[ACC]], %[[IN]] : vector<16xf32>
// CHECK: vector.transfer_write %[[SUM]], %[[Y]][%[[J]]]
func.func @odd_column_sums(%x: memref<30x256xf32>, %y: memref<256xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>],
                  iterator_types = ["reduction", "parallel"]}
      ins(%x : memref<30x256xf32>) outs(%y : memref<256xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Partial sums in a buffer that a later op reads through a view (as
// nx-linalg-to-openmp's tiles do): the accumulators still move to
// registers, since no view of the buffer is used inside the reduction loop.
// CHECK-LABEL: func.func @partial_sums_with_a_later_view
// CHECK: %[[P:.*]] = memref.alloc() : memref<8x64xf32>
// CHECK: scf.for %[[ROW:.*]] =
// CHECK: %[[A0:.*]] = vector.transfer_read %[[P]][%[[ROW]], %{{.*}}]
// CHECK: %[[R:.*]]:4 = scf.for {{.*}} iter_args(%[[S0:.*]] = %[[A0]], {{.*}}) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>) {
// CHECK-NOT: vector.transfer_write
// CHECK: scf.yield
// CHECK: vector.transfer_write %[[R]]#0, %[[P]][%[[ROW]], %{{.*}}]
// CHECK: memref.subview %[[P]]
func.func @partial_sums_with_a_later_view(%x: memref<8x16x64xf32>, %y: memref<4x64xf32>) {
  %p = memref.alloc() : memref<8x64xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>],
                  iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x : memref<8x16x64xf32>) outs(%p : memref<8x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  }
  %half = memref.subview %p[0, 0] [4, 64] [1, 1] : memref<8x64xf32> to memref<4x64xf32, strided<[64, 1]>>
  memref.copy %half, %y : memref<4x64xf32, strided<[64, 1]>> to memref<4x64xf32>
  memref.dealloc %p : memref<8x64xf32>
  return
}

// -----

// A transpose in 16x16 squares: 16 rows of the input read whole, transposed
// in registers, and written as 16 rows of the output.
// CHECK-LABEL: func.func @transposed_squares
// CHECK-SAME: (%[[X:.*]]: memref<64x32xf32>, %[[Y:.*]]: memref<32x64xf32>)
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %c16
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %c16
// CHECK: %[[ROWS:.*]] = vector.transfer_read %[[X]][%[[J]], %[[I]]], %{{.*}} {in_bounds = [true, true]} : memref<64x32xf32>, vector<16x16xf32>
// CHECK: %[[T:.*]] = vector.transpose %[[ROWS]], [1, 0] : vector<16x16xf32> to vector<16x16xf32>
// CHECK: vector.transfer_write %[[T]], %[[Y]][%[[I]], %[[J]]] {in_bounds = [true, true]} : vector<16x16xf32>, memref<32x64xf32>
// CHECK-NOT: linalg.transpose
func.func @transposed_squares(%x: memref<64x32xf32>, %y: memref<32x64xf32>) {
  linalg.transpose ins(%x : memref<64x32xf32>) outs(%y : memref<32x64xf32>) permutation = [1, 0]
  return
}

// -----

// A depthwise 3x3 convolution: tiles of 8 output columns by 16 channels,
// each a 1-D depthwise convolution per filter row, vectorized into
// multiply-adds on the 8 accumulators, which stay in registers through the
// filter-row loop.
// CHECK-LABEL: func.func @depthwise
// CHECK-SAME: (%[[X:.*]]: memref<1x10x18x32xf32>, %[[W:.*]]: memref<3x3x32xf32>, %[[Y:.*]]: memref<1x8x16x32xf32>)
// CHECK: scf.for %[[H:.*]] = %{{.*}} to %{{.*}} step %c1
// CHECK: scf.for %[[C:.*]] = %{{.*}} to %{{.*}} step %c8
// CHECK: scf.for %[[CH:.*]] = %{{.*}} to %{{.*}} step %c16
// CHECK: %[[ACC:.*]] = vector.transfer_read %[[Y]][%c0, %[[H]], %[[C]], %[[CH]]]{{.*}} : memref<1x8x16x32xf32>, vector<8x16xf32>
// CHECK: %[[R:.*]] = scf.for %[[KH:.*]] = {{.*}} iter_args(%[[S:.*]] = %[[ACC]]) -> (vector<8x16xf32>) {
// CHECK: vector.transfer_read %[[X]]{{.*}} : memref<1x10x18x32xf32>, vector<10x16xf32>
// CHECK: vector.transfer_read %[[W]][%[[KH]], %c0, %[[CH]]]{{.*}} : memref<3x3x32xf32>, vector<3x16xf32>
// CHECK-COUNT-3: vector.fma {{.*}} : vector<8x16xf32>
// CHECK-NOT: vector.transfer_write
// CHECK: scf.yield
// CHECK: vector.transfer_write %[[R]], %[[Y]][%c0, %[[H]], %[[C]], %[[CH]]]
// CHECK-NOT: linalg.depthwise
func.func @depthwise(%x: memref<1x10x18x32xf32>, %w: memref<3x3x32xf32>, %y: memref<1x8x16x32xf32>) {
  linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : memref<1x10x18x32xf32>, memref<3x3x32xf32>) outs(%y : memref<1x8x16x32xf32>)
  return
}

// -----

// An im2col patch copy (what nx-convolutions-to-gemm makes): the input's
// rows are indexed by sums of loops, but each tile is one run of 16
// channels, read and written as one vector; the 3 channels of an RGB
// image are one 3-lane vector.
// CHECK-LABEL: func.func @patch_copy
// CHECK-SAME: (%[[X:.*]]: memref<1x10x10x32xf32>, %[[P:.*]]: memref<1x8x8x3x3x32xf32>, %[[RGB:.*]]: memref<1x10x10x3xf32>, %[[Q:.*]]: memref<1x8x8x3x3x3xf32>)
// CHECK: %[[SPAN:.*]] = vector.transfer_read %[[X]]{{.*}} {in_bounds = [true]} : memref<1x10x10x32xf32>, vector<16xf32>
// CHECK: vector.transfer_write %[[SPAN]], %[[P]]{{.*}} {in_bounds = [true]} : vector<16xf32>, memref<1x8x8x3x3x32xf32>
// CHECK: %[[PIXEL:.*]] = vector.transfer_read %[[RGB]]{{.*}} {in_bounds = [true]} : memref<1x10x10x3xf32>, vector<3xf32>
// CHECK: vector.transfer_write %[[PIXEL]], %[[Q]]{{.*}} {in_bounds = [true]} : vector<3xf32>, memref<1x8x8x3x3x3xf32>
// CHECK-NOT: linalg.generic
#window = affine_map<(n, oh, ow, kh, kw, c) -> (n, oh + kh, ow + kw, c)>
#patch = affine_map<(n, oh, ow, kh, kw, c) -> (n, oh, ow, kh, kw, c)>
func.func @patch_copy(%x: memref<1x10x10x32xf32>, %p: memref<1x8x8x3x3x32xf32>,
                      %rgb: memref<1x10x10x3xf32>, %q: memref<1x8x8x3x3x3xf32>) {
  linalg.generic {indexing_maps = [#window, #patch],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%x : memref<1x10x10x32xf32>) outs(%p : memref<1x8x8x3x3x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [#window, #patch],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%rgb : memref<1x10x10x3xf32>) outs(%q : memref<1x8x8x3x3x3xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  return
}

// -----

// A transpose of exactly one square next to other ops of the pass in the
// same function: only the square is rewritten by its own lowering, and the
// two depthwise convolutions (one of a single output row and filter row)
// each by theirs.
// CHECK-LABEL: func.func @neighbours
// CHECK: vector.transpose {{.*}} : vector<16x16xf32> to vector<16x16xf32>
// CHECK-COUNT-2: vector.fma
// CHECK-NOT: linalg.transpose
// CHECK-NOT: linalg.depthwise
func.func @neighbours(%x: memref<16x16xf32>, %y: memref<16x16xf32>,
                      %a: memref<1x1x10x16xf32>, %w: memref<1x3x16xf32>, %b: memref<1x1x8x16xf32>,
                      %c: memref<1x3x10x16xf32>, %v: memref<3x3x16xf32>, %d: memref<1x1x8x16xf32>) {
  linalg.transpose ins(%x : memref<16x16xf32>) outs(%y : memref<16x16xf32>) permutation = [1, 0]
  linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%a, %w : memref<1x1x10x16xf32>, memref<1x3x16xf32>) outs(%b : memref<1x1x8x16xf32>)
  linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%c, %v : memref<1x3x10x16xf32>, memref<3x3x16xf32>) outs(%d : memref<1x1x8x16xf32>)
  return
}

// -----

// Left for the loop lowering: a reduction along the innermost loop, a
// transpose whose extents are no multiple of the lanes, i1 elements (a byte
// each in memory) and ops on tensors.
// CHECK-LABEL: func.func @row_sums
// CHECK-NOT: vector.
// CHECK: linalg.generic
// CHECK-LABEL: func.func @transpose
// CHECK-NOT: vector.
// CHECK: linalg.transpose
// CHECK-LABEL: func.func @booleans
// CHECK-NOT: vector.
// CHECK: linalg.generic
// CHECK-LABEL: func.func @on_tensors
// CHECK-NOT: vector.
// CHECK: linalg.generic
func.func @row_sums(%x: memref<64x64xf32>, %y: memref<64xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<64x64xf32>) outs(%y : memref<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  }
  return
}

func.func @transpose(%x: memref<40x24xf32>, %y: memref<24x40xf32>) {
  linalg.transpose ins(%x : memref<40x24xf32>) outs(%y : memref<24x40xf32>) permutation = [1, 0]
  return
}

func.func @booleans(%x: memref<64xi1>, %y: memref<64xi1>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x : memref<64xi1>) outs(%y : memref<64xi1>) {
  ^bb0(%in: i1, %out: i1):
    %t = arith.constant true
    %n = arith.xori %in, %t : i1
    linalg.yield %n : i1
  }
  return
}

func.func @on_tensors(%x: tensor<64xf32>) -> tensor<64xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x : tensor<64xf32>) outs(%x : tensor<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %e = math.exp %in : f32
    linalg.yield %e : f32
  } -> tensor<64xf32>
  return %r : tensor<64xf32>
}

// -----

// A depthwise convolution of floats into integers stays a loop nest: the
// upstream vectorizer converts a convolution's operands itself and cannot
// turn floats into integers (it crashed, found by fuzzing).
// CHECK-LABEL: func.func @float_into_integer_depthwise
// CHECK-NOT: vector.
// CHECK: linalg.depthwise_conv_1d_nwc_wc
func.func @float_into_integer_depthwise(%x: memref<1x10x18x32xf32>, %w: memref<3x3x32xbf16>, %y: memref<1x8x16x32xi64>) {
  linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : memref<1x10x18x32xf32>, memref<3x3x32xbf16>) outs(%y : memref<1x8x16x32xi64>)
  return
}

// -----

// Nor can it narrow: f32 into an f16 result stays a loop nest too (it
// crashed, found by fuzzing), while widening f16 into f32 vectorizes.
// CHECK-LABEL: func.func @narrowing_depthwise
// CHECK-NOT: vector.
// CHECK: linalg.depthwise_conv_1d_nwc_wc
// CHECK-LABEL: func.func @widening_depthwise
// CHECK: arith.extf {{.*}} : vector<{{.*}}xf16> to vector<{{.*}}xf32>
// CHECK-NOT: linalg.depthwise_conv
func.func @narrowing_depthwise(%x: memref<1x10x18x32xf32>, %w: memref<3x3x32xf32>, %y: memref<1x8x16x32xf16>) {
  linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : memref<1x10x18x32xf32>, memref<3x3x32xf32>) outs(%y : memref<1x8x16x32xf16>)
  return
}
func.func @widening_depthwise(%x: memref<1x10x18x32xf16>, %w: memref<3x3x32xf16>, %y: memref<1x8x16x32xf32>) {
  linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : memref<1x10x18x32xf16>, memref<3x3x32xf16>) outs(%y : memref<1x8x16x32xf32>)
  return
}

// -----

// A pooling's window operand gives only its shape: an f32 window over f16
// data narrows nothing, and the pooling vectorizes.
// CHECK-LABEL: func.func @f16_pooling_with_f32_window
// CHECK: arith.maximumf {{.*}} : vector<{{.*}}xf16>
// CHECK-NOT: linalg.pooling
func.func @f16_pooling_with_f32_window(%x: memref<1x8x16x32xf16>, %w: memref<2x2xf32>, %y: memref<1x4x8x32xf16>) {
  linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %w : memref<1x8x16x32xf16>, memref<2x2xf32>) outs(%y : memref<1x4x8x32xf16>)
  return
}

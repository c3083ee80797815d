// RUN: nx-opt %s -split-input-file -nx-split-reductions=vector-bits=512 | FileCheck %s --enable-var-scope

// Row sums of 1024 f32: 16 lanes x 4 accumulators = 64 partial sums per row,
// innermost, then a 64-element reduction per row into the original output.
// CHECK-LABEL: func.func @row_sums
// CHECK-SAME: (%[[X:.*]]: tensor<8x1024xf32>, %[[INIT:.*]]: tensor<8xf32>)
// CHECK: %[[E:.*]] = tensor.expand_shape %[[X]] {{\[}}[0], [1, 2]] output_shape [8, 16, 64] : tensor<8x1024xf32> into tensor<8x16x64xf32>
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<8x64xf32>
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[FILL:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[EMPTY]] : tensor<8x64xf32>)
// CHECK: %[[PARTIAL:.*]] = linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "reduction", "parallel"]
// CHECK-SAME: ins(%[[E]] : tensor<8x16x64xf32>) outs(%[[FILL]] : tensor<8x64xf32>)
// CHECK: arith.addf
// CHECK: %[[R:.*]] = linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "reduction"]
// CHECK-SAME: ins(%[[PARTIAL]] : tensor<8x64xf32>) outs(%[[INIT]] : tensor<8xf32>)
// CHECK: return %[[R]]
func.func @row_sums(%x: tensor<8x1024xf32>, %init: tensor<8xf32>) -> tensor<8xf32> {
  %r = linalg.reduce ins(%x : tensor<8x1024xf32>) outs(%init : tensor<8xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<8xf32>
}

// -----

// A full maximum: the partial results start at the combiner's neutral
// element, -inf for maximumf.
// CHECK-LABEL: func.func @full_max
// CHECK: tensor.expand_shape {{.*}} output_shape [64, 64] : tensor<4096xf32> into tensor<64x64xf32>
// CHECK: %[[NEG_INF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: linalg.fill ins(%[[NEG_INF]] : f32) outs(%{{.*}} : tensor<64xf32>)
// CHECK: linalg.generic
// CHECK-SAME: iterator_types = ["reduction", "parallel"]
// CHECK: arith.maximumf
// CHECK: linalg.generic
// CHECK-SAME: iterator_types = ["reduction"]
// CHECK: arith.maximumf
func.func @full_max(%x: tensor<4096xf32>, %init: tensor<f32>) -> tensor<f32> {
  %r = linalg.reduce ins(%x : tensor<4096xf32>) outs(%init : tensor<f32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.maximumf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<f32>
}

// -----

// 48 f64 (8 lanes): 48 is no multiple of 4 x 8 but is of 8, and at least
// twice it, so one vector of partial results.
// CHECK-LABEL: func.func @one_vector
// CHECK: tensor.expand_shape {{.*}} output_shape [6, 8] : tensor<48xf64> into tensor<6x8xf64>
// CHECK: linalg.generic
// CHECK-SAME: outs(%{{.*}} : tensor<8xf64>)
func.func @one_vector(%x: tensor<48xf64>, %init: tensor<f64>) -> tensor<f64> {
  %r = linalg.reduce ins(%x : tensor<48xf64>) outs(%init : tensor<f64>) dimensions = [0]
    (%in: f64, %acc: f64) {
      %s = arith.addf %in, %acc : f64
      linalg.yield %s : f64
    }
  return %r : tensor<f64>
}

// -----

// A fused body: the elementwise part is split along with the combiner, and
// the lane count follows the widest operand (i8 input, i32 accumulator:
// 16 lanes).
// CHECK-LABEL: func.func @fused_widening
// CHECK: tensor.expand_shape {{.*}} output_shape [4, 16, 64] : tensor<4x1024xi8> into tensor<4x16x64xi8>
// CHECK: linalg.generic
// CHECK: arith.extsi
// CHECK: arith.addi
// CHECK: linalg.generic
// CHECK-SAME: ins(%{{.*}} : tensor<4x64xi32>)
func.func @fused_widening(%x: tensor<4x1024xi8>, %init: tensor<4xi32>) -> tensor<4xi32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x1024xi8>) outs(%init : tensor<4xi32>) {
  ^bb0(%in: i8, %acc: i32):
    %w = arith.extsi %in : i8 to i32
    %s = arith.addi %w, %acc : i32
    linalg.yield %s : i32
  } -> tensor<4xi32>
  return %r : tensor<4xi32>
}

// -----

// Dot products, one and a batch along rows: contractions without m and n
// dimensions, which nx-linalg-to-blas leaves, split as sums are.
// CHECK-LABEL: func.func @dot_products
//       CHECK:   tensor.expand_shape %{{.*}} {{\[}}[0, 1]] output_shape [16, 64] : tensor<1024xf32> into tensor<16x64xf32>
//       CHECK:   tensor.expand_shape %{{.*}} {{\[}}[0, 1]] output_shape [16, 64] : tensor<1024xf32> into tensor<16x64xf32>
//       CHECK:   linalg.generic
//  CHECK-SAME:     iterator_types = ["reduction", "parallel"]
//       CHECK:   linalg.generic
//  CHECK-SAME:     iterator_types = ["reduction"]
//       CHECK:   tensor.expand_shape %{{.*}} {{\[}}[0], [1, 2]] output_shape [8, 16, 64] : tensor<8x1024xf32> into tensor<8x16x64xf32>
//       CHECK:   linalg.generic
//  CHECK-SAME:     iterator_types = ["parallel", "reduction", "parallel"]
func.func @dot_products(%a: tensor<1024xf32>, %b: tensor<1024xf32>, %c: tensor<f32>,
                        %x: tensor<8x1024xf32>, %y: tensor<8x1024xf32>, %z: tensor<8xf32>) -> (tensor<f32>, tensor<8xf32>) {
  %d = linalg.dot ins(%a, %b : tensor<1024xf32>, tensor<1024xf32>) outs(%c : tensor<f32>) -> tensor<f32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (i)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x, %y : tensor<8x1024xf32>, tensor<8x1024xf32>) outs(%z : tensor<8xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %d, %r : tensor<f32>, tensor<8xf32>
}

// -----

// Left alone: too short to split (fewer than two vectors), not a multiple
// of the lane count, dynamic, a reduction that is not innermost, one read
// with a stride (transposed), linalg.index in the body, two reductions, a
// contraction with m and n dimensions (a matmul, for BLAS), and buffers.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: tensor.expand_shape
// CHECK-NOT: linalg.fill
// CHECK: return
func.func @left_alone(%short: tensor<16xf32>, %odd: tensor<100xf32>, %dyn: tensor<?xf32>,
                      %cols: tensor<1024x8xf32>, %rows: tensor<8x1024xf32>,
                      %cube: tensor<4x64x64xf32>, %a: tensor<8x1024xf32>,
                      %b: tensor<1024x8xf32>, %c: tensor<8x8xf32>,
                      %buf: memref<1024xf32>, %bufout: memref<f32>,
                      %s: tensor<f32>, %v8: tensor<8xf32>, %v4: tensor<4xf32>)
    -> (tensor<f32>, tensor<f32>, tensor<f32>, tensor<8xf32>, tensor<8xf32>,
        tensor<8xf32>, tensor<4xf32>, tensor<8x8xf32>) {
  %0 = linalg.reduce ins(%short : tensor<16xf32>) outs(%s : tensor<f32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %t = arith.addf %in, %acc : f32
      linalg.yield %t : f32
    }
  %1 = linalg.reduce ins(%odd : tensor<100xf32>) outs(%s : tensor<f32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %t = arith.addf %in, %acc : f32
      linalg.yield %t : f32
    }
  %2 = linalg.reduce ins(%dyn : tensor<?xf32>) outs(%s : tensor<f32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %t = arith.addf %in, %acc : f32
      linalg.yield %t : f32
    }
  %3 = linalg.reduce ins(%cols : tensor<1024x8xf32>) outs(%v8 : tensor<8xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %t = arith.addf %in, %acc : f32
      linalg.yield %t : f32
    }
  %4 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%cols : tensor<1024x8xf32>) outs(%v8 : tensor<8xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %t = arith.addf %in, %acc : f32
    linalg.yield %t : f32
  } -> tensor<8xf32>
  %5 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%rows : tensor<8x1024xf32>) outs(%v8 : tensor<8xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %i = linalg.index 1 : index
    %k = arith.index_cast %i : index to i32
    %f = arith.sitofp %k : i32 to f32
    %m = arith.mulf %in, %f : f32
    %t = arith.addf %m, %acc : f32
    linalg.yield %t : f32
  } -> tensor<8xf32>
  %6 = linalg.reduce ins(%cube : tensor<4x64x64xf32>) outs(%v4 : tensor<4xf32>) dimensions = [1, 2]
    (%in: f32, %acc: f32) {
      %t = arith.addf %in, %acc : f32
      linalg.yield %t : f32
    }
  %7 = linalg.matmul ins(%a, %b : tensor<8x1024xf32>, tensor<1024x8xf32>) outs(%c : tensor<8x8xf32>) -> tensor<8x8xf32>
  linalg.reduce ins(%buf : memref<1024xf32>) outs(%bufout : memref<f32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %t = arith.addf %in, %acc : f32
      linalg.yield %t : f32
    }
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<f32>, tensor<f32>, tensor<f32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<4xf32>, tensor<8x8xf32>
}

// -----

// Left alone: a dynamic number of rows, each of a static 256 elements.
// Upstream's split makes its partial results' tensor of static sizes only,
// which would not verify here (tensor.empty without the rows' size).
// CHECK-LABEL: func.func @dynamic_rows
// CHECK-NOT: tensor.expand_shape
// CHECK: linalg.reduce ins(%{{.*}} : tensor<?x256xf32>)
// CHECK-NOT: tensor.expand_shape
func.func @dynamic_rows(%x: tensor<?x256xf32>, %acc: tensor<?xf32>) -> tensor<?xf32> {
  %s = linalg.reduce ins(%x : tensor<?x256xf32>) outs(%acc : tensor<?xf32>) dimensions = [1]
    (%in: f32, %a: f32) {
      %t = arith.addf %in, %a : f32
      linalg.yield %t : f32
    }
  return %s : tensor<?xf32>
}

// -----

// A combiner with no neutral element known upstream (a subtraction) fails
// the split, which leaves the op as it was.
// CHECK-LABEL: func.func @no_neutral_element
// CHECK-NOT: tensor.expand_shape
// CHECK: linalg.reduce
// CHECK: arith.subf
func.func @no_neutral_element(%x: tensor<1024xf32>, %init: tensor<f32>) -> tensor<f32> {
  %r = linalg.reduce ins(%x : tensor<1024xf32>) outs(%init : tensor<f32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.subf %acc, %in : f32
      linalg.yield %s : f32
    }
  return %r : tensor<f32>
}

// -----

// Reductions along the outermost loop (column sums, large or small, static
// or dynamic) are nx-linalg-to-openmp's to share among workers, and a
// middle-axis reduction's outer parallel loop is shared as it is: this pass
// leaves them whole.
// CHECK-LABEL: func.func @outer_left_alone
// CHECK-NOT: tensor.expand_shape
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @outer_left_alone(%large: tensor<2048x512xf32>, %small: tensor<256x128xf32>,
                            %dyn: tensor<?x512xf32>, %middle: tensor<64x256x256xf32>,
                            %v128: tensor<128xf32>, %v512: tensor<512xf32>,
                            %m: tensor<64x256xf32>)
    -> (tensor<512xf32>, tensor<128xf32>, tensor<512xf32>, tensor<64x256xf32>) {
  %0 = linalg.reduce ins(%large : tensor<2048x512xf32>) outs(%v512 : tensor<512xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %t = arith.addf %in, %acc : f32
      linalg.yield %t : f32
    }
  %1 = linalg.reduce ins(%small : tensor<256x128xf32>) outs(%v128 : tensor<128xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %t = arith.addf %in, %acc : f32
      linalg.yield %t : f32
    }
  %2 = linalg.reduce ins(%dyn : tensor<?x512xf32>) outs(%v512 : tensor<512xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %t = arith.addf %in, %acc : f32
      linalg.yield %t : f32
    }
  %3 = linalg.reduce ins(%middle : tensor<64x256x256xf32>) outs(%m : tensor<64x256xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %t = arith.maximumf %in, %acc : f32
      linalg.yield %t : f32
    }
  return %0, %1, %2, %3 : tensor<512xf32>, tensor<128xf32>, tensor<512xf32>, tensor<64x256xf32>
}

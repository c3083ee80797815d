// RUN: nx-opt %s -split-input-file -nx-reversed-views | FileCheck %s --enable-var-scope
// RUN: nx-opt %s -split-input-file -nx-reversed-views -mlir-pass-statistics 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS

// Per split: the operands rewritten, and the generics whose loops now run
// backwards.
// STATS: 1 backward-loops
// STATS-NEXT: 1 reversed-views
// STATS: 1 backward-loops
// STATS-NEXT: 1 reversed-views
// STATS: 0 backward-loops
// STATS-NEXT: 1 reversed-views
// STATS: 0 backward-loops
// STATS-NEXT: 1 reversed-views
// STATS: 0 backward-loops
// STATS-NEXT: 1 reversed-views
// STATS: 0 backward-loops
// STATS-NEXT: 1 reversed-views
// STATS: 0 backward-loops
// STATS-NEXT: 0 reversed-views

#id = affine_map<(i, j) -> (i, j)>

// A flip of the last axis runs its column loop backwards, so that it reads
// its input in memory order, and writes a view of its output whose offset
// is the last column and whose column stride is -1, through identity maps.
// CHECK-DAG:   #[[$ID:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @flip_columns
// CHECK-SAME:      %[[X:[a-zA-Z0-9_]+]]: memref<64x32xf32>, %[[Y:[a-zA-Z0-9_]+]]: memref<64x32xf32>
// CHECK:         %[[BASE:.+]], %{{.+}}, %{{.+}}:2, %{{.+}}:2 = memref.extract_strided_metadata %[[Y]]
// CHECK:         %[[VIEW:.+]] = memref.reinterpret_cast %[[BASE]] to offset: [31], sizes: [64, 32], strides: [32, -1]
// CHECK:         linalg.generic {indexing_maps = [#[[$ID]], #[[$ID]]]
// CHECK-SAME:        ins(%[[X]] : memref<64x32xf32>) outs(%[[VIEW]] : memref<64x32xf32, strided<[32, -1], offset: 31>>)
func.func @flip_columns(%x: memref<64x32xf32>, %y: memref<64x32xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, 31 - j)>, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<64x32xf32>) outs(%y : memref<64x32xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  }
  return
}

// -----

#id = affine_map<(i, j) -> (i, j)>

// The body's index of a loop that now runs backwards counts down: 31 - j.
// A scalar operand indexes no loop.
// CHECK-LABEL: func.func @flip_columns_with_index
// CHECK:         linalg.generic
// CHECK:           %[[J:.+]] = linalg.index 1 : index
// CHECK:           %[[LAST:.+]] = arith.constant 31 : index
// CHECK:           %[[BACK:.+]] = arith.subi %[[LAST]], %[[J]] : index
// CHECK:           %[[N:.+]] = arith.index_cast %[[BACK]] : index to i32
// CHECK:           %[[F:.+]] = arith.sitofp %[[N]] : i32 to f32
// CHECK:           arith.addf %{{.+}}, %[[F]] : f32
func.func @flip_columns_with_index(%x: memref<64x32xf32>, %s: f32, %y: memref<64x32xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, 31 - j)>, affine_map<(i, j) -> ()>, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : memref<64x32xf32>, f32) outs(%y : memref<64x32xf32>) {
  ^bb0(%v: f32, %scale: f32, %o: f32):
    %j = linalg.index 1 : index
    %n = arith.index_cast %j : index to i32
    %f = arith.sitofp %n : i32 to f32
    %t = arith.addf %v, %f : f32
    %u = arith.mulf %t, %scale : f32
    linalg.yield %u : f32
  }
  return
}

// -----

#id = affine_map<(i, j) -> (i, j)>

// Both axes of a view with a dynamic offset (a subview): the offset moves
// by 63 rows and 30 columns of the source's strides, both strides negated,
// and the second dimension has the loop's 31 columns. A second input read
// in order is left as it is.
// CHECK:       #[[$PLUS:.+]] = affine_map<()[s0] -> (s0 + 4062)>
// CHECK-LABEL: func.func @flip_both_of_a_subview
// CHECK:         %[[SUB:.+]] = memref.cast
// CHECK:         %[[BASE:.+]], %[[OFF:.+]], %{{.+}}:2, %{{.+}}:2 = memref.extract_strided_metadata %[[SUB]]
// CHECK:         %[[AT:.+]] = affine.apply #[[$PLUS]]()[%[[OFF]]]
// CHECK:         %[[VIEW:.+]] = memref.reinterpret_cast %[[BASE]] to offset: [%[[AT]]], sizes: [64, 31], strides: [-64, -1]
// CHECK:         linalg.generic
// CHECK-SAME:        ins(%[[VIEW]], %{{.+}} : memref<64x31xf32, strided<[-64, -1], offset: ?>>, memref<64x31xf32>)
func.func @flip_both_of_a_subview(%x: memref<64x64xf32>, %z: memref<64x31xf32>, %y: memref<64x31xf32>) {
  %s = memref.subview %x[0, 1] [64, 32] [1, 1] : memref<64x64xf32> to memref<64x32xf32, strided<[64, 1], offset: 1>>
  %d = memref.cast %s : memref<64x32xf32, strided<[64, 1], offset: 1>> to memref<64x32xf32, strided<[64, 1], offset: ?>>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (63 - i, 30 - j)>, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%d, %z : memref<64x32xf32, strided<[64, 1], offset: ?>>, memref<64x31xf32>) outs(%y : memref<64x31xf32>) {
  ^bb0(%v: f32, %w: f32, %o: f32):
    %t = arith.addf %v, %w : f32
    linalg.yield %t : f32
  }
  return
}

// -----

#id = affine_map<(i, j) -> (i, j)>

// A reversal along a loop that a second index of the same input reads in
// order too: only the reversed dimension changes.
// CHECK-LABEL: func.func @reversed_and_in_order
// CHECK:         memref.reinterpret_cast %{{.+}} to offset: [15], sizes: [16, 16], strides: [16, -1]
// CHECK:         linalg.generic {indexing_maps = [#{{.+}}, #{{.+}}]
func.func @reversed_and_in_order(%x: memref<16x16xf32>, %y: memref<16xf32>) {
  linalg.generic {indexing_maps = [affine_map<(j) -> (j, 15 - j)>, affine_map<(j) -> (j)>], iterator_types = ["parallel"]}
      ins(%x : memref<16x16xf32>) outs(%y : memref<16xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  }
  return
}

// -----

#id = affine_map<(i, j) -> (i, j)>

// An output written at 7 - j, from an input read in order: the loop keeps
// its direction and the output is a view of negated column stride.
// CHECK-LABEL: func.func @reversed_output
// CHECK-SAME:      %[[X:[a-zA-Z0-9_]+]]: memref<8x8xf32>, %[[Y:[a-zA-Z0-9_]+]]: memref<8x8xf32>
// CHECK:         %[[BASE:.+]], %{{.+}}, %{{.+}}:2, %{{.+}}:2 = memref.extract_strided_metadata %[[Y]]
// CHECK:         %[[VIEW:.+]] = memref.reinterpret_cast %[[BASE]] to offset: [7], sizes: [8, 8], strides: [8, -1]
// CHECK:         ins(%[[X]] : memref<8x8xf32>) outs(%[[VIEW]]
func.func @reversed_output(%x: memref<8x8xf32>, %y: memref<8x8xf32>) {
  linalg.generic {indexing_maps = [#id, affine_map<(i, j) -> (i, 7 - j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<8x8xf32>) outs(%y : memref<8x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  }
  return
}

// -----

#id = affine_map<(i, j) -> (i, j)>

// A flip of the last 8 of 9 columns keeps its direction (its input's
// columns are not the loop's 8, which linalg would take as the loop's
// extent) and reads a view.
// CHECK-LABEL: func.func @flip_inner_columns
// CHECK:         %[[VIEW:.+]] = memref.reinterpret_cast %{{.+}} to offset: [8], sizes: [8, 8], strides: [9, -1]
// CHECK:         ins(%[[VIEW]] : memref<8x8xf32, strided<[9, -1], offset: 8>>)
func.func @flip_inner_columns(%x: memref<8x9xf32>, %y: memref<8x8xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, 8 - j)>, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<8x9xf32>) outs(%y : memref<8x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  }
  return
}

// -----

#id = affine_map<(i, j) -> (i, j)>

// Left alone: tensors, a dynamic extent, a product (a generic with a
// reduction loop, which nx-linalg-to-blas would hand to GEMM calls), and a
// generic of no loops. (The linalg verifier rejects an index past either
// end of a static dimension.)
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:     memref.reinterpret_cast
// CHECK:         return
func.func @left_alone(%t: tensor<8x8xf32>, %dyn: memref<8x?xf32>, %dynout: memref<8x?xf32>,
                      %x: memref<8x8xf32>, %y: memref<8x8xf32>) -> tensor<8x8xf32> {
  %e = tensor.empty() : tensor<8x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, 7 - j)>, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  } -> tensor<8x8xf32>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, 7 - j)>, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dyn : memref<8x?xf32>) outs(%dynout : memref<8x?xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (7 - k, j)>,
                                   affine_map<(i, j, k) -> (i, j)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %x : memref<8x8xf32>, memref<8x8xf32>) outs(%y : memref<8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  %scalar = memref.alloc() : memref<f32>
  linalg.generic {indexing_maps = [affine_map<() -> ()>], iterator_types = []}
      outs(%scalar : memref<f32>) {
  ^bb0(%o: f32):
    linalg.yield %o : f32
  }
  memref.dealloc %scalar : memref<f32>
  return %r : tensor<8x8xf32>
}

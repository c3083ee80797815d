// RUN: nx-opt %s -split-input-file -nx-tile-transposes="tile-size=32 outer-block-size=256" | FileCheck %s --enable-var-scope
// RUN: nx-opt %s -split-input-file -nx-tile-transposes | FileCheck %s --enable-var-scope --check-prefix=DEFAULT

// A transpose reads its input column by column: 32x32 blocks, each the
// same op on views of a block of either side. The blocks of 32 input rows
// come one after the other along those rows: the inner loop walks the
// input's columns.
// CHECK-LABEL: func.func @transpose
// CHECK-SAME: (%[[X:.*]]: memref<128x64xf32>, %[[Y:.*]]: memref<64x128xf32>)
// CHECK-DAG: %[[C32:.*]] = arith.constant 32 : index
// CHECK-DAG: %[[C128:.*]] = arith.constant 128 : index
// CHECK-DAG: %[[C64:.*]] = arith.constant 64 : index
// CHECK: scf.for %[[ROW:.*]] = %{{.*}} to %[[C128]] step %[[C32]]
// CHECK: scf.for %[[COL:.*]] = %{{.*}} to %[[C64]] step %[[C32]]
// CHECK: %[[IN:.*]] = memref.subview %[[X]][%[[ROW]], %[[COL]]] [32, 32] [1, 1]
// CHECK: %[[OUT:.*]] = memref.subview %[[Y]][%[[COL]], %[[ROW]]] [32, 32] [1, 1]
// CHECK: linalg.transpose ins(%[[IN]] : memref<32x32xf32, strided<[64, 1], offset: ?>>) outs(%[[OUT]] : memref<32x32xf32, strided<[128, 1], offset: ?>>) permutation = [1, 0]
func.func @transpose(%x: memref<128x64xf32>, %y: memref<64x128xf32>) {
  linalg.transpose ins(%x : memref<128x64xf32>) outs(%y : memref<64x128xf32>) permutation = [1, 0]
  return
}

// -----

// Longer sides: outer blocks of 256x256, whose pages stay in the TLB, each
// of 32x32 blocks, again along the input's rows.
// CHECK-LABEL: func.func @outer_blocks
// CHECK-SAME: (%[[X:.*]]: memref<1024x512xf32>, %[[Y:.*]]: memref<512x1024xf32>)
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %c256 {
// CHECK-NEXT: scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %c256{{.*}} {
// CHECK-NEXT: %[[IN:.*]] = memref.subview %[[X]][%[[J]], %[[I]]] [256, 256] [1, 1]
// CHECK-NEXT: %[[OUT:.*]] = memref.subview %[[Y]][%[[I]], %[[J]]] [256, 256] [1, 1]
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %c32 {
// CHECK-NEXT: scf.for %[[L:.*]] = %{{.*}} to %{{.*}} step %c32{{.*}} {
// CHECK-NEXT: %[[IN_BLOCK:.*]] = memref.subview %[[IN]][%[[K]], %[[L]]] [32, 32] [1, 1]
// CHECK-NEXT: %[[OUT_BLOCK:.*]] = memref.subview %[[OUT]][%[[L]], %[[K]]] [32, 32] [1, 1]
// CHECK-NEXT: linalg.transpose ins(%[[IN_BLOCK]] : memref<32x32xf32, strided<[512, 1], offset: ?>>) outs(%[[OUT_BLOCK]] : memref<32x32xf32, strided<[1024, 1], offset: ?>>)
// By default, outer blocks of 512: the 512 columns of the input stay whole,
// its 1024 rows make two.
// DEFAULT-LABEL: func.func @outer_blocks
// DEFAULT: scf.for %{{.*}} = %{{.*}} to %c1024 step %c512 {
// DEFAULT-NEXT: memref.subview %{{.*}}[%{{.*}}, 0] [512, 512] [1, 1]
func.func @outer_blocks(%x: memref<1024x512xf32>, %y: memref<512x1024xf32>) {
  linalg.transpose ins(%x : memref<1024x512xf32>) outs(%y : memref<512x1024xf32>) permutation = [1, 0]
  return
}

// -----

// A side that is no multiple of an outer block stays whole: its outer
// blocks would end in a partial one of dynamic size.
// CHECK-LABEL: func.func @partly_outer
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT: memref.subview %{{.*}}[0, %[[I]]] [320, 256] [1, 1]
// CHECK-NEXT: memref.subview %{{.*}}[%[[I]], 0] [256, 320] [1, 1]
// CHECK: scf.for
// CHECK: scf.for
// CHECK: linalg.transpose ins(%{{.*}} : memref<32x32xf32, strided<[768, 1], offset: ?>>)
func.func @partly_outer(%x: memref<320x768xf32>, %y: memref<768x320xf32>) {
  linalg.transpose ins(%x : memref<320x768xf32>) outs(%y : memref<768x320xf32>) permutation = [1, 0]
  return
}

// -----

// Batched: the batch loop is tiled by 1, the two transposed loops by 32,
// and an elementwise op on the way is carried along.
// CHECK-LABEL: func.func @batched_scaled
// CHECK: scf.for %{{.*}} step %c1
// CHECK: scf.for %{{.*}} step %c32
// CHECK: scf.for %{{.*}} step %c32
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : memref<1x32x32xf32, {{.*}}>) outs(%{{.*}} : memref<1x32x32xf32, {{.*}}>)
// CHECK: arith.mulf
func.func @batched_scaled(%x: memref<4x64x96xf32>, %y: memref<4x96x64xf32>) {
  %two = arith.constant 2.0 : f32
  linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, j, i)>, affine_map<(b, i, j) -> (b, i, j)>],
                  iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : memref<4x64x96xf32>) outs(%y : memref<4x96x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %two : f32
    linalg.yield %m : f32
  }
  return
}

// -----

// Left alone: a copy that reads as it writes, a permutation that keeps the
// innermost dimension in place, a reduction, a transpose smaller than a
// block, dynamic extents and ops on tensors.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: scf.for
// CHECK: linalg.copy
// CHECK: linalg.transpose {{.*}} permutation = [1, 0, 2]
// CHECK: linalg.reduce
// CHECK: linalg.transpose {{.*}} memref<16x64xf32>
// CHECK: linalg.transpose {{.*}} memref<?x?xf32>
// CHECK: linalg.transpose {{.*}} tensor<64x64xf32>
func.func @left_alone(%a: memref<64x64xf32>, %b: memref<64x64xf32>,
                      %c: memref<8x64x32xf32>, %d: memref<64x8x32xf32>,
                      %s: memref<64xf32>, %e: memref<64x16xf32>, %f: memref<16x64xf32>,
                      %g: memref<?x?xf32>, %h: memref<?x?xf32>,
                      %t: tensor<64x64xf32>) -> tensor<64x64xf32> {
  linalg.copy ins(%a : memref<64x64xf32>) outs(%b : memref<64x64xf32>)
  linalg.transpose ins(%c : memref<8x64x32xf32>) outs(%d : memref<64x8x32xf32>) permutation = [1, 0, 2]
  linalg.reduce ins(%a : memref<64x64xf32>) outs(%s : memref<64xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %sum = arith.addf %in, %acc : f32
      linalg.yield %sum : f32
    }
  linalg.transpose ins(%e : memref<64x16xf32>) outs(%f : memref<16x64xf32>) permutation = [1, 0]
  linalg.transpose ins(%g : memref<?x?xf32>) outs(%h : memref<?x?xf32>) permutation = [1, 0]
  %empty = tensor.empty() : tensor<64x64xf32>
  %r = linalg.transpose ins(%t : tensor<64x64xf32>) outs(%empty : tensor<64x64xf32>) permutation = [1, 0]
  return %r : tensor<64x64xf32>
}

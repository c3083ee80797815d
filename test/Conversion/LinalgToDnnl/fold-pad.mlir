// RUN: nx-opt %s -split-input-file -nx-linalg-to-dnnl -canonicalize | FileCheck %s --enable-var-scope

// A bufferized zero tensor.pad of rows and columns: the call reads the
// unpadded input (7x6) with 1 row and 2 columns of zeros before it, and the
// padded buffer, its fill and the copy go.
// CHECK-LABEL: func.func @padded
// CHECK-SAME: (%[[IN:.+]]: memref<1x7x6x4xf32>
// CHECK-DAG: %[[C1:.+]] = arith.constant 1 : i64
// CHECK-DAG: %[[C2:.+]] = arith.constant 2 : i64
// CHECK-DAG: %[[C6:.+]] = arith.constant 6 : i64
// CHECK-DAG: %[[C7:.+]] = arith.constant 7 : i64
// CHECK-NOT: memref.copy
// CHECK: memref.extract_aligned_pointer_as_index %[[IN]]
// CHECK: llvm.call @nxrt_conv2d_f32({{([^,]+, ){3}[^,]+}}, %[[C7]], %[[C6]], {{([^,]+, ){7}[^,]+}}, %[[C1]], %[[C2]],
// CHECK-NOT: memref.alloc() : memref<1x10x10x4xf32>
// CHECK-NOT: linalg.map
// CHECK-NOT: memref.copy
func.func @padded(%in: memref<1x7x6x4xf32>, %filter: memref<3x3x4x8xf32>, %out: memref<1x8x8x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %padded = memref.alloc() : memref<1x10x10x4xf32>
  linalg.map outs(%padded : memref<1x10x10x4xf32>)
    (%init: f32) {
      linalg.yield %zero : f32
    }
  %interior = memref.subview %padded[0, 1, 2, 0] [1, 7, 6, 4] [1, 1, 1, 1] : memref<1x10x10x4xf32> to memref<1x7x6x4xf32, strided<[400, 40, 4, 1], offset: 48>>
  memref.copy %in, %interior : memref<1x7x6x4xf32> to memref<1x7x6x4xf32, strided<[400, 40, 4, 1], offset: 48>>
  linalg.conv_2d_nhwc_hwcf ins(%padded, %filter : memref<1x10x10x4xf32>, memref<3x3x4x8xf32>) outs(%out : memref<1x8x8x8xf32>)
  memref.dealloc %padded : memref<1x10x10x4xf32>
  return
}

// -----

// The copied buffer is freed between the copy and the convolution (a
// bufferized program frees it after its last use, the copy): the dealloc
// moves after the call. An NCHW input pads dimensions 2 and 3; a fill of
// the output in between writes a buffer allocated after the copy.
// CHECK-LABEL: func.func @freed_before
// CHECK-SAME: (%[[IN:.+]]: memref<1x2x5x5xf32>
// CHECK: %[[SOURCE:.+]] = memref.alloc() : memref<1x2x5x5xf32>
// CHECK: memref.copy %[[IN]], %[[SOURCE]]
// CHECK-NOT: memref.dealloc %[[SOURCE]]
// CHECK: llvm.call @nxrt_conv2d_f32({{([^,]+, ){13}[^,]+}}, %[[C1:[^,]+]], %[[C1]], %{{.+}})
// CHECK-NEXT: memref.dealloc %[[SOURCE]]
func.func @freed_before(%in: memref<1x2x5x5xf32>, %filter: memref<3x2x3x3xf32>) -> memref<1x3x5x5xf32> {
  %zero = arith.constant 0.0 : f32
  %source = memref.alloc() : memref<1x2x5x5xf32>
  memref.copy %in, %source : memref<1x2x5x5xf32> to memref<1x2x5x5xf32>
  %padded = memref.alloc() : memref<1x2x7x7xf32>
  linalg.fill ins(%zero : f32) outs(%padded : memref<1x2x7x7xf32>)
  %interior = memref.subview %padded[0, 0, 1, 1] [1, 2, 5, 5] [1, 1, 1, 1] : memref<1x2x7x7xf32> to memref<1x2x5x5xf32, strided<[98, 49, 7, 1], offset: 8>>
  memref.copy %source, %interior : memref<1x2x5x5xf32> to memref<1x2x5x5xf32, strided<[98, 49, 7, 1], offset: 8>>
  memref.dealloc %source : memref<1x2x5x5xf32>
  %out = memref.alloc() : memref<1x3x5x5xf32>
  linalg.fill ins(%zero : f32) outs(%out : memref<1x3x5x5xf32>)
  linalg.conv_2d_nchw_fchw ins(%padded, %filter : memref<1x2x7x7xf32>, memref<3x2x3x3xf32>) outs(%out : memref<1x3x5x5xf32>)
  memref.dealloc %padded : memref<1x2x7x7xf32>
  return %out : memref<1x3x5x5xf32>
}

// -----

// Kept: padding of the channels, which the call cannot express.
// CHECK-LABEL: func.func @channel_padding
// CHECK: memref.copy
// CHECK: llvm.call @nxrt_conv2d_f32({{([^,]+, ){13}[^,]+}}, %[[C0:[^,]+]], %[[C0]], %{{.+}})
func.func @channel_padding(%in: memref<1x5x5x2xf32>, %filter: memref<3x3x4x2xf32>, %out: memref<1x3x3x2xf32>) {
  %zero = arith.constant 0.0 : f32
  %padded = memref.alloc() : memref<1x5x5x4xf32>
  linalg.fill ins(%zero : f32) outs(%padded : memref<1x5x5x4xf32>)
  %interior = memref.subview %padded[0, 0, 0, 1] [1, 5, 5, 2] [1, 1, 1, 1] : memref<1x5x5x4xf32> to memref<1x5x5x2xf32, strided<[100, 20, 4, 1], offset: 1>>
  memref.copy %in, %interior : memref<1x5x5x2xf32> to memref<1x5x5x2xf32, strided<[100, 20, 4, 1], offset: 1>>
  linalg.conv_2d_nhwc_hwcf ins(%padded, %filter : memref<1x5x5x4xf32>, memref<3x3x4x2xf32>) outs(%out : memref<1x3x3x2xf32>)
  return
}

// -----

// Kept: a source with gaps between its rows (oneDNN would run it on its
// reference kernel), a source written between the copy and the
// convolution, a fill of something other than +0.0, and a padded buffer
// read by something else too.
// CHECK-LABEL: func.func @kept
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : i64
// CHECK: memref.copy
// CHECK: llvm.call @nxrt_conv2d_f32({{([^,]+, ){13}[^,]+}}, %[[C0]], %[[C0]],
// CHECK: memref.copy
// CHECK: llvm.call @nxrt_conv2d_f32({{([^,]+, ){13}[^,]+}}, %[[C0]], %[[C0]],
// CHECK: memref.copy
// CHECK: llvm.call @nxrt_conv2d_f32({{([^,]+, ){13}[^,]+}}, %[[C0]], %[[C0]],
// CHECK: memref.copy
// CHECK: llvm.call @nxrt_conv2d_f32({{([^,]+, ){13}[^,]+}}, %[[C0]], %[[C0]],
func.func @kept(%strided: memref<1x3x3x2xf32, strided<[60, 20, 2, 1]>>, %in: memref<1x3x3x2xf32>,
                %filter: memref<3x3x2x2xf32>, %o1: memref<1x3x3x2xf32>, %o2: memref<1x3x3x2xf32>,
                %o3: memref<1x3x3x2xf32>, %o4: memref<1x3x3x2xf32>, %other: memref<1x5x5x2xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %p1 = memref.alloc() : memref<1x5x5x2xf32>
  linalg.fill ins(%zero : f32) outs(%p1 : memref<1x5x5x2xf32>)
  %i1 = memref.subview %p1[0, 1, 1, 0] [1, 3, 3, 2] [1, 1, 1, 1] : memref<1x5x5x2xf32> to memref<1x3x3x2xf32, strided<[50, 10, 2, 1], offset: 12>>
  memref.copy %strided, %i1 : memref<1x3x3x2xf32, strided<[60, 20, 2, 1]>> to memref<1x3x3x2xf32, strided<[50, 10, 2, 1], offset: 12>>
  linalg.conv_2d_nhwc_hwcf ins(%p1, %filter : memref<1x5x5x2xf32>, memref<3x3x2x2xf32>) outs(%o1 : memref<1x3x3x2xf32>)

  %p2 = memref.alloc() : memref<1x5x5x2xf32>
  linalg.fill ins(%zero : f32) outs(%p2 : memref<1x5x5x2xf32>)
  %i2 = memref.subview %p2[0, 1, 1, 0] [1, 3, 3, 2] [1, 1, 1, 1] : memref<1x5x5x2xf32> to memref<1x3x3x2xf32, strided<[50, 10, 2, 1], offset: 12>>
  memref.copy %in, %i2 : memref<1x3x3x2xf32> to memref<1x3x3x2xf32, strided<[50, 10, 2, 1], offset: 12>>
  linalg.fill ins(%one : f32) outs(%in : memref<1x3x3x2xf32>)
  linalg.conv_2d_nhwc_hwcf ins(%p2, %filter : memref<1x5x5x2xf32>, memref<3x3x2x2xf32>) outs(%o2 : memref<1x3x3x2xf32>)

  %p3 = memref.alloc() : memref<1x5x5x2xf32>
  linalg.fill ins(%one : f32) outs(%p3 : memref<1x5x5x2xf32>)
  %i3 = memref.subview %p3[0, 1, 1, 0] [1, 3, 3, 2] [1, 1, 1, 1] : memref<1x5x5x2xf32> to memref<1x3x3x2xf32, strided<[50, 10, 2, 1], offset: 12>>
  memref.copy %in, %i3 : memref<1x3x3x2xf32> to memref<1x3x3x2xf32, strided<[50, 10, 2, 1], offset: 12>>
  linalg.conv_2d_nhwc_hwcf ins(%p3, %filter : memref<1x5x5x2xf32>, memref<3x3x2x2xf32>) outs(%o3 : memref<1x3x3x2xf32>)

  %p4 = memref.alloc() : memref<1x5x5x2xf32>
  linalg.fill ins(%zero : f32) outs(%p4 : memref<1x5x5x2xf32>)
  %i4 = memref.subview %p4[0, 1, 1, 0] [1, 3, 3, 2] [1, 1, 1, 1] : memref<1x5x5x2xf32> to memref<1x3x3x2xf32, strided<[50, 10, 2, 1], offset: 12>>
  memref.copy %in, %i4 : memref<1x3x3x2xf32> to memref<1x3x3x2xf32, strided<[50, 10, 2, 1], offset: 12>>
  linalg.conv_2d_nhwc_hwcf ins(%p4, %filter : memref<1x5x5x2xf32>, memref<3x3x2x2xf32>) outs(%o4 : memref<1x3x3x2xf32>)
  memref.copy %p4, %other : memref<1x5x5x2xf32> to memref<1x5x5x2xf32>
  return
}

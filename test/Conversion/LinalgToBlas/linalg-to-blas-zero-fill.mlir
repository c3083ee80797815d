// RUN: nx-opt %s -split-input-file -nx-linalg-to-blas -mlir-pass-statistics -mlir-pass-statistics-display=list 2>%t.stats | FileCheck %s --enable-var-scope
// RUN: FileCheck %s --check-prefix=STATS < %t.stats

// A product right after a fill of zero of exactly its output takes the fill
// over: the fill is gone and the call's last argument, accumulate, is 0.
// STATS: (S) 1 overwrites
// STATS: (S) 1 overwrites
// STATS: (S) 0 overwrites
// CHECK-LABEL: func.func @zero_fill
// CHECK: %[[ZERO:.+]] = arith.constant 0 : i64
// CHECK-NOT: linalg.fill
// CHECK: llvm.call @nxrt_gemm_f32(%{{.+}}, %[[ZERO]])
func.func @zero_fill(%a: memref<64x32xf32>, %b: memref<32x16xf32>, %c: memref<64x16xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<64x16xf32>)
  linalg.matmul ins(%a, %b : memref<64x32xf32>, memref<32x16xf32>) outs(%c : memref<64x16xf32>)
  return
}

// -----

// A zero of either sign: -0 + x is x for every x.
// CHECK-LABEL: func.func @negative_zero_fill_f64
// CHECK: %[[ZERO:.+]] = arith.constant 0 : i64
// CHECK-NOT: linalg.fill
// CHECK: llvm.call @nxrt_gemm_f64(%{{.+}}, %[[ZERO]])
func.func @negative_zero_fill_f64(%a: memref<5x4x3xf64>, %b: memref<5x3x2xf64>, %c: memref<5x4x2xf64>) {
  %zero = arith.constant -0.0 : f64
  linalg.fill ins(%zero : f64) outs(%c : memref<5x4x2xf64>)
  linalg.batch_matmul ins(%a, %b : memref<5x4x3xf64>, memref<5x3x2xf64>) outs(%c : memref<5x4x2xf64>)
  return
}

// -----

// The product adds to C (accumulate 1) and the fill stays when the fill is
// of another value, when an op comes between them, and when an input is a
// view of the filled buffer (the fill's zeros are then read).
// CHECK-LABEL: func.func @fill_kept
// CHECK-SAME: (%{{[^:]+}}: memref<4x4xf32>, %{{[^:]+}}: memref<4x4xf32>, %[[C1:[^:]+]]: memref<4x4xf32>, %[[C2:[^:]+]]: memref<4x4xf32>,
// CHECK: linalg.fill ins(%{{.+}} : f32) outs(%[[C1]] :
// CHECK: %[[ONE1:.+]] = arith.constant 1 : i64
// CHECK: llvm.call @nxrt_gemm_f32(%{{.+}}, %[[ONE1]])
// CHECK: linalg.fill ins(%{{.+}} : f32) outs(%[[C2]] :
// CHECK-NEXT: memref.store
// CHECK: %[[ONE2:.+]] = arith.constant 1 : i64
// CHECK: llvm.call @nxrt_gemm_f32(%{{.+}}, %[[ONE2]])
// CHECK: linalg.fill
// CHECK: %[[ONE3:.+]] = arith.constant 1 : i64
// CHECK: llvm.call @nxrt_gemm_f32(%{{.+}}, %[[ONE3]])
func.func @fill_kept(%a: memref<4x4xf32>, %b: memref<4x4xf32>, %c1: memref<4x4xf32>, %c2: memref<4x4xf32>, %big: memref<8x4xf32>) {
  %one = arith.constant 1.0 : f32
  %zero = arith.constant 0.0 : f32
  %i = arith.constant 0 : index
  linalg.fill ins(%one : f32) outs(%c1 : memref<4x4xf32>)
  linalg.matmul ins(%a, %b : memref<4x4xf32>, memref<4x4xf32>) outs(%c1 : memref<4x4xf32>)
  linalg.fill ins(%zero : f32) outs(%c2 : memref<4x4xf32>)
  memref.store %one, %c2[%i, %i] : memref<4x4xf32>
  linalg.matmul ins(%a, %b : memref<4x4xf32>, memref<4x4xf32>) outs(%c2 : memref<4x4xf32>)
  %top = memref.subview %big[0, 0] [4, 4] [1, 1] : memref<8x4xf32> to memref<4x4xf32, strided<[4, 1]>>
  %bottom = memref.subview %big[4, 0] [4, 4] [1, 1] : memref<8x4xf32> to memref<4x4xf32, strided<[4, 1], offset: 16>>
  linalg.fill ins(%zero : f32) outs(%bottom : memref<4x4xf32, strided<[4, 1], offset: 16>>)
  linalg.matmul ins(%top, %b : memref<4x4xf32, strided<[4, 1]>>, memref<4x4xf32>) outs(%bottom : memref<4x4xf32, strided<[4, 1], offset: 16>>)
  return
}

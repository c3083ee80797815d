// RUN: nx-opt %s -split-input-file -nx-linalg-to-blas -mlir-pass-statistics -mlir-pass-statistics-display=list 2>%t.stats | FileCheck %s --enable-var-scope
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
// RUN: nx-opt %s -split-input-file -nx-linalg-to-blas='num-threads-function=threads min-work=1' | FileCheck %s --check-prefix=SHARED

// An f32 product followed by `+ bias[column]` and a ReLU over its output,
// in place, hands both to nxrt_gemm_part_epilogue_f32: part 0 of 1, then
// the bias's address and stride and relu = 1. The elementwise op is gone.
// STATS: (S) 1 fused-epilogues
// STATS: (S) 1 fused-epilogues
// STATS: (S) 1 fused-epilogues
// STATS: (S) 1 fused-epilogues
// STATS: (S) 0 fused-epilogues
// CHECK-LABEL: func.func @dense_layer
// CHECK-SAME: %[[BIAS:[^:]+]]: memref<16xf32>
// CHECK-NOT: linalg.fill
// CHECK: %[[ZERO:.+]] = arith.constant 0 : i64
// CHECK: %[[ONE:.+]] = arith.constant 1 : i64
// CHECK: %{{.+}}, %{{.+}}, %{{.+}}, %[[BIAS_STRIDES:.+]] = memref.extract_strided_metadata %[[BIAS]]
// CHECK: %[[BIAS_PTR:.+]] = llvm.inttoptr
// CHECK: %[[BIAS_STRIDE:.+]] = arith.index_cast %[[BIAS_STRIDES]] : index to i64
// CHECK: llvm.call @nxrt_gemm_part_epilogue_f32(%[[ZERO]], %[[ONE]], %{{.+}}, %[[ZERO]], %[[BIAS_PTR]], %[[BIAS_STRIDE]], %[[ONE]])
// CHECK-NOT: linalg.generic
// CHECK: return
// SHARED-LABEL: func.func @dense_layer
// SHARED: omp.parallel
// SHARED: llvm.call @nxrt_gemm_part_epilogue_f32(
// SHARED-NOT: linalg.generic
// SHARED: return
func.func @dense_layer(%a: memref<64x32xf32>, %b: memref<32x16xf32>,
                       %bias: memref<16xf32>, %c: memref<64x16xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<64x16xf32>)
  linalg.matmul ins(%a, %b : memref<64x32xf32>, memref<32x16xf32>) outs(%c : memref<64x16xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias : memref<64x16xf32>, memref<16xf32>) outs(%c : memref<64x16xf32>) {
  ^bb0(%x: f32, %y: f32, %out: f32):
    %s = arith.addf %y, %x : f32
    %r = arith.maximumf %zero, %s : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// A ReLU alone passes a null bias; a deallocation of another buffer may
// come between the product and it, as bufferized code frees inputs.
// CHECK-LABEL: func.func @relu_only
// CHECK: %[[ZERO:.+]] = arith.constant 0 : i64
// CHECK: %[[ONE:.+]] = arith.constant 1 : i64
// CHECK: %[[NULL:.+]] = llvm.mlir.zero : !llvm.ptr
// CHECK: llvm.call @nxrt_gemm_part_epilogue_f32(%{{.+}}, %[[ONE]], %[[NULL]], %[[ZERO]], %[[ONE]])
// CHECK-NOT: linalg.generic
// CHECK: memref.dealloc
func.func @relu_only(%b: memref<8x8xf32>, %c: memref<8x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %a = memref.alloc() : memref<8x8xf32>
  linalg.matmul ins(%a, %b : memref<8x8xf32>, memref<8x8xf32>) outs(%c : memref<8x8xf32>)
  memref.dealloc %a : memref<8x8xf32>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<8x8xf32>) outs(%c : memref<8x8xf32>) {
  ^bb0(%x: f32, %out: f32):
    %r = arith.maximumf %x, %zero : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// A bias alone, after a product that adds to C (no zero fill): relu = 0,
// accumulate = 1. The bias is a column of a matrix, with a stride.
// CHECK-LABEL: func.func @bias_only
// CHECK: %[[ZERO:.+]] = arith.constant 0 : i64
// CHECK: %[[ONE:.+]] = arith.constant 1 : i64
// CHECK: llvm.call @nxrt_gemm_part_epilogue_f32(%{{.+}}, %[[ONE]], %{{.+}}, %{{.+}}, %[[ZERO]])
// CHECK-NOT: linalg.generic
func.func @bias_only(%a: memref<4x3xf32>, %b: memref<3x5xf32>, %c: memref<4x5xf32>,
                     %table: memref<5x2xf32>) {
  %bias = memref.subview %table[0, 1] [5, 1] [1, 1] : memref<5x2xf32> to memref<5xf32, strided<[2], offset: 1>>
  linalg.matmul ins(%a, %b : memref<4x3xf32>, memref<3x5xf32>) outs(%c : memref<4x5xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias : memref<4x5xf32>, memref<5xf32, strided<[2], offset: 1>>) outs(%c : memref<4x5xf32>) {
  ^bb0(%x: f32, %y: f32, %out: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A batched product's bias runs along C's last dimension, its columns.
// CHECK-LABEL: func.func @batched
// CHECK: llvm.call @nxrt_gemm_part_epilogue_f32(
// CHECK-NOT: linalg.generic
func.func @batched(%a: memref<2x4x3xf32>, %b: memref<2x3x5xf32>, %bias: memref<5xf32>,
                   %c: memref<2x4x5xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.batch_matmul ins(%a, %b : memref<2x4x3xf32>, memref<2x3x5xf32>) outs(%c : memref<2x4x5xf32>)
  linalg.generic {indexing_maps = [affine_map<(n, i, j) -> (n, i, j)>, affine_map<(n, i, j) -> (j)>, affine_map<(n, i, j) -> (n, i, j)>],
                  iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%c, %bias : memref<2x4x5xf32>, memref<5xf32>) outs(%c : memref<2x4x5xf32>) {
  ^bb0(%x: f32, %y: f32, %out: f32):
    %s = arith.addf %x, %y : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// Left as they are, each product a plain nxrt_gemm call: a bias along the
// rows, a body that does more (a scale), an epilogue into another buffer,
// a maximum with something other than +0.0, a bias defined after the
// product, an f64 product, and a product of bf16 into f32 (the epilogue's
// entry takes f32 operands).
// CHECK-LABEL: func.func @kept
// CHECK-NOT: nxrt_gemm_part_epilogue_f32
// CHECK-COUNT-6: linalg.generic
// CHECK-NOT: nxrt_gemm_part_epilogue_f32
// CHECK: llvm.call @nxrt_gemm_bf16_f32(
// CHECK-NOT: nxrt_gemm_part_epilogue_f32
// CHECK: linalg.generic
// CHECK-NOT: nxrt_gemm_part_epilogue_f32
// CHECK: return
func.func @kept(%a: memref<4x4xf32>, %b: memref<4x4xf32>, %bias: memref<4xf32>,
                %c: memref<4x4xf32>, %d: memref<4x4xf32>,
                %a64: memref<4x4xf64>, %b64: memref<4x4xf64>, %bias64: memref<4xf64>,
                %c64: memref<4x4xf64>, %a16: memref<4x4xbf16>,
                %b16: memref<4x4xbf16>) {
  %zero = arith.constant 0.0 : f32
  %negzero = arith.constant -0.0 : f32
  %two = arith.constant 2.0 : f32
  linalg.matmul ins(%a, %b : memref<4x4xf32>, memref<4x4xf32>) outs(%c : memref<4x4xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias : memref<4x4xf32>, memref<4xf32>) outs(%c : memref<4x4xf32>) {
  ^bb0(%x: f32, %y: f32, %out: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  linalg.matmul ins(%a, %b : memref<4x4xf32>, memref<4x4xf32>) outs(%c : memref<4x4xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<4x4xf32>) outs(%c : memref<4x4xf32>) {
  ^bb0(%x: f32, %out: f32):
    %s = arith.mulf %x, %two : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  }
  linalg.matmul ins(%a, %b : memref<4x4xf32>, memref<4x4xf32>) outs(%c : memref<4x4xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<4x4xf32>) outs(%d : memref<4x4xf32>) {
  ^bb0(%x: f32, %out: f32):
    %r = arith.maximumf %x, %zero : f32
    linalg.yield %r : f32
  }
  linalg.matmul ins(%a, %b : memref<4x4xf32>, memref<4x4xf32>) outs(%c : memref<4x4xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<4x4xf32>) outs(%c : memref<4x4xf32>) {
  ^bb0(%x: f32, %out: f32):
    %r = arith.maximumf %x, %negzero : f32
    linalg.yield %r : f32
  }
  linalg.matmul ins(%a, %b : memref<4x4xf32>, memref<4x4xf32>) outs(%c : memref<4x4xf32>)
  %late = memref.alloc() : memref<4xf32>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%c, %late : memref<4x4xf32>, memref<4xf32>) outs(%c : memref<4x4xf32>) {
  ^bb0(%x: f32, %y: f32, %out: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  linalg.matmul ins(%a64, %b64 : memref<4x4xf64>, memref<4x4xf64>) outs(%c64 : memref<4x4xf64>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%c64, %bias64 : memref<4x4xf64>, memref<4xf64>) outs(%c64 : memref<4x4xf64>) {
  ^bb0(%x: f64, %y: f64, %out: f64):
    %s = arith.addf %x, %y : f64
    linalg.yield %s : f64
  }
  linalg.matmul ins(%a16, %b16 : memref<4x4xbf16>, memref<4x4xbf16>) outs(%c : memref<4x4xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias : memref<4x4xf32>, memref<4xf32>) outs(%c : memref<4x4xf32>) {
  ^bb0(%x: f32, %y: f32, %out: f32):
    %s = arith.addf %x, %y : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  }
  return
}

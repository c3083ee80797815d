// RUN: nx-opt %s -split-input-file -convert-linalg-to-blas | FileCheck %s --enable-var-scope

// A matmul becomes one nxrt_gemm_f32 call: batch 1; m and k from A's sizes
// and n from B's; each operand's address (aligned pointer + offset * 4
// bytes) with batch stride 0 and its row and column strides.
// CHECK: llvm.func @nxrt_gemm_f32(i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64)
// CHECK-LABEL: func.func @matmul
// CHECK-SAME: (%[[A:.+]]: memref<64x32xf32>, %[[B:.+]]: memref<32x16xf32>, %[[C:.+]]: memref<64x16xf32>)
// CHECK: %[[ZERO:.+]] = arith.constant 0 : i64
// CHECK: %[[ONE:.+]] = arith.constant 1 : i64
// CHECK: %[[FOUR:.+]] = arith.constant 4 : i64
// CHECK: %[[BASE_A:.+]], %[[OFFSET_A:.+]], %[[SIZES_A:.+]]:2, %[[STRIDES_A:.+]]:2 = memref.extract_strided_metadata %[[A]]
// CHECK: %[[ALIGNED_A:.+]] = memref.extract_aligned_pointer_as_index %[[A]]
// CHECK: %[[ALIGNED_A64:.+]] = arith.index_cast %[[ALIGNED_A]] : index to i64
// CHECK: %[[OFFSET_A64:.+]] = arith.index_cast %[[OFFSET_A]] : index to i64
// CHECK: %[[BYTES_A:.+]] = arith.muli %[[OFFSET_A64]], %[[FOUR]] : i64
// CHECK: %[[ADDRESS_A:.+]] = arith.addi %[[ALIGNED_A64]], %[[BYTES_A]] : i64
// CHECK: %[[PA:.+]] = llvm.inttoptr %[[ADDRESS_A]] : i64 to !llvm.ptr
// CHECK: %[[LDA:.+]] = arith.index_cast %[[STRIDES_A]]#0 : index to i64
// CHECK: %[[UNIT_A:.+]] = arith.index_cast %[[STRIDES_A]]#1 : index to i64
// CHECK: %[[M:.+]] = arith.index_cast %[[SIZES_A]]#0 : index to i64
// CHECK: %[[K:.+]] = arith.index_cast %[[SIZES_A]]#1 : index to i64
// CHECK: %{{.+}}, %{{.+}}, %[[SIZES_B:.+]]:2, %{{.+}}:2 = memref.extract_strided_metadata %[[B]]
// CHECK: %[[PB:.+]] = llvm.inttoptr
// CHECK: %[[N:.+]] = arith.index_cast %[[SIZES_B]]#1 : index to i64
// CHECK: memref.extract_strided_metadata %[[C]]
// CHECK: %[[PC:.+]] = llvm.inttoptr
// CHECK: llvm.call @nxrt_gemm_f32(%[[ONE]], %[[M]], %[[N]], %[[K]], %[[PA]], %[[ZERO]], %[[LDA]], %[[UNIT_A]], %[[PB]], %[[ZERO]], %{{.+}}, %{{.+}}, %[[PC]], %[[ZERO]], %{{.+}}, %{{.+}})
// CHECK-NOT: linalg.matmul
func.func @matmul(%a: memref<64x32xf32>, %b: memref<32x16xf32>, %c: memref<64x16xf32>) {
  linalg.matmul ins(%a, %b : memref<64x32xf32>, memref<32x16xf32>) outs(%c : memref<64x16xf32>)
  return
}

// -----

// Strided views keep their layout: the runtime reads their strides.
// CHECK-LABEL: func.func @strided_f64
// CHECK: llvm.call @nxrt_gemm_f64(
// CHECK-NOT: linalg.matmul
func.func @strided_f64(%a: memref<4x3xf64, strided<[1, 4]>>, %b: memref<3x2xf64, strided<[?, 1], offset: ?>>, %c: memref<4x2xf64>) {
  linalg.matmul ins(%a, %b : memref<4x3xf64, strided<[1, 4]>>, memref<3x2xf64, strided<[?, 1], offset: ?>>) outs(%c : memref<4x2xf64>)
  return
}

// -----

// A batch_matmul passes the batch size and the batch strides.
// CHECK-LABEL: func.func @batch_matmul
// CHECK-SAME: (%[[A:.+]]: memref<5x4x3xf32>
// CHECK: %{{.+}}, %{{.+}}, %[[SIZES_A:.+]]:3, %[[STRIDES_A:.+]]:3 = memref.extract_strided_metadata %[[A]]
// CHECK: %[[BATCH_STRIDE_A:.+]] = arith.index_cast %[[STRIDES_A]]#0 : index to i64
// CHECK: %[[BATCH:.+]] = arith.index_cast %[[SIZES_A]]#0 : index to i64
// CHECK: llvm.call @nxrt_gemm_f32(%[[BATCH]], %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %[[BATCH_STRIDE_A]],
// CHECK-NOT: linalg.batch_matmul
func.func @batch_matmul(%a: memref<5x4x3xf32>, %b: memref<5x3x2xf32>, %c: memref<5x4x2xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<5x4x3xf32>, memref<5x3x2xf32>) outs(%c : memref<5x4x2xf32>)
  return
}

// -----

// A matvec is a product with one column: n = 1, and the vectors' strides
// are their row strides.
// CHECK-LABEL: func.func @matvec
// CHECK-SAME: (%[[A:.+]]: memref<4x3xf32>, %[[X:.+]]: memref<3xf32>, %[[Y:.+]]: memref<4xf32>)
// CHECK: %[[ONE:.+]] = arith.constant 1 : i64
// CHECK: memref.extract_strided_metadata %[[X]]
// CHECK: memref.extract_strided_metadata %[[Y]]
// CHECK: llvm.call @nxrt_gemm_f32(%[[ONE]], %{{.+}}, %[[ONE]],
// CHECK-NOT: linalg.matvec
func.func @matvec(%a: memref<4x3xf32>, %x: memref<3xf32>, %y: memref<4xf32>) {
  linalg.matvec ins(%a, %x : memref<4x3xf32>, memref<3xf32>) outs(%y : memref<4xf32>)
  return
}

// -----

// Left alone: integers, mixed element types, tensors, transposing maps.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: llvm.call
// CHECK: linalg.matmul ins(%{{.+}}, %{{.+}} : memref<4x3xi32>, memref<3x2xi32>)
// CHECK: linalg.matmul ins(%{{.+}}, %{{.+}} : memref<4x3xf16>, memref<3x2xf16>) outs(%{{.+}} : memref<4x2xf32>)
// CHECK: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<4x3xf32>, tensor<3x2xf32>)
// CHECK: linalg.matmul indexing_maps
// CHECK-NOT: llvm.call
func.func @left_alone(%ai: memref<4x3xi32>, %bi: memref<3x2xi32>, %ci: memref<4x2xi32>,
                      %ah: memref<4x3xf16>, %bh: memref<3x2xf16>, %c: memref<4x2xf32>,
                      %at: tensor<4x3xf32>, %bt: tensor<3x2xf32>, %ct: tensor<4x2xf32>,
                      %atr: memref<3x4xf32>, %b: memref<3x2xf32>) -> tensor<4x2xf32> {
  linalg.matmul ins(%ai, %bi : memref<4x3xi32>, memref<3x2xi32>) outs(%ci : memref<4x2xi32>)
  linalg.matmul ins(%ah, %bh : memref<4x3xf16>, memref<3x2xf16>) outs(%c : memref<4x2xf32>)
  %r = linalg.matmul ins(%at, %bt : tensor<4x3xf32>, tensor<3x2xf32>) outs(%ct : tensor<4x2xf32>) -> tensor<4x2xf32>
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%atr, %b : memref<3x4xf32>, memref<3x2xf32>) outs(%c : memref<4x2xf32>)
  return %r : tensor<4x2xf32>
}

// RUN: nx-opt %s -split-input-file -nx-linalg-to-blas | FileCheck %s --enable-var-scope

// A matmul becomes one nxrt_gemm_f32 call: batch 1; m and k from A's sizes
// and n from B's; each operand's address (aligned pointer + offset * 4
// bytes) with batch stride 0 and its row and column strides; accumulate 1,
// since C holds what the caller put there.
// CHECK: llvm.func @nxrt_gemm_f32(i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64)
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
// CHECK: llvm.call @nxrt_gemm_f32(%[[ONE]], %[[M]], %[[N]], %[[K]], %[[PA]], %[[ZERO]], %[[LDA]], %[[UNIT_A]], %[[PB]], %[[ZERO]], %{{.+}}, %{{.+}}, %[[PC]], %[[ZERO]], %{{.+}}, %{{.+}}, %[[ONE]])
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

// An operand read transposed passes its strides swapped: A is stored k x m,
// so its row (m) stride is its second stride and its column (k) stride its
// first; m comes from A's second size.
// CHECK-LABEL: func.func @transposed_a
// CHECK-SAME: (%[[A:.+]]: memref<3x4xf32>
// CHECK: %{{.+}}, %{{.+}}, %[[SIZES_A:.+]]:2, %[[STRIDES_A:.+]]:2 = memref.extract_strided_metadata %[[A]]
// CHECK: %[[PA:.+]] = llvm.inttoptr
// CHECK: %[[S0:.+]] = arith.index_cast %[[STRIDES_A]]#0 : index to i64
// CHECK: %[[S1:.+]] = arith.index_cast %[[STRIDES_A]]#1 : index to i64
// CHECK: %[[K:.+]] = arith.index_cast %[[SIZES_A]]#0 : index to i64
// CHECK: %[[M:.+]] = arith.index_cast %[[SIZES_A]]#1 : index to i64
// CHECK: llvm.call @nxrt_gemm_f32(%{{.+}}, %[[M]], %{{.+}}, %[[K]], %[[PA]], %{{.+}}, %[[S1]], %[[S0]],
// CHECK-NOT: linalg.matmul
func.func @transposed_a(%a: memref<3x4xf32>, %b: memref<3x2xf32>, %c: memref<4x2xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : memref<3x4xf32>, memref<3x2xf32>) outs(%c : memref<4x2xf32>)
  return
}

// -----

// Attention's scores, q k^T: a batch_matmul whose B is stored n x k. B's row
// (k) stride is its last stride, its column (n) stride the one before.
// CHECK-LABEL: func.func @batch_matmul_transposed_b
// CHECK-SAME: (%{{.+}}: memref<16x128x64xf32>, %[[B:.+]]: memref<16x96x64xf32>
// CHECK: %{{.+}}, %{{.+}}, %[[SIZES_B:.+]]:3, %[[STRIDES_B:.+]]:3 = memref.extract_strided_metadata %[[B]]
// CHECK: %[[PB:.+]] = llvm.inttoptr
// CHECK: %[[SB0:.+]] = arith.index_cast %[[STRIDES_B]]#0 : index to i64
// CHECK: %[[SB1:.+]] = arith.index_cast %[[STRIDES_B]]#1 : index to i64
// CHECK: %[[SB2:.+]] = arith.index_cast %[[STRIDES_B]]#2 : index to i64
// CHECK: %{{.+}} = arith.index_cast %[[SIZES_B]]#0 : index to i64
// CHECK: %[[N:.+]] = arith.index_cast %[[SIZES_B]]#1 : index to i64
// CHECK: llvm.call @nxrt_gemm_f32(%{{.+}}, %{{.+}}, %[[N]], %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %[[PB]], %[[SB0]], %[[SB2]], %[[SB1]],
// CHECK-NOT: linalg.batch_matmul
func.func @batch_matmul_transposed_b(%q: memref<16x128x64xf32>, %k: memref<16x96x64xf32>, %s: memref<16x128x96xf32>) {
  linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%q, %k : memref<16x128x64xf32>, memref<16x96x64xf32>) outs(%s : memref<16x128x96xf32>)
  return
}

// -----

// A linalg.generic that multiplies and adds over one dimension is a
// contraction too, whatever order its loops come in: here (n, k, m).
// CHECK-LABEL: func.func @generic_contraction
// CHECK: llvm.call @nxrt_gemm_f64(
// CHECK-NOT: linalg.generic
func.func @generic_contraction(%a: memref<4x3xf64>, %b: memref<3x2xf64>, %c: memref<4x2xf64>) {
  linalg.generic {indexing_maps = [affine_map<(n, k, m) -> (m, k)>, affine_map<(n, k, m) -> (k, n)>, affine_map<(n, k, m) -> (m, n)>],
                  iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%a, %b : memref<4x3xf64>, memref<3x2xf64>) outs(%c : memref<4x2xf64>) {
  ^bb0(%x: f64, %y: f64, %acc: f64):
    %p = arith.mulf %x, %y : f64
    %s = arith.addf %acc, %p : f64
    linalg.yield %s : f64
  }
  return
}

// -----

// A vecmat has no m: m = 1.
// CHECK-LABEL: func.func @vecmat
// CHECK: %[[ONE:.+]] = arith.constant 1 : i64
// CHECK: llvm.call @nxrt_gemm_f32(%[[ONE]], %[[ONE]],
// CHECK-NOT: linalg.vecmat
func.func @vecmat(%x: memref<3xf32>, %a: memref<3x4xf32>, %y: memref<4xf32>) {
  linalg.vecmat ins(%x, %a : memref<3xf32>, memref<3x4xf32>) outs(%y : memref<4xf32>)
  return
}

// -----

// bf16 operands into f32 call nxrt_gemm_bf16_f32, with the operands'
// addresses in bytes of bf16 (offset * 2) and C's in bytes of f32.
// CHECK: llvm.func @nxrt_gemm_bf16_f32(i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64)
// CHECK-LABEL: func.func @bf16_into_f32
// CHECK-SAME: (%[[A:.+]]: memref<64x32xbf16, strided<[32, 1], offset: 8>>, %[[B:.+]]: memref<32x16xbf16>, %[[C:.+]]: memref<64x16xf32>)
// CHECK: %[[ONE:.+]] = arith.constant 1 : i64
// CHECK: %[[TWO:.+]] = arith.constant 2 : i64
// CHECK: %{{.+}}, %[[OFFSET_A:.+]], %{{.+}}:2, %{{.+}}:2 = memref.extract_strided_metadata %[[A]]
// CHECK: %[[OFFSET_A64:.+]] = arith.index_cast %[[OFFSET_A]] : index to i64
// CHECK: arith.muli %[[OFFSET_A64]], %[[TWO]] : i64
// CHECK: %[[FOUR:.+]] = arith.constant 4 : i64
// CHECK-NEXT: memref.extract_strided_metadata %[[C]]
// CHECK: %[[PC:.+]] = llvm.inttoptr
// CHECK: llvm.call @nxrt_gemm_bf16_f32(%[[ONE]], {{.+}}, %[[PC]], %{{.+}}, %{{.+}}, %{{.+}}, %[[ONE]])
// CHECK-NOT: linalg.matmul
func.func @bf16_into_f32(%a: memref<64x32xbf16, strided<[32, 1], offset: 8>>, %b: memref<32x16xbf16>, %c: memref<64x16xf32>) {
  linalg.matmul ins(%a, %b : memref<64x32xbf16, strided<[32, 1], offset: 8>>, memref<32x16xbf16>) outs(%c : memref<64x16xf32>)
  return
}

// -----

// f16 operands into f32 call nxrt_gemm_f16_f32, with the operands'
// addresses in bytes of f16 (offset * 2); transposed, as any layout, by
// their strides.
// CHECK: llvm.func @nxrt_gemm_f16_f32(i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64)
// CHECK-LABEL: func.func @f16_into_f32
// CHECK: %[[ONE:.+]] = arith.constant 1 : i64
// CHECK: %[[TWO:.+]] = arith.constant 2 : i64
// CHECK: %{{.+}}, %[[OFFSET_A:.+]], %{{.+}}:2, %{{.+}}:2 = memref.extract_strided_metadata
// CHECK: %[[OFFSET_A64:.+]] = arith.index_cast %[[OFFSET_A]] : index to i64
// CHECK: arith.muli %[[OFFSET_A64]], %[[TWO]] : i64
// CHECK: llvm.call @nxrt_gemm_f16_f32(%[[ONE]],
// CHECK-NOT: linalg.matmul
func.func @f16_into_f32(%a: memref<64x32xf16, strided<[32, 1], offset: 4>>, %b: memref<16x32xf16>, %c: memref<64x16xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : memref<64x32xf16, strided<[32, 1], offset: 4>>, memref<16x32xf16>) outs(%c : memref<64x16xf32>)
  return
}

// -----

// i8 operands into i32 call nxrt_gemm_i8_i32, with the operands' addresses
// in bytes of i8 (offset * 1).
// CHECK: llvm.func @nxrt_gemm_i8_i32(i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64)
// CHECK-LABEL: func.func @i8_into_i32
// CHECK: %[[ONE:.+]] = arith.constant 1 : i64
// CHECK: %[[BYTE:.+]] = arith.constant 1 : i64
// CHECK: %{{.+}}, %[[OFFSET_A:.+]], %{{.+}}:2, %{{.+}}:2 = memref.extract_strided_metadata
// CHECK: %[[OFFSET_A64:.+]] = arith.index_cast %[[OFFSET_A]] : index to i64
// CHECK: arith.muli %[[OFFSET_A64]], %[[BYTE]] : i64
// CHECK: llvm.call @nxrt_gemm_i8_i32(%[[ONE]],
// CHECK-NOT: linalg.matmul
func.func @i8_into_i32(%a: memref<64x32xi8>, %b: memref<32x16xi8>, %c: memref<64x16xi32>) {
  linalg.matmul ins(%a, %b : memref<64x32xi8>, memref<32x16xi8>) outs(%c : memref<64x16xi32>)
  return
}

// -----

// Left alone: bodies that compute more than acc + a * b, which the
// contraction interface accepts (it looks past unary ops) but no GEMM
// computes: an exponential of the product, a negated operand, a bf16
// product rounded to bf16 before it is widened and summed; and bf16 into
// bf16, which rounds every product and sum to bf16, as f16 into f16
// does to f16; i8 read as unsigned (arith.extui), and i8 into i8.
// CHECK-LABEL: func.func @not_plain_products
// CHECK-NOT: llvm.call
// CHECK: math.exp
// CHECK: arith.negf
// CHECK: arith.mulf %{{.+}}, %{{.+}} : bf16
// CHECK: linalg.matmul ins(%{{.+}}, %{{.+}} : memref<4x3xbf16>, memref<3x2xbf16>) outs(%{{.+}} : memref<4x2xbf16>)
// CHECK: linalg.matmul ins(%{{.+}}, %{{.+}} : memref<4x3xf16>, memref<3x2xf16>) outs(%{{.+}} : memref<4x2xf16>)
// CHECK: arith.extui
// CHECK: linalg.matmul ins(%{{.+}}, %{{.+}} : memref<4x3xi8>, memref<3x2xi8>) outs(%{{.+}} : memref<4x2xi8>)
// CHECK-NOT: llvm.call
func.func @not_plain_products(%a: memref<4x3xf32>, %b: memref<3x2xf32>, %c: memref<4x2xf32>,
                              %a16: memref<4x3xbf16>, %b16: memref<3x2xbf16>, %c16: memref<4x2xbf16>,
                              %a8: memref<4x3xi8>, %b8: memref<3x2xi8>, %c32: memref<4x2xi32>,
                              %c8: memref<4x2xi8>, %ah: memref<4x3xf16>,
                              %bh: memref<3x2xf16>, %ch: memref<4x2xf16>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<4x3xf32>, memref<3x2xf32>) outs(%c : memref<4x2xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %e = math.exp %p : f32
    %s = arith.addf %acc, %e : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<4x3xf32>, memref<3x2xf32>) outs(%c : memref<4x2xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %n = arith.negf %x : f32
    %p = arith.mulf %n, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a16, %b16 : memref<4x3xbf16>, memref<3x2xbf16>) outs(%c : memref<4x2xf32>) {
  ^bb0(%x: bf16, %y: bf16, %acc: f32):
    %p = arith.mulf %x, %y : bf16
    %w = arith.extf %p : bf16 to f32
    %s = arith.addf %acc, %w : f32
    linalg.yield %s : f32
  }
  linalg.matmul ins(%a16, %b16 : memref<4x3xbf16>, memref<3x2xbf16>) outs(%c16 : memref<4x2xbf16>)
  linalg.matmul ins(%ah, %bh : memref<4x3xf16>, memref<3x2xf16>) outs(%ch : memref<4x2xf16>)
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a8, %b8 : memref<4x3xi8>, memref<3x2xi8>) outs(%c32 : memref<4x2xi32>) {
  ^bb0(%x: i8, %y: i8, %acc: i32):
    %wx = arith.extui %x : i8 to i32
    %wy = arith.extui %y : i8 to i32
    %p = arith.muli %wx, %wy : i32
    %s = arith.addi %acc, %p : i32
    linalg.yield %s : i32
  }
  linalg.matmul ins(%a8, %b8 : memref<4x3xi8>, memref<3x2xi8>) outs(%c8 : memref<4x2xi8>)
  return
}

// -----

// Left alone: integers, mixed element types, tensors, an operand broadcast
// along the batch, two batch dimensions, a product that is not summed.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: llvm.call
// CHECK: linalg.matmul ins(%{{.+}}, %{{.+}} : memref<4x3xi32>, memref<3x2xi32>)
// CHECK: linalg.matmul ins(%{{.+}}, %{{.+}} : memref<4x3xf16>, memref<3x2xf16>) outs(%{{.+}} : memref<4x2xf64>)
// CHECK: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<4x3xf32>, tensor<3x2xf32>)
// CHECK: linalg.batch_matmul indexing_maps
// CHECK: linalg.generic
// CHECK: linalg.generic
// CHECK-NOT: llvm.call
func.func @left_alone(%ai: memref<4x3xi32>, %bi: memref<3x2xi32>, %ci: memref<4x2xi32>,
                      %ah: memref<4x3xf16>, %bh: memref<3x2xf16>, %c: memref<4x2xf64>,
                      %at: tensor<4x3xf32>, %bt: tensor<3x2xf32>, %ct: tensor<4x2xf32>,
                      %ab: memref<4x3xf32>, %bb: memref<5x3x2xf32>, %cb: memref<5x4x2xf32>,
                      %a4: memref<2x5x4x3xf32>, %b4: memref<2x5x3x2xf32>, %c4: memref<2x5x4x2xf32>,
                      %v: memref<4xf32>, %w: memref<4xf32>) -> tensor<4x2xf32> {
  linalg.matmul ins(%ai, %bi : memref<4x3xi32>, memref<3x2xi32>) outs(%ci : memref<4x2xi32>)
  linalg.matmul ins(%ah, %bh : memref<4x3xf16>, memref<3x2xf16>) outs(%c : memref<4x2xf64>)
  %r = linalg.matmul ins(%at, %bt : tensor<4x3xf32>, tensor<3x2xf32>) outs(%ct : tensor<4x2xf32>) -> tensor<4x2xf32>
  linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (m, k)>, affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%ab, %bb : memref<4x3xf32>, memref<5x3x2xf32>) outs(%cb : memref<5x4x2xf32>)
  linalg.generic {indexing_maps = [affine_map<(a, b, m, n, k) -> (a, b, m, k)>, affine_map<(a, b, m, n, k) -> (a, b, k, n)>, affine_map<(a, b, m, n, k) -> (a, b, m, n)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%a4, %b4 : memref<2x5x4x3xf32>, memref<2x5x3x2xf32>) outs(%c4 : memref<2x5x4x2xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                  iterator_types = ["parallel"]}
      ins(%v, %w : memref<4xf32>, memref<4xf32>) outs(%w : memref<4xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return %r : tensor<4x2xf32>
}

// -----

// Left alone too: dot products, one (linalg.dot) or a batch of them along
// rows (no m and no n dimension). Each would be a GEMM of one element;
// nx-split-reductions makes them vector sums instead, which threads share.
// CHECK-LABEL: func.func @dot_products
// CHECK-NOT: llvm.call
// CHECK: linalg.dot
// CHECK: linalg.generic
// CHECK-NOT: llvm.call
func.func @dot_products(%a: memref<1024xf32>, %b: memref<1024xf32>, %c: memref<f32>,
                        %x: memref<8x1024xf32>, %y: memref<8x1024xf32>, %z: memref<8xf32>) {
  linalg.dot ins(%a, %b : memref<1024xf32>, memref<1024xf32>) outs(%c : memref<f32>)
  linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (i)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x, %y : memref<8x1024xf32>, memref<8x1024xf32>) outs(%z : memref<8xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  return
}

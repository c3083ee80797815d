// RUN: nx-opt %s -split-input-file -convert-nx-to-llvm | FileCheck %s --enable-var-scope

// Each distinct bf16 or i8 product of constant sizes and strides has
// __nx_init make its oneDNN kernels: whether it is shared (1 for a part of
// a product, whose part and number of parts are left out), then its sizes,
// strides and accumulate flag. The second part call repeats the first's
// product (another part of it) and is prepared once; the whole bf16
// product is another. After the widening buffers, before the heap.
// CHECK-DAG: llvm.func @nxrt_gemm_prepare_bf16_f32(i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64)
// CHECK-DAG: llvm.func @nxrt_gemm_prepare_i8_i32(i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64)
// CHECK-LABEL: llvm.func @__nx_init
// CHECK: llvm.call @nxrt_gemm_prepare_widened(
// CHECK-DAG: %[[ZERO:.*]] = llvm.mlir.constant(0 : i64) : i64
// CHECK-DAG: %[[ONE:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK-DAG: %[[C64:.*]] = llvm.mlir.constant(64 : i64) : i64
// CHECK-DAG: %[[C32:.*]] = llvm.mlir.constant(32 : i64) : i64
// CHECK-DAG: %[[C100:.*]] = llvm.mlir.constant(100 : i64) : i64
// CHECK: llvm.call @nxrt_gemm_prepare_bf16_f32(%[[ONE]], %[[ONE]], %[[C64]], %[[C32]], %[[C100]], %[[ZERO]], %[[C100]], %[[ONE]], %[[ZERO]], %[[C32]], %[[ONE]], %[[ZERO]], %[[C32]], %[[ONE]], %[[ZERO]])
// CHECK: %[[C8:.*]] = llvm.mlir.constant(8 : i64) : i64
// CHECK: %[[C16:.*]] = llvm.mlir.constant(16 : i64) : i64
// CHECK: llvm.call @nxrt_gemm_prepare_bf16_f32(%[[ZERO]], %[[ONE]], %[[C8]], %[[C16]], %[[C8]], %[[ZERO]], %[[C8]], %[[ONE]], %[[ZERO]], %[[C16]], %[[ONE]], %[[ZERO]], %[[C16]], %[[ONE]], %[[ONE]])
// CHECK-NOT: @nxrt_gemm_prepare_bf16_f32(
// CHECK: %[[C3000:.*]] = llvm.mlir.constant(3000 : i64) : i64
// CHECK-NEXT: llvm.call @nxrt_gemm_prepare_i8_i32(%[[ZERO]], %[[ONE]], %[[C8]], %[[C16]], %[[C3000]], %[[ZERO]], %[[C3000]], %[[ONE]], %[[ZERO]], %[[C16]], %[[ONE]], %[[ZERO]], %[[C16]], %[[ONE]], %[[ZERO]])
// CHECK-NOT: @nxrt_gemm_prepare_i8_i32(
// CHECK: llvm.return
llvm.func @nxrt_gemm_bf16_f32(i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64)
llvm.func @nxrt_gemm_part_bf16_f32(i64, i64, i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64)
llvm.func @nxrt_gemm_i8_i32(i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64)
llvm.func @products(%p: !llvm.ptr) {
  %c0 = llvm.mlir.constant(0 : i64) : i64
  %c1 = llvm.mlir.constant(1 : i64) : i64
  %c2 = llvm.mlir.constant(2 : i64) : i64
  %c8 = llvm.mlir.constant(8 : i64) : i64
  %c16 = llvm.mlir.constant(16 : i64) : i64
  %c32 = llvm.mlir.constant(32 : i64) : i64
  %c64 = llvm.mlir.constant(64 : i64) : i64
  %c100 = llvm.mlir.constant(100 : i64) : i64
  %c3000 = llvm.mlir.constant(3000 : i64) : i64
  llvm.call @nxrt_gemm_part_bf16_f32(%c0, %c2, %c1, %c64, %c32, %c100, %p, %c0, %c100, %c1, %p, %c0, %c32, %c1, %p, %c0, %c32, %c1, %c0) : (i64, i64, i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64) -> ()
  llvm.call @nxrt_gemm_part_bf16_f32(%c1, %c2, %c1, %c64, %c32, %c100, %p, %c0, %c100, %c1, %p, %c0, %c32, %c1, %p, %c0, %c32, %c1, %c0) : (i64, i64, i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64) -> ()
  llvm.call @nxrt_gemm_bf16_f32(%c1, %c8, %c16, %c8, %p, %c0, %c8, %c1, %p, %c0, %c16, %c1, %p, %c0, %c16, %c1, %c1) : (i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64) -> ()
  llvm.call @nxrt_gemm_i8_i32(%c1, %c8, %c16, %c3000, %p, %c0, %c3000, %c1, %p, %c0, %c16, %c1, %p, %c0, %c16, %c1, %c0) : (i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64) -> ()
  llvm.return
}

// -----

// A size or stride known only at run time, and an accumulate flag too: no
// kernel is made at load. f16 and f32 products have no such kernels.
// CHECK-LABEL: llvm.func @__nx_init
// CHECK-NOT: @nxrt_gemm_prepare_bf16_f32(
// CHECK-NOT: @nxrt_gemm_prepare_i8_i32(
// CHECK: llvm.return
llvm.func @nxrt_gemm_bf16_f32(i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64)
llvm.func @nxrt_gemm_i8_i32(i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64)
llvm.func @nxrt_gemm_f16_f32(i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64)
llvm.func @nxrt_gemm_f32(i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64)
llvm.func @dynamic(%p: !llvm.ptr, %m: i64, %stride: i64, %accumulate: i64) {
  %c0 = llvm.mlir.constant(0 : i64) : i64
  %c1 = llvm.mlir.constant(1 : i64) : i64
  %c8 = llvm.mlir.constant(8 : i64) : i64
  llvm.call @nxrt_gemm_bf16_f32(%c1, %m, %c8, %c8, %p, %c0, %c8, %c1, %p, %c0, %c8, %c1, %p, %c0, %c8, %c1, %c0) : (i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64) -> ()
  llvm.call @nxrt_gemm_i8_i32(%c1, %c8, %c8, %c8, %p, %c0, %stride, %c1, %p, %c0, %c8, %c1, %p, %c0, %c8, %c1, %c0) : (i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64) -> ()
  llvm.call @nxrt_gemm_i8_i32(%c1, %c8, %c8, %c8, %p, %c0, %c8, %c1, %p, %c0, %c8, %c1, %p, %c0, %c8, %c1, %accumulate) : (i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64) -> ()
  llvm.call @nxrt_gemm_f16_f32(%c1, %c8, %c8, %c8, %p, %c0, %c8, %c1, %p, %c0, %c8, %c1, %p, %c0, %c8, %c1, %c0) : (i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64) -> ()
  llvm.call @nxrt_gemm_f32(%c1, %c8, %c8, %c8, %p, %c0, %c8, %c1, %p, %c0, %c8, %c1, %p, %c0, %c8, %c1, %c0) : (i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64) -> ()
  llvm.return
}

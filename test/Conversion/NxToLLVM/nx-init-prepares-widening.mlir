// RUN: nx-opt %s -split-input-file -convert-nx-to-llvm | FileCheck %s --enable-var-scope

// Products of bf16, f16 and i8 of constant sizes have __nx_init map the
// buffers each thread widens their operands into, for the largest of each
// dtype (nxrt_dtype_t as an i32: bf16 11, f16 10, i8 2; the runtime maps
// nothing a dtype does not widen on the CPU): A's floats (m x k; an i8
// product widens 1024 steps of k at a time), B's (k x n plus 48 floats a
// row for its padding) and the elements of C (i8 only). Here a bf16
// product 64x100 by 100x32, shared in parts (A 6400 floats, B 100 x 80 =
// 8000, C none), and an i8 one 8x3000 by 3000x16 (A 8 x 1024 = 8192, B
// 1024 x 64 = 65536, C 8 x 16 = 128): one call each, i8 first.
// CHECK-LABEL: llvm.func @nxrt_gemm_prepare_widened(i32, i64, i64, i64)
// CHECK-LABEL: llvm.func @__nx_init
// CHECK: llvm.call @nxrt_gemm_prepare() : () -> ()
// CHECK: %[[I8:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK-DAG: %[[A:.*]] = llvm.mlir.constant(8192 : i64) : i64
// CHECK-DAG: %[[B:.*]] = llvm.mlir.constant(65536 : i64) : i64
// CHECK-DAG: %[[C:.*]] = llvm.mlir.constant(128 : i64) : i64
// CHECK: llvm.call @nxrt_gemm_prepare_widened(%[[I8]], %[[A]], %[[B]], %[[C]])
// CHECK: %[[BF16:.*]] = llvm.mlir.constant(11 : i32) : i32
// CHECK-DAG: %[[A16:.*]] = llvm.mlir.constant(6400 : i64) : i64
// CHECK-DAG: %[[B16:.*]] = llvm.mlir.constant(8000 : i64) : i64
// CHECK-DAG: %[[ZERO:.*]] = llvm.mlir.constant(0 : i64) : i64
// CHECK: llvm.call @nxrt_gemm_prepare_widened(%[[BF16]], %[[A16]], %[[B16]], %[[ZERO]])
// CHECK-NOT: nxrt_gemm_prepare_widened
// CHECK: llvm.return
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
  llvm.call @nxrt_gemm_i8_i32(%c1, %c8, %c16, %c3000, %p, %c0, %c3000, %c1, %p, %c0, %c16, %c1, %p, %c0, %c16, %c1, %c0) : (i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64) -> ()
  llvm.return
}

// -----

// f16 products too, whole or in parts: the largest of them, 40x300 by
// 300x20 (A 12000 floats, B 300 x 68 = 20400).
// CHECK-LABEL: llvm.func @__nx_init
// CHECK: llvm.call @nxrt_gemm_prepare() : () -> ()
// CHECK-DAG: %[[F16:.*]] = llvm.mlir.constant(10 : i32) : i32
// CHECK-DAG: %[[A:.*]] = llvm.mlir.constant(12000 : i64) : i64
// CHECK-DAG: %[[B:.*]] = llvm.mlir.constant(20400 : i64) : i64
// CHECK-DAG: %[[C:.*]] = llvm.mlir.constant(0 : i64) : i64
// CHECK: llvm.call @nxrt_gemm_prepare_widened(%[[F16]], %[[A]], %[[B]], %[[C]])
llvm.func @nxrt_gemm_f16_f32(i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64)
llvm.func @nxrt_gemm_part_f16_f32(i64, i64, i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64)
llvm.func @halves(%p: !llvm.ptr) {
  %c0 = llvm.mlir.constant(0 : i64) : i64
  %c1 = llvm.mlir.constant(1 : i64) : i64
  %c2 = llvm.mlir.constant(2 : i64) : i64
  %c8 = llvm.mlir.constant(8 : i64) : i64
  %c20 = llvm.mlir.constant(20 : i64) : i64
  %c40 = llvm.mlir.constant(40 : i64) : i64
  %c300 = llvm.mlir.constant(300 : i64) : i64
  llvm.call @nxrt_gemm_f16_f32(%c1, %c8, %c8, %c8, %p, %c0, %c8, %c1, %p, %c0, %c8, %c1, %p, %c0, %c8, %c1, %c0) : (i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64) -> ()
  llvm.call @nxrt_gemm_part_f16_f32(%c0, %c2, %c1, %c40, %c20, %c300, %p, %c0, %c300, %c1, %p, %c0, %c20, %c1, %p, %c0, %c20, %c1, %c0) : (i64, i64, i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64) -> ()
  llvm.return
}

// -----

// A size known only at run time: nothing to map early, and no declaration.
// CHECK-NOT: nxrt_gemm_prepare_widened
// CHECK-LABEL: llvm.func @__nx_init
// CHECK-NOT: nxrt_gemm_prepare_widened
// CHECK: llvm.return
llvm.func @nxrt_gemm_bf16_f32(i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64)
llvm.func @dynamic(%p: !llvm.ptr, %m: i64) {
  %c0 = llvm.mlir.constant(0 : i64) : i64
  %c1 = llvm.mlir.constant(1 : i64) : i64
  %c8 = llvm.mlir.constant(8 : i64) : i64
  llvm.call @nxrt_gemm_bf16_f32(%c1, %m, %c8, %c8, %p, %c0, %c8, %c1, %p, %c0, %c8, %c1, %p, %c0, %c8, %c1, %c0) : (i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64) -> ()
  llvm.return
}

// -----

// Sizes past what is worth mapping at load are capped at 2^24 elements;
// negative ones (a program that would fail at run time) map nothing.
// CHECK-LABEL: llvm.func @__nx_init
// CHECK: llvm.call @nxrt_gemm_prepare() : () -> ()
// CHECK-DAG: %[[BF16:.*]] = llvm.mlir.constant(11 : i32) : i32
// CHECK-DAG: %[[MAX:.*]] = llvm.mlir.constant(16777216 : i64) : i64
// CHECK-DAG: %[[ZERO:.*]] = llvm.mlir.constant(0 : i64) : i64
// CHECK: llvm.call @nxrt_gemm_prepare_widened(%[[BF16]], %[[MAX]], %[[MAX]], %[[ZERO]])
llvm.func @nxrt_gemm_bf16_f32(i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64)
llvm.func @huge(%p: !llvm.ptr) {
  %c0 = llvm.mlir.constant(0 : i64) : i64
  %c1 = llvm.mlir.constant(1 : i64) : i64
  %big = llvm.mlir.constant(9223372036854775807 : i64) : i64
  %neg = llvm.mlir.constant(-5 : i64) : i64
  llvm.call @nxrt_gemm_bf16_f32(%c1, %big, %big, %big, %p, %c0, %c1, %c1, %p, %c0, %c1, %c1, %p, %c0, %c1, %c1, %c0) : (i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64) -> ()
  llvm.call @nxrt_gemm_bf16_f32(%c1, %neg, %neg, %neg, %p, %c0, %c1, %c1, %p, %c0, %c1, %c1, %p, %c0, %c1, %c1, %c0) : (i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64) -> ()
  llvm.return
}

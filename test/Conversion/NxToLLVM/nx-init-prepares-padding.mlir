// RUN: nx-opt %s -split-input-file -convert-nx-to-llvm | FileCheck %s --enable-var-scope

// f32 products whose B is row-major with rows a multiple of 256 floats
// apart have __nx_init map the buffer that CPUs reading B in place (AVX2)
// copy B into with padded rows: k rows of n floats and up to 48 more, for
// the largest of them. Here a whole product 64x100 by 100x200 (B's rows 512
// apart: 100 x 248 = 24800 floats) and a part of one 300x50 by 50x1000 (B's
// rows 1024 apart: 50 x 1048 = 52400).
// CHECK-LABEL: llvm.func @nxrt_gemm_prepare_padded(i64)
// CHECK-LABEL: llvm.func @__nx_init
// CHECK: %[[B:.*]] = llvm.mlir.constant(52400 : i64) : i64
// CHECK-NEXT: llvm.call @nxrt_gemm_prepare_padded(%[[B]]) : (i64) -> ()
llvm.func @nxrt_gemm_f32(i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64)
llvm.func @nxrt_gemm_part_f32(i64, i64, i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64)
llvm.func @products(%p: !llvm.ptr) {
  %c0 = llvm.mlir.constant(0 : i64) : i64
  %c1 = llvm.mlir.constant(1 : i64) : i64
  %c2 = llvm.mlir.constant(2 : i64) : i64
  %c50 = llvm.mlir.constant(50 : i64) : i64
  %c64 = llvm.mlir.constant(64 : i64) : i64
  %c100 = llvm.mlir.constant(100 : i64) : i64
  %c200 = llvm.mlir.constant(200 : i64) : i64
  %c300 = llvm.mlir.constant(300 : i64) : i64
  %c512 = llvm.mlir.constant(512 : i64) : i64
  %c1000 = llvm.mlir.constant(1000 : i64) : i64
  %c1024 = llvm.mlir.constant(1024 : i64) : i64
  llvm.call @nxrt_gemm_f32(%c1, %c64, %c200, %c100, %p, %c0, %c100, %c1, %p, %c0, %c512, %c1, %p, %c0, %c200, %c1, %c0) : (i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64) -> ()
  llvm.call @nxrt_gemm_part_f32(%c0, %c2, %c1, %c300, %c1000, %c50, %p, %c0, %c50, %c1, %p, %c0, %c1024, %c1, %p, %c0, %c1000, %c1, %c0) : (i64, i64, i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64) -> ()
  llvm.return
}

// -----

// Left out: a B read transposed (column stride not 1), whose copy is never
// padded; rows apart by no multiple of 256; a single column; sizes known
// only at run time. Nothing to map, no declaration.
// CHECK-NOT: nxrt_gemm_prepare_padded
// CHECK-LABEL: llvm.func @__nx_init
// CHECK-NOT: nxrt_gemm_prepare_padded
// CHECK: llvm.return
llvm.func @nxrt_gemm_f32(i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64)
llvm.func @left_out(%p: !llvm.ptr, %n: i64) {
  %c0 = llvm.mlir.constant(0 : i64) : i64
  %c1 = llvm.mlir.constant(1 : i64) : i64
  %c64 = llvm.mlir.constant(64 : i64) : i64
  %c100 = llvm.mlir.constant(100 : i64) : i64
  %c300 = llvm.mlir.constant(300 : i64) : i64
  %c512 = llvm.mlir.constant(512 : i64) : i64
  llvm.call @nxrt_gemm_f32(%c1, %c64, %c512, %c100, %p, %c0, %c100, %c1, %p, %c0, %c1, %c512, %p, %c0, %c512, %c1, %c0) : (i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64) -> ()
  llvm.call @nxrt_gemm_f32(%c1, %c64, %c300, %c100, %p, %c0, %c100, %c1, %p, %c0, %c300, %c1, %p, %c0, %c300, %c1, %c0) : (i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64) -> ()
  llvm.call @nxrt_gemm_f32(%c1, %c64, %c1, %c100, %p, %c0, %c100, %c1, %p, %c0, %c512, %c1, %p, %c0, %c1, %c1, %c0) : (i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64) -> ()
  llvm.call @nxrt_gemm_f32(%c1, %c64, %n, %c100, %p, %c0, %c100, %c1, %p, %c0, %c512, %c1, %p, %c0, %n, %c1, %c0) : (i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64) -> ()
  llvm.return
}

// -----

// Copies past 2^21 floats are never made (4096 x 4144 here, and one of
// INT64_MAX columns): nothing to map for them.
// CHECK-NOT: nxrt_gemm_prepare_padded
// CHECK-LABEL: llvm.func @__nx_init
// CHECK-NOT: nxrt_gemm_prepare_padded
// CHECK: llvm.return
llvm.func @nxrt_gemm_f32(i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64)
llvm.func @huge(%p: !llvm.ptr) {
  %c0 = llvm.mlir.constant(0 : i64) : i64
  %c1 = llvm.mlir.constant(1 : i64) : i64
  %c64 = llvm.mlir.constant(64 : i64) : i64
  %c4096 = llvm.mlir.constant(4096 : i64) : i64
  %max = llvm.mlir.constant(9223372036854775807 : i64) : i64
  llvm.call @nxrt_gemm_f32(%c1, %c64, %c4096, %c4096, %p, %c0, %c4096, %c1, %p, %c0, %c4096, %c1, %p, %c0, %c4096, %c1, %c0) : (i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64) -> ()
  llvm.call @nxrt_gemm_f32(%c1, %c64, %max, %c1, %p, %c0, %c1, %c1, %p, %c0, %c4096, %c1, %p, %c0, %max, %c1, %c0) : (i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64) -> ()
  llvm.return
}

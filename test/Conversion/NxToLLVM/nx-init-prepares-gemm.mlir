// RUN: nx-opt %s -split-input-file -convert-nx-to-llvm | FileCheck %s --enable-var-scope

// A module with f32 products (nx-linalg-to-blas's nxrt_gemm_f32) has
// __nx_init compile their kernels first, so that its first run does not.
// CHECK-LABEL: llvm.func @nxrt_gemm_prepare()
// CHECK-LABEL: llvm.func @__nx_init
// CHECK-NEXT: llvm.call @nxrt_gemm_prepare() : () -> ()
// CHECK-NEXT: llvm.mlir.addressof @__nx_sites
// CHECK-NEXT: llvm.load
// CHECK-NEXT: llvm.call @nxrt_program_add_sites
llvm.func @nxrt_gemm_f32(i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64)

// -----

// Products shared among a team's threads count too.
// CHECK-LABEL: llvm.func @__nx_init
// CHECK: llvm.call @nxrt_gemm_prepare() : () -> ()
llvm.func @nxrt_gemm_part_f32(i64, i64, i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64)

// -----

// So do products that apply a bias and ReLU after them.
// CHECK-LABEL: llvm.func @__nx_init
// CHECK: llvm.call @nxrt_gemm_prepare() : () -> ()
llvm.func @nxrt_gemm_part_epilogue_f32(i64, i64, i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64, !llvm.ptr, i64, i64)

// -----

// f64 products run on OpenBLAS, which compiles nothing: no call, and no
// declaration.
// CHECK-NOT: nxrt_gemm_prepare
// CHECK-LABEL: llvm.func @__nx_init
// CHECK-NOT: nxrt_gemm_prepare
// CHECK: llvm.return
llvm.func @nxrt_gemm_f64(i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64)

// RUN: nx-opt %s -split-input-file -convert-nx-to-llvm | FileCheck %s --enable-var-scope

// A convolution call of constant sizes and strides has its kernel made by
// __nx_init: the call's integers without its pointers, and 1 for its bias
// in place of the bias's stride. A second call of the same arguments adds
// no second prepare; one of other sizes adds its own, without a bias.
// CHECK-LABEL: llvm.func @nxrt_conv2d_prepare_f32(i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64)
// CHECK-LABEL: llvm.func @__nx_init
// CHECK-DAG: %[[C0:.*]] = llvm.mlir.constant(0 : i64) : i64
// CHECK-DAG: %[[C1:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK-DAG: %[[C2:.*]] = llvm.mlir.constant(2 : i64) : i64
// CHECK-DAG: %[[C3:.*]] = llvm.mlir.constant(3 : i64) : i64
// CHECK-DAG: %[[C6:.*]] = llvm.mlir.constant(6 : i64) : i64
// CHECK-DAG: %[[C8:.*]] = llvm.mlir.constant(8 : i64) : i64
// CHECK-DAG: %[[C64:.*]] = llvm.mlir.constant(64 : i64) : i64
// CHECK: llvm.call @nxrt_conv2d_prepare_f32(%[[C1]], %[[C1]], %[[C3]], %[[C8]], %[[C8]], %[[C8]], %[[C3]], %[[C3]], %[[C6]], %[[C6]], %[[C1]], %[[C1]], %[[C1]], %[[C1]], %[[C0]], %[[C0]], %[[C2]], %[[C64]], %[[C1]], %[[C8]], %[[C1]], %[[C0]], %[[C1]], %[[C8]], %[[C64]], %[[C3]], %[[C1]], %[[C64]], %[[C1]], %[[C8]], %[[C1]])
// CHECK-NEXT: llvm.call @nxrt_conv2d_prepare_f32(%[[C1]], %[[C1]], %[[C8]], %[[C64]], %[[C8]], %[[C8]], %[[C1]], %[[C1]], %[[C8]], %[[C8]], %[[C1]], %[[C1]], %[[C1]], %[[C1]], %[[C0]], %[[C0]], %[[C0]], %[[C64]], %[[C1]], %[[C8]], %[[C1]], %[[C0]], %[[C1]], %[[C8]], %[[C64]], %[[C3]], %[[C0]], %[[C64]], %[[C1]], %[[C8]], %[[C1]])
// CHECK-NOT: nxrt_conv2d_prepare_f32
// CHECK: llvm.return
llvm.func @nxrt_conv2d_f32(i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64, i64, !llvm.ptr, i64, !llvm.ptr, i64, i64, i64, i64)
llvm.func @convolutions(%in: !llvm.ptr, %filter: !llvm.ptr, %bias: !llvm.ptr, %out: !llvm.ptr) {
  %c0 = llvm.mlir.constant(0 : i64) : i64
  %c1 = llvm.mlir.constant(1 : i64) : i64
  %c2 = llvm.mlir.constant(2 : i64) : i64
  %c3 = llvm.mlir.constant(3 : i64) : i64
  %c6 = llvm.mlir.constant(6 : i64) : i64
  %c8 = llvm.mlir.constant(8 : i64) : i64
  %c64 = llvm.mlir.constant(64 : i64) : i64
  %null = llvm.mlir.zero : !llvm.ptr
  llvm.call @nxrt_conv2d_f32(%c1, %c1, %c3, %c8, %c8, %c8, %c3, %c3, %c6, %c6, %c1, %c1, %c1, %c1, %c0, %c0, %c2, %in, %c64, %c1, %c8, %c1, %filter, %c0, %c1, %c8, %c64, %c3, %bias, %c1, %out, %c64, %c1, %c8, %c1) : (i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64, i64, !llvm.ptr, i64, !llvm.ptr, i64, i64, i64, i64) -> ()
  llvm.call @nxrt_conv2d_f32(%c1, %c1, %c3, %c8, %c8, %c8, %c3, %c3, %c6, %c6, %c1, %c1, %c1, %c1, %c0, %c0, %c2, %in, %c64, %c1, %c8, %c1, %filter, %c0, %c1, %c8, %c64, %c3, %bias, %c1, %out, %c64, %c1, %c8, %c1) : (i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64, i64, !llvm.ptr, i64, !llvm.ptr, i64, i64, i64, i64) -> ()
  llvm.call @nxrt_conv2d_f32(%c1, %c1, %c8, %c64, %c8, %c8, %c1, %c1, %c8, %c8, %c1, %c1, %c1, %c1, %c0, %c0, %c0, %in, %c64, %c1, %c8, %c1, %filter, %c0, %c1, %c8, %c64, %c3, %null, %c0, %out, %c64, %c1, %c8, %c1) : (i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64, i64, !llvm.ptr, i64, !llvm.ptr, i64, i64, i64, i64) -> ()
  llvm.return
}

// -----

// A size known only at run time (a dynamic batch): nothing to make early.
// CHECK-NOT: nxrt_conv2d_prepare_f32
// CHECK-LABEL: llvm.func @__nx_init
// CHECK-NOT: nxrt_conv2d_prepare_f32
// CHECK: llvm.return
llvm.func @nxrt_conv2d_f32(i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64, i64, !llvm.ptr, i64, !llvm.ptr, i64, i64, i64, i64)
llvm.func @dynamic_batch(%batch: i64, %in: !llvm.ptr, %filter: !llvm.ptr, %out: !llvm.ptr) {
  %c0 = llvm.mlir.constant(0 : i64) : i64
  %c1 = llvm.mlir.constant(1 : i64) : i64
  %c3 = llvm.mlir.constant(3 : i64) : i64
  %c6 = llvm.mlir.constant(6 : i64) : i64
  %c8 = llvm.mlir.constant(8 : i64) : i64
  %c64 = llvm.mlir.constant(64 : i64) : i64
  %null = llvm.mlir.zero : !llvm.ptr
  llvm.call @nxrt_conv2d_f32(%batch, %c1, %c3, %c8, %c8, %c8, %c3, %c3, %c6, %c6, %c1, %c1, %c1, %c1, %c0, %c0, %c0, %in, %c64, %c1, %c8, %c1, %filter, %c0, %c1, %c8, %c64, %c3, %null, %c0, %out, %c64, %c1, %c8, %c1) : (i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64, i64, !llvm.ptr, i64, !llvm.ptr, i64, i64, i64, i64) -> ()
  llvm.return
}

// -----

// Sizes of INT64_MAX and INT64_MIN (absurd, but a program may state them)
// reach the prepare call like any other: they are the empty and tombstone
// keys of LLVM's DenseMap, which once held the constants and crashed on
// them (found by fuzzing).
// CHECK-LABEL: llvm.func @__nx_init
// CHECK-DAG: %[[MAX:.*]] = llvm.mlir.constant(9223372036854775807 : i64) : i64
// CHECK-DAG: %[[MIN:.*]] = llvm.mlir.constant(-9223372036854775808 : i64) : i64
// CHECK: llvm.call @nxrt_conv2d_prepare_f32({{.*}}%[[MAX]], %[[MIN]], {{.*}})
// CHECK: llvm.return
llvm.func @nxrt_conv2d_f32(i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64, i64, !llvm.ptr, i64, !llvm.ptr, i64, i64, i64, i64)
llvm.func @extreme_sizes(%in: !llvm.ptr, %filter: !llvm.ptr, %out: !llvm.ptr) {
  %c0 = llvm.mlir.constant(0 : i64) : i64
  %c1 = llvm.mlir.constant(1 : i64) : i64
  %c3 = llvm.mlir.constant(3 : i64) : i64
  %c6 = llvm.mlir.constant(6 : i64) : i64
  %c8 = llvm.mlir.constant(8 : i64) : i64
  %c64 = llvm.mlir.constant(64 : i64) : i64
  %max = llvm.mlir.constant(9223372036854775807 : i64) : i64
  %min = llvm.mlir.constant(-9223372036854775808 : i64) : i64
  %null = llvm.mlir.zero : !llvm.ptr
  llvm.call @nxrt_conv2d_f32(%c1, %c1, %c3, %max, %min, %c8, %c3, %c3, %c6, %c6, %c1, %c1, %c1, %c1, %c0, %c0, %c0, %in, %c64, %c1, %c8, %c1, %filter, %c0, %c1, %c8, %c64, %c3, %null, %c0, %out, %c64, %c1, %c8, %c1) : (i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64, i64, !llvm.ptr, i64, !llvm.ptr, i64, i64, i64, i64) -> ()
  llvm.return
}

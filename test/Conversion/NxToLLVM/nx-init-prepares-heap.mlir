// RUN: nx-opt %s -split-input-file -allow-unregistered-dialect -convert-nx-to-llvm | FileCheck %s --enable-var-scope

// __nx_init faults in the heap that one run holds at once: the most bytes
// of static buffers live together, in the order of the function's ops.
// Here 4 KiB, then 8 KiB while %b and %c are live, then 4 KiB again.
// CHECK-LABEL: llvm.func @nxrt_heap_prepare(i64)
// CHECK-LABEL: llvm.func @__nx_init
// CHECK: %[[BYTES:.*]] = llvm.mlir.constant(8192 : i64) : i64
// CHECK-NEXT: llvm.call @nxrt_heap_prepare(%[[BYTES]]) : (i64) -> ()
func.func @sequence() {
  %a = memref.alloc() : memref<1024xf32>
  memref.dealloc %a : memref<1024xf32>
  %b = memref.alloc() : memref<1024xf32>
  %c = memref.alloc() : memref<1024xf32>
  memref.dealloc %b : memref<1024xf32>
  memref.dealloc %c : memref<1024xf32>
  %d = memref.alloc() : memref<1024xf32>
  memref.dealloc %d : memref<1024xf32>
  return
}

// -----

// A buffer a callee returns stays live in its caller until the caller frees
// it. @produce holds 5 KiB at its peak: a 1 KiB scratch buffer and the
// 4 KiB it returns. @caller holds the first result and 2 KiB of its own when
// it calls @produce again: 4 + 2 + 5 = 11 KiB. It frees the first result
// through the base buffer of its strided metadata before taking 8 KiB more
// (2 + 8 = 10 KiB; 14 if that did not count as freeing it).
// CHECK-LABEL: llvm.func @__nx_init
// CHECK: llvm.mlir.constant(11264 : i64) : i64
func.func private @produce() -> memref<1024xf32> {
  %scratch = memref.alloc() : memref<256xf32>
  %out = memref.alloc() : memref<1024xf32>
  memref.dealloc %scratch : memref<256xf32>
  return %out : memref<1024xf32>
}

func.func @caller() {
  %first = call @produce() : () -> memref<1024xf32>
  %own = memref.alloc() : memref<512xf32>
  %second = call @produce() : () -> memref<1024xf32>
  memref.dealloc %second : memref<1024xf32>
  %base, %offset, %size, %stride = memref.extract_strided_metadata %first
      : memref<1024xf32> -> memref<f32>, index, index, index
  memref.dealloc %base : memref<f32>
  %big = memref.alloc() : memref<2048xf32>
  memref.dealloc %big : memref<2048xf32>
  memref.dealloc %own : memref<512xf32>
  return
}

// -----

// Buffers of OpenMP regions come from the worker threads' heaps, and a
// dynamic shape has no size to prepare: nothing left to prepare, so no call.
// CHECK: // -----
// CHECK-NOT: nxrt_heap_prepare
// CHECK-LABEL: llvm.func @__nx_init
// CHECK-NOT: nxrt_heap_prepare
// CHECK: llvm.return
func.func @nothing_static(%n: index) {
  omp.parallel {
    %in_region = memref.alloc() : memref<1024xf32>
    memref.dealloc %in_region : memref<1024xf32>
    omp.terminator
  }
  %dynamic = memref.alloc(%n) : memref<?xf32>
  memref.dealloc %dynamic : memref<?xf32>
  return
}

// -----

// Unregistered ops, which have no dialect, are passed over (the fuzzer
// found the estimate reading the dialect of one): the buffer beside them
// still counts, 4 x 8 x 4 bytes.
// CHECK-LABEL: func.func @beside_unregistered_ops
// CHECK-LABEL: llvm.func @__nx_init
// CHECK-NEXT: %[[BYTES:.*]] = llvm.mlir.constant(128 : i64) : i64
// CHECK-NEXT: llvm.call @nxrt_heap_prepare(%[[BYTES]])
func.func @beside_unregistered_ops() {
  %buffer = memref.alloc() : memref<4x8xf32>
  "test.op"(%buffer) : (memref<4x8xf32>) -> ()
  "test.region"() ({
    "test.inner"() : () -> ()
  }) : () -> ()
  memref.dealloc %buffer : memref<4x8xf32>
  return
}

// -----

// The heap is prepared last: a convolution's prepare keeps buffers for the
// loading thread (its input and output in the kernel's layout) that would
// otherwise take the heap prepared for the program's own buffers.
// CHECK-LABEL: llvm.func @__nx_init
// CHECK: llvm.call @nxrt_conv2d_prepare_f32(
// CHECK: llvm.call @nxrt_heap_prepare(
// CHECK-NOT: llvm.call @nxrt_conv2d_prepare_f32
// CHECK: llvm.call @nxrt_program_add_sites
llvm.func @nxrt_conv2d_f32(i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64, i64, !llvm.ptr, i64, !llvm.ptr, i64, i64, i64, i64)
func.func @convolution_and_buffer(%in: !llvm.ptr, %filter: !llvm.ptr, %out: !llvm.ptr) {
  %a = memref.alloc() : memref<1024xf32>
  memref.dealloc %a : memref<1024xf32>
  %c0 = llvm.mlir.constant(0 : i64) : i64
  %c1 = llvm.mlir.constant(1 : i64) : i64
  %c3 = llvm.mlir.constant(3 : i64) : i64
  %c6 = llvm.mlir.constant(6 : i64) : i64
  %c8 = llvm.mlir.constant(8 : i64) : i64
  %c64 = llvm.mlir.constant(64 : i64) : i64
  %null = llvm.mlir.zero : !llvm.ptr
  llvm.call @nxrt_conv2d_f32(%c1, %c1, %c3, %c8, %c8, %c8, %c3, %c3, %c6, %c6, %c1, %c1, %c1, %c1, %c0, %c0, %c0, %in, %c64, %c1, %c8, %c1, %filter, %c0, %c1, %c8, %c64, %c3, %null, %c0, %out, %c64, %c1, %c8, %c1) : (i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64, i64, !llvm.ptr, i64, !llvm.ptr, i64, i64, i64, i64) -> ()
  return
}

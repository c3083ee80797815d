// RUN: nx-opt %s -split-input-file -convert-nx-to-llvm | FileCheck %s --enable-var-scope

// Every heap buffer is checked: a NULL one reports its size and location to
// nxrt_out_of_memory and takes the function's exit, as a failed host call
// does.
// CHECK: llvm.mlir.global internal constant @[[$LOC:__nx_oom_location_0]]("{{.*}}allocation-checks.mlir:[[@LINE+20]]:13\00")
// CHECK-LABEL: func.func @static_size
// CHECK: %[[RUN_CTX:.+]] = llvm.call @nxrt_run_current()
// CHECK: %[[SLOT:.+]] = llvm.alloca %{{.+}} x !llvm.ptr
// CHECK: %[[BUFFER:.+]] = memref.alloc() {alignment = 64 : i64} : memref<1000x1000xf32>
// CHECK: %[[ADDRESS:.+]] = memref.extract_aligned_pointer_as_index %[[BUFFER]]
// CHECK: %[[ADDRESS_I64:.+]] = builtin.unrealized_conversion_cast %[[ADDRESS]] : index to i64
// CHECK: %[[NULL:.+]] = llvm.icmp "eq" %[[ADDRESS_I64]], %{{.+}} : i64
// CHECK: llvm.cond_br %[[NULL]], ^[[OOM:bb[0-9]+]], ^[[REST:bb[0-9]+]]
// CHECK: ^[[OOM]]:
// CHECK: %[[BYTES:.+]] = llvm.mlir.constant(4000000 : i64) : i64
// CHECK: %[[WHERE:.+]] = llvm.mlir.addressof @[[$LOC]]
// CHECK: llvm.call @nxrt_out_of_memory(%[[RUN_CTX]], %[[BYTES]], %[[WHERE]])
// CHECK: llvm.store %{{.+}}, %[[SLOT]]
// CHECK: llvm.br ^[[EXIT:bb[0-9]+]]
// CHECK: ^[[REST]]:
// CHECK: return %[[BUFFER]]
// CHECK: ^[[EXIT]]:
// CHECK: llvm.call @nxrt_invoke_failed
func.func @static_size() -> memref<1000x1000xf32> {
  %buffer = memref.alloc() {alignment = 64 : i64} : memref<1000x1000xf32>
  return %buffer : memref<1000x1000xf32>
}

// -----

// A dynamic size multiplies into the reported bytes; a caller of a function
// that allocates checks the run after the call.
// CHECK-LABEL: func.func @dynamic_size
// CHECK-SAME: (%[[N:.+]]: index)
// CHECK: llvm.cond_br %{{.+}}, ^[[OOM:bb[0-9]+]], ^
// CHECK: ^[[OOM]]:
// CHECK: %[[STATIC:.+]] = llvm.mlir.constant(24 : i64) : i64
// CHECK: %[[N_I64:.+]] = builtin.unrealized_conversion_cast %[[N]] : index to i64
// CHECK: %[[BYTES:.+]] = llvm.mul %[[STATIC]], %[[N_I64]] : i64
// CHECK: llvm.call @nxrt_out_of_memory(%{{.+}}, %[[BYTES]], %{{.+}})
func.func @dynamic_size(%n: index) -> memref<?x3xf64> {
  %buffer = memref.alloc(%n) : memref<?x3xf64>
  return %buffer : memref<?x3xf64>
}

// CHECK-LABEL: func.func @caller
// CHECK: call @dynamic_size
// CHECK-NEXT: %[[FAILED:.+]] = llvm.call @nxrt_run_failed
func.func @caller(%n: index) -> memref<?x3xf64> {
  %buffer = call @dynamic_size(%n) : (index) -> memref<?x3xf64>
  return %buffer : memref<?x3xf64>
}

// -----

// In a parallel region the function cannot leave from, a NULL buffer ends
// the region's code as its terminator does, and the function checks the run
// after the region.
// CHECK-LABEL: func.func @in_parallel_region
// CHECK: %[[RUN_CTX:.+]] = llvm.call @nxrt_run_current()
// CHECK: omp.parallel {
// CHECK: memref.alloc() : memref<16xf32>
// CHECK: llvm.cond_br %{{.+}}, ^[[OOM:bb[0-9]+]], ^[[REST:bb[0-9]+]]
// CHECK: ^[[OOM]]:
// CHECK: llvm.call @nxrt_out_of_memory(%[[RUN_CTX]], %{{.+}}, %{{.+}})
// CHECK-NEXT: omp.terminator
// CHECK: ^[[REST]]:
// CHECK: memref.dealloc
// CHECK: omp.terminator
// CHECK: }
// CHECK-NEXT: %[[FAILED:.+]] = llvm.call @nxrt_run_failed(%[[RUN_CTX]])
func.func @in_parallel_region() {
  omp.parallel {
    %buffer = memref.alloc() : memref<16xf32>
    memref.dealloc %buffer : memref<16xf32>
    omp.terminator
  }
  return
}

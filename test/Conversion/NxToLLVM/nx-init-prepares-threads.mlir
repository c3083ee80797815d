// RUN: nx-opt %s -split-input-file -convert-nx-to-llvm | FileCheck %s --enable-var-scope

// A module whose parallel loop nests size their teams by
// nxrt_compute_threads has __nx_init start that team, so that the first
// parallel region does not.
// CHECK-LABEL: llvm.func @nxrt_threads_prepare()
// CHECK-LABEL: llvm.func @__nx_init
// CHECK-NEXT: llvm.call @nxrt_threads_prepare() : () -> ()
// CHECK-NEXT: llvm.mlir.addressof @__nx_sites
func.func private @nxrt_compute_threads() -> i32

// -----

// Without parallel code, no team: no call, and no declaration.
// CHECK-NOT: nxrt_threads_prepare
// CHECK-LABEL: llvm.func @__nx_init
// CHECK-NOT: nxrt_threads_prepare
// CHECK: llvm.return
func.func @serial(%x: f32) -> f32 {
  return %x : f32
}

// A module an earlier conversion left with a site list: --convert-to-llvm
// puts the new site at the front of that list, keeps the old record as its
// next one, and reuses __nx_init instead of making a second.
// RUN: nx-opt %s --convert-to-llvm | FileCheck %s --enable-var-scope

// CHECK: llvm.mlir.global internal constant @__nx_sites()
// CHECK-NEXT: %[[FIRST:.+]] = llvm.mlir.addressof @[[$NEW:__nx_site_1]] : !llvm.ptr
// CHECK-NEXT: llvm.return %[[FIRST]]
llvm.mlir.global internal constant @__nx_sites() : !llvm.ptr {
  %0 = llvm.mlir.addressof @__nx_site_0 : !llvm.ptr
  llvm.return %0 : !llvm.ptr
}

// CHECK: llvm.mlir.global internal @[[$OLD:__nx_site_0]]()
llvm.mlir.global internal @__nx_site_0() : !llvm.struct<(ptr, ptr, array<1 x i8>)> {
  %0 = llvm.mlir.zero : !llvm.struct<(ptr, ptr, array<1 x i8>)>
  llvm.return %0 : !llvm.struct<(ptr, ptr, array<1 x i8>)>
}

llvm.func @nxrt_program_add_sites(!llvm.ptr, !llvm.ptr) -> !llvm.ptr

// A second __nx_init would fail the module's verification.
// CHECK-LABEL: llvm.func @__nx_init
llvm.func @__nx_init(%program: !llvm.ptr) -> !llvm.ptr {
  %0 = llvm.mlir.addressof @__nx_sites : !llvm.ptr
  %1 = llvm.load %0 : !llvm.ptr -> !llvm.ptr
  %2 = llvm.call @nxrt_program_add_sites(%program, %1) : (!llvm.ptr, !llvm.ptr) -> !llvm.ptr
  llvm.return %2 : !llvm.ptr
}

// CHECK-LABEL: llvm.func @report
// CHECK: llvm.mlir.addressof @[[$NEW]] : !llvm.ptr
// CHECK: llvm.call @nxrt_invoke(
func.func @report(%x: memref<4xf32>) {
  nx.invoke io_callback @log(%x) outs() {has_side_effect} : (memref<4xf32>) -> ()
  return
}

// The new record's next link is the old record.
// CHECK: llvm.mlir.global internal @[[$NEW]]()
// CHECK: %[[OLDADDR:.+]] = llvm.mlir.addressof @[[$OLD]] : !llvm.ptr
// CHECK: llvm.insertvalue %[[OLDADDR]], %{{.+}}[0]

// Call-site records are named past every symbol of the module that already
// has a record's name, so they never clash with the user's symbols.
// RUN: nx-opt %s --convert-nx-to-llvm | FileCheck %s --enable-var-scope

// CHECK-LABEL: func.func private @__nx_site_0()
// CHECK-LABEL: func.func private @__nx_site_7()
// CHECK-LABEL: func.func @report
// CHECK-DAG: llvm.mlir.global internal @__nx_site_8()
// CHECK-DAG: llvm.mlir.global internal @__nx_site_9()
// CHECK-NOT: @__nx_site_1()
func.func private @__nx_site_0()
func.func private @__nx_site_7()

func.func @report(%x: memref<4xf32>) {
  nx.invoke io_callback @log(%x) outs() {has_side_effect} : (memref<4xf32>) -> ()
  nx.invoke io_callback @log(%x) outs() {has_side_effect} : (memref<4xf32>) -> ()
  return
}

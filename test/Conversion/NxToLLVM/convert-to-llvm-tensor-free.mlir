// Host calls that take and return no tensor need no bufferization: upstream's
// --convert-to-llvm lowers them straight to nxrt_invoke calls, as
// convert-nx-to-llvm does, and the module is plain LLVM.
// RUN: nx-opt %s --convert-to-llvm | FileCheck %s --enable-var-scope

// CHECK-NOT: nx.
// CHECK-LABEL: llvm.func @tick_tock
// CHECK: llvm.call @nxrt_invoke(
// CHECK: llvm.call @nxrt_invoke(
// CHECK: llvm.return
// CHECK-LABEL: llvm.func @__nx_init
// CHECK-NOT: nx.
nx.callback @tick : () -> ()
nx.callback @tock : () -> ()

func.func @tick_tock() {
  nx.io_callback @tick()
  nx.elixir_call @tock() : () -> ()
  return
}

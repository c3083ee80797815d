// Compiled code executed outside any run - here a lowered module under
// upstream mlir-runner with libnxrt loaded, without a host that begins a run
// or calls __nx_init - has nobody to report a failed host call to, and its
// results were never written. It stops the process with a message instead
// of printing garbage and exiting 0.
//
// Upstream mlir-runner cannot load an instrumented libnxrt.
// UNSUPPORTED: sanitizer
// RUN: nx-opt %s --nx-lower-to-cpu \
// RUN:   | not --crash mlir-runner -e main -entry-point-result=void \
// RUN:       -shared-libs=%nx_libs/libnxrt.so 2>&1 \
// RUN:   | FileCheck %s --enable-var-scope

// CHECK: nxrt: fatal: a call site invoked outside a run (call nxrt_run_begin first)
nx.callback @produce : (tensor<2xf32>) -> tensor<2xf32>
nx.callback @consume : (tensor<2xf32>) -> ()

func.func @main() {
  %x = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %y = nx.elixir_call @produce(%x) : (tensor<2xf32>) -> tensor<2xf32>
  nx.io_callback @consume(%y) : tensor<2xf32>
  return
}

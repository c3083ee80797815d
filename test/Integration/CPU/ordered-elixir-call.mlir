// Ordered elixir_calls (callbacks that return values, in program order) and
// ordered io_callbacks run in program order among themselves, compiled
// whole and split into stages at the callbacks.
// RUN: nx-runner %s --entry=ordered --input='[1, 2, 3]:tensor<3xf32>' --input='[10, 20, 30]:tensor<3xf32>' \
// RUN:   | FileCheck %s --enable-var-scope
// RUN: nx-runner %s --entry=ordered --separate-stages --input='[1, 2, 3]:tensor<3xf32>' --input='[10, 20, 30]:tensor<3xf32>' \
// RUN:   | FileCheck %s --enable-var-scope
// RUN: nx-runner %s --entry=ordered --dispatch=bridge --input='[1, 2, 3]:tensor<3xf32>' --input='[10, 20, 30]:tensor<3xf32>' \
// RUN:   | FileCheck %s --enable-var-scope --check-prefixes=CHECK,BRIDGE

nx.callback @nx.debug.print : (tensor<3xf32>) -> ()
nx.callback @nx.debug.identity : (tensor<3xf32>) -> tensor<3xf32>

// The prints come in program order although no data orders them.
// CHECK: ordered-elixir-call.mlir:[[@LINE+9]]:{{[0-9]+}}: tensor<3xf32> = [10, 20, 30]
// CHECK-NEXT: ordered-elixir-call.mlir:[[@LINE+9]]:{{[0-9]+}}: tensor<3xf32> = [1, 2, 3]
// CHECK-NEXT: ordered-elixir-call.mlir:[[@LINE+12]]:{{[0-9]+}}: tensor<3xf32> = [2, 4, 6]
// CHECK-NEXT: ordered-elixir-call.mlir:[[@LINE+12]]:{{[0-9]+}}: tensor<3xf32> = [20, 40, 60]
// CHECK-NEXT: result #0: tensor<3xf32> = [2, 4, 6]
// CHECK-NEXT: result #1: tensor<3xf32> = [20, 40, 60]
// BRIDGE-NEXT: bridge: served 5 callback request(s)
// CHECK-NOT: {{.}}
func.func @ordered(%x: tensor<3xf32>, %y: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  nx.elixir_call ordered @nx.debug.print(%y) : (tensor<3xf32>) -> ()
  %a = nx.io_callback ordered @nx.debug.print(%x) : tensor<3xf32>
  %x2 = arith.addf %a, %a : tensor<3xf32>
  %y2 = arith.addf %y, %y : tensor<3xf32>
  %b = nx.elixir_call ordered @nx.debug.identity(%x2) : (tensor<3xf32>) -> tensor<3xf32>
  nx.elixir_call ordered @nx.debug.print(%b) : (tensor<3xf32>) -> ()
  %c = nx.io_callback ordered @nx.debug.print(%y2) : tensor<3xf32>
  return %b, %c : tensor<3xf32>, tensor<3xf32>
}

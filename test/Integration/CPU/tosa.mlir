// A TOSA program runs through nx-lower-to-cpu, with a host callback between
// TOSA ops.
// RUN: nx-runner %s --input='[-1, 2, -3, 4]:tensor<4xf32>' \
// RUN:   | FileCheck %s --enable-var-scope

nx.callback @nx.debug.print : (tensor<4xf32>) -> ()

// CHECK: tosa.mlir:[[@LINE+5]]:{{[0-9]+}}: tensor<4xf32> = [1, 2, 3, 4]
// CHECK-NEXT: result #0: tensor<4xf32> = [0, 4, 0, 8]
// CHECK-NOT: {{.}}
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tosa.abs %x : (tensor<4xf32>) -> tensor<4xf32>
  %1 = nx.io_callback @nx.debug.print(%0) : tensor<4xf32>
  %2 = tosa.add %1, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %2 : tensor<4xf32>
}

// blocks-only lowers nx.block ops (through the registry, or inlined) and
// leaves callbacks and streams for nx-lower-to-cpu to serve directly.
// RUN: nx-opt %s -convert-nx-to-custom-call=blocks-only | FileCheck %s --enable-var-scope

nx.callback @log : (tensor<3x3xf32>) -> ()

// CHECK-LABEL: func.func @mixed
// CHECK-SAME: (%[[A:.+]]: tensor<3x3xf32>)
// CHECK: %[[QR:.+]]:2 = nx.custom_call @qr_cpu_custom_call_f32(%[[A]])
// CHECK: %[[L:.+]] = nx.io_callback @log(%[[QR]]#0) : tensor<3x3xf32>
// CHECK: %[[S:.+]] = arith.addf %[[L]], %[[L]] : tensor<3x3xf32>
// CHECK: nx.outfeed %[[S]] to "out" : tensor<3x3xf32>
// CHECK-NOT: nx.block
func.func @mixed(%a: tensor<3x3xf32>) -> tensor<3x3xf32> {
  %q, %r = nx.block "Nx.Block.LinAlg.QR" {mode = "reduced"} (%a) : (tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<3x3xf32>) {
  ^bb0(%m: tensor<3x3xf32>):
    nx.yield %m, %m : tensor<3x3xf32>, tensor<3x3xf32>
  }
  %l = nx.io_callback @log(%q) : tensor<3x3xf32>
  // No registry entry: the default region is inlined.
  %s = nx.block "Example.Double" {} (%l) : (tensor<3x3xf32>) -> tensor<3x3xf32> {
  ^bb0(%x: tensor<3x3xf32>):
    %d = arith.addf %x, %x : tensor<3x3xf32>
    nx.yield %d : tensor<3x3xf32>
  }
  nx.outfeed %s to "out" : tensor<3x3xf32>
  return %s : tensor<3x3xf32>
}

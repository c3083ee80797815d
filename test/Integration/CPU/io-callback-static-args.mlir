// An io_callback's static args reach its handler: nx.debug.print prints its
// `label` instead of the op's location, inline and bridged.
//
// RUN: nx-runner %s --input='[1, 2]:tensor<2xf32>' | FileCheck %s
// RUN: nx-runner %s --dispatch=bridge --input='[1, 2]:tensor<2xf32>' | FileCheck %s

nx.callback @nx.debug.print : (tensor<2xf32>) -> ()

// CHECK:      doubled: tensor<2xf32> = [2, 4]
// CHECK-NEXT: result #0: tensor<2xf32> = [2, 4]
func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %y = arith.addf %x, %x : tensor<2xf32>
  %z = nx.io_callback @nx.debug.print(%y) static_args {label = "doubled"} : tensor<2xf32>
  return %z : tensor<2xf32>
}

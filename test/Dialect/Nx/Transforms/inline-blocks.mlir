// RUN: nx-opt %s -nx-inline-blocks | FileCheck %s --enable-var-scope

// Even a kind the registry would lower (QR) is inlined; nested blocks too.
// CHECK-LABEL: func.func @inline
// CHECK-SAME: (%[[A:.+]]: tensor<2x2xf32>)
// CHECK-NEXT: %[[N:.+]] = arith.negf %[[A]] : tensor<2x2xf32>
// CHECK-NEXT: %[[D:.+]] = arith.addf %[[N]], %[[N]] : tensor<2x2xf32>
// CHECK-NEXT: return %[[D]], %[[A]]
// CHECK-NOT: nx.block
func.func @inline(%a: tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>) {
  %q, %r = nx.block "Nx.Block.LinAlg.QR" {mode = "reduced"} (%a) : (tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>) {
  ^bb0(%m: tensor<2x2xf32>):
    %n = arith.negf %m : tensor<2x2xf32>
    %d = nx.block "Inner" {} (%n) : (tensor<2x2xf32>) -> tensor<2x2xf32> {
    ^bb0(%x: tensor<2x2xf32>):
      %y = arith.addf %x, %x : tensor<2x2xf32>
      nx.yield %y : tensor<2x2xf32>
    }
    nx.yield %d, %m : tensor<2x2xf32>, tensor<2x2xf32>
  }
  return %q, %r : tensor<2x2xf32>, tensor<2x2xf32>
}

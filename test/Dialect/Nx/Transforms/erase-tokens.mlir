// RUN: nx-opt %s -nx-erase-tokens | FileCheck %s --enable-var-scope

// The entry function's token argument and result go, and so do those of
// the functions it calls; a call's dropped token result becomes a fresh
// token where it was used.
// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[X:.+]]: tensor<3xf32> {bufferization.writable = false}) -> tensor<3xf32>
// CHECK: %[[R:.+]] = call @helper(%[[X]]) : (tensor<3xf32>) -> tensor<3xf32>
// CHECK: %[[T:.+]] = nx.create_token : !nx.token
// CHECK: nx.after_all %[[T]] : !nx.token
// CHECK: return %[[R]] : tensor<3xf32>
// CHECK-LABEL: func.func private @helper
// CHECK-SAME: (%[[Y:.+]]: tensor<3xf32>) -> tensor<3xf32>
// CHECK: return %[[Y]]
// CHECK-LABEL: func.func private @external(tensor<2xf32>) -> tensor<2xf32>
func.func @main(%t: !nx.token, %x: tensor<3xf32> {bufferization.writable = false}) -> (!nx.token, tensor<3xf32>) {
  %t1, %r = call @helper(%t, %x) : (!nx.token, tensor<3xf32>) -> (!nx.token, tensor<3xf32>)
  %t2 = nx.after_all %t1 : !nx.token
  return %t2, %r : !nx.token, tensor<3xf32>
}
func.func private @helper(%t: !nx.token, %y: tensor<3xf32>) -> (!nx.token, tensor<3xf32>) {
  return %t, %y : !nx.token, tensor<3xf32>
}
func.func private @external(!nx.token, tensor<2xf32>) -> tensor<2xf32>

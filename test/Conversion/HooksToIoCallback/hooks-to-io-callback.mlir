// RUN: nx-opt %s -split-input-file --allow-unregistered-dialect -nx-hooks-to-io-callback | FileCheck %s --enable-var-scope

// EXLA's form: each hook is a flag outfeed followed by one outfeed per
// tensor; flag 0 closes the chain.
// CHECK: nx.callback @hook_2 : (tensor<f32>) -> ()
// CHECK: nx.callback @hook_1 : (tensor<3xf32>, tensor<i64>) -> ()
// CHECK-LABEL: func.func @exla_hooks
// CHECK-SAME: (%[[X:.+]]: tensor<3xf32>, %[[N:.+]]: tensor<i64>, %[[S:.+]]: tensor<f32>)
// CHECK-NEXT: %[[H1:.+]]:2 = nx.io_callback ordered @hook_1(%[[X]], %[[N]]) : tensor<3xf32>, tensor<i64>
// CHECK-NEXT: %[[H2:.+]] = nx.io_callback ordered @hook_2(%[[S]]) : tensor<f32>
// CHECK-NEXT: %[[Y:.+]] = arith.addf %[[H1]]#0, %[[H1]]#0 : tensor<3xf32>
// CHECK-NEXT: return %[[Y]], %[[H2]]
// CHECK-NOT: stablehlo
func.func @exla_hooks(%x: tensor<3xf32>, %n: tensor<i64>, %s: tensor<f32>) -> (tensor<3xf32>, tensor<f32>) {
  %t0 = "stablehlo.create_token"() : () -> !stablehlo.token
  %f1 = "stablehlo.constant"() {value = dense<1> : tensor<ui16>} : () -> tensor<ui16>
  %t1 = "stablehlo.outfeed"(%f1, %t0) {outfeed_config = ""} : (tensor<ui16>, !stablehlo.token) -> !stablehlo.token
  %t2 = "stablehlo.outfeed"(%x, %t1) {outfeed_config = ""} : (tensor<3xf32>, !stablehlo.token) -> !stablehlo.token
  %t3 = "stablehlo.outfeed"(%n, %t2) {outfeed_config = ""} : (tensor<i64>, !stablehlo.token) -> !stablehlo.token
  %f2 = "stablehlo.constant"() {value = dense<2> : tensor<ui16>} : () -> tensor<ui16>
  %t4 = "stablehlo.outfeed"(%f2, %t3) {outfeed_config = ""} : (tensor<ui16>, !stablehlo.token) -> !stablehlo.token
  %t5 = "stablehlo.outfeed"(%s, %t4) {outfeed_config = ""} : (tensor<f32>, !stablehlo.token) -> !stablehlo.token
  %f0 = "stablehlo.constant"() {value = dense<0> : tensor<ui16>} : () -> tensor<ui16>
  %t6 = "stablehlo.outfeed"(%f0, %t5) {outfeed_config = ""} : (tensor<ui16>, !stablehlo.token) -> !stablehlo.token
  %y = arith.addf %x, %x : tensor<3xf32>
  return %y, %s : tensor<3xf32>, tensor<f32>
}

// -----

// The compact form (flag and tensors in one outfeed), arith.constant flags,
// a flag used twice and an existing matching declaration.
nx.callback @hook_7 : (tensor<2xf32>) -> ()

// CHECK-LABEL: func.func @compact
// CHECK-SAME: (%[[X:.+]]: tensor<2xf32>)
// CHECK-NEXT: %[[A:.+]] = nx.io_callback ordered @hook_7(%[[X]]) : tensor<2xf32>
// CHECK-NEXT: %[[B:.+]] = nx.io_callback ordered @hook_7(%[[A]]) : tensor<2xf32>
// CHECK-NEXT: return %[[B]]
func.func @compact(%x: tensor<2xf32>) -> tensor<2xf32> {
  %t0 = "stablehlo.create_token"() : () -> !stablehlo.token
  %f7 = arith.constant dense<7> : tensor<ui16>
  %t1 = "stablehlo.outfeed"(%f7, %x, %t0) : (tensor<ui16>, tensor<2xf32>, !stablehlo.token) -> !stablehlo.token
  %t2 = "stablehlo.outfeed"(%f7, %x, %t1) : (tensor<ui16>, tensor<2xf32>, !stablehlo.token) -> !stablehlo.token
  %f0 = arith.constant dense<0> : tensor<ui16>
  %t3 = "stablehlo.outfeed"(%f0, %t2) : (tensor<ui16>, !stablehlo.token) -> !stablehlo.token
  return %x : tensor<2xf32>
}

// -----

// A chain with only the closing flag leaves nothing behind.
// CHECK-LABEL: func.func @empty_chain
// CHECK-NEXT: return
func.func @empty_chain() {
  %t0 = "stablehlo.create_token"() : () -> !stablehlo.token
  %f0 = "stablehlo.constant"() {value = dense<0> : tensor<ui16>} : () -> tensor<ui16>
  %t1 = "stablehlo.outfeed"(%f0, %t0) : (tensor<ui16>, !stablehlo.token) -> !stablehlo.token
  return
}

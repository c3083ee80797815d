// RUN: nx-opt %s -split-input-file -nx-assign-callback-ids | FileCheck %s --enable-var-scope
// Idempotent: a second run changes nothing.
// RUN: nx-opt %s -split-input-file -nx-assign-callback-ids -nx-assign-callback-ids | FileCheck %s --enable-var-scope
// Independent of the passes that ran before.
// RUN: nx-opt %s -split-input-file -canonicalize -nx-assign-callback-ids | FileCheck %s --enable-var-scope

// Ids follow the sorted callback names, not the order of declaration or use.
// CHECK: module attributes {nx.callback_ids = {alpha = 0 : i64, mid = 1 : i64, zeta = 2 : i64}}
// CHECK: nx.callback @zeta : (tensor<2xf32>) -> () attributes {id = 2 : i64}
// CHECK: nx.callback @alpha : (tensor<f64>) -> tensor<f64> attributes {id = 0 : i64}
// CHECK: nx.callback @mid : () -> () attributes {id = 1 : i64}
// CHECK-LABEL: func.func @uses
nx.callback @zeta : (tensor<2xf32>) -> ()
nx.callback @alpha : (tensor<f64>) -> tensor<f64>
nx.callback @mid : () -> ()
func.func @uses(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = nx.io_callback @zeta(%x) : tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// The same callbacks declared in another order get the same ids.
// CHECK: module attributes {nx.callback_ids = {alpha = 0 : i64, mid = 1 : i64, zeta = 2 : i64}}
// CHECK: nx.callback @mid : () -> () attributes {id = 1 : i64}
// CHECK: nx.callback @alpha : (tensor<f64>) -> tensor<f64> attributes {id = 0 : i64}
// CHECK: nx.callback @zeta : (tensor<2xf32>) -> () attributes {id = 2 : i64}
nx.callback @mid : () -> ()
nx.callback @alpha : (tensor<f64>) -> tensor<f64>
nx.callback @zeta : (tensor<2xf32>) -> ()

// -----

// Stale ids are overwritten.
// CHECK: module attributes {nx.callback_ids = {a = 0 : i64, b = 1 : i64}}
// CHECK: nx.callback @b : () -> () attributes {id = 1 : i64}
// CHECK: nx.callback @a : () -> () attributes {id = 0 : i64}
nx.callback @b : () -> () attributes {id = 9 : i64}
nx.callback @a : () -> () attributes {id = 4 : i64}

// -----

// A module without callbacks records an empty map.
// CHECK: module attributes {nx.callback_ids = {}}
// CHECK-LABEL: func.func @nothing
func.func @nothing() {
  return
}

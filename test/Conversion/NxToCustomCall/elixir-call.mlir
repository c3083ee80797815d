// The older EXLA targets (callback-abi=exla-legacy); runtime-callback.mlir
// covers the default, EXLA's exla_runtime_callback.
// RUN: nx-opt %s -split-input-file -nx-assign-callback-ids -convert-nx-to-custom-call=callback-abi=exla-legacy | FileCheck %s --enable-var-scope
// RUN: nx-opt %s -split-input-file -nx-assign-callback-ids -convert-nx-to-custom-call="callback-abi=exla-legacy callback-id-encoding=operand" | FileCheck %s --enable-var-scope --check-prefix=OPERAND
// RUN: nx-opt %s -split-input-file -nx-assign-callback-ids -convert-nx-to-custom-call="callback-abi=exla-legacy callback-server-handle=<0.1234.0> callback-target=my_callback" | FileCheck %s --enable-var-scope --check-prefix=HANDLE

nx.callback @scale : (tensor<4xf32>) -> tensor<4xf32>
nx.callback @split : (tensor<4xf32>, tensor<i64>) -> (tensor<2xf32>, tensor<2xf32>)

// CHECK-LABEL: func.func @calls
// CHECK-SAME: (%[[X:.+]]: tensor<4xf32>, %[[N:.+]]: tensor<i64>)
// CHECK: %[[A:.+]] = nx.custom_call @exla_elixir_callback(%[[X]]) {api_version = 4 : i32, backend_config = {callback_id = array<i64: 0>, callback_id_size = 8 : ui64, static_args = {factor = 2.000000e+00 : f64, mode = "fast"}}, has_side_effect = true} : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: %[[B:.+]]:2 = nx.custom_call @exla_elixir_callback(%[[A]], %[[N]]) {api_version = 4 : i32, backend_config = {callback_id = array<i64: 1>, callback_id_size = 8 : ui64}} : (tensor<4xf32>, tensor<i64>) -> (tensor<2xf32>, tensor<2xf32>)
// CHECK: return %[[B]]#0, %[[B]]#1

// OPERAND-LABEL: func.func @calls
// OPERAND-SAME: (%[[X:.+]]: tensor<4xf32>, %[[N:.+]]: tensor<i64>)
// OPERAND: %[[ID0:.+]] = arith.constant dense<0> : tensor<i64>
// OPERAND: %[[A:.+]] = nx.custom_call @exla_elixir_callback(%[[X]], %[[ID0]]) {api_version = 4 : i32, backend_config = {static_args = {factor = 2.000000e+00 : f64, mode = "fast"}}, has_side_effect = true} : (tensor<4xf32>, tensor<i64>) -> tensor<4xf32>
// OPERAND: %[[ID1:.+]] = arith.constant dense<1> : tensor<i64>
// OPERAND: %[[B:.+]]:2 = nx.custom_call @exla_elixir_callback(%[[A]], %[[N]], %[[ID1]]) {api_version = 4 : i32, backend_config = {}} : (tensor<4xf32>, tensor<i64>, tensor<i64>) -> (tensor<2xf32>, tensor<2xf32>)
// OPERAND: return %[[B]]#0, %[[B]]#1

// HANDLE-LABEL: func.func @calls
// HANDLE: nx.custom_call @my_callback(%{{.+}}) {api_version = 4 : i32, backend_config = {callback_id = array<i64: 0>, callback_id_size = 8 : ui64, callback_server_pid = array<i64: 3329342315200131132, 15920>, callback_server_pid_size = 10 : ui64, static_args = {factor = 2.000000e+00 : f64, mode = "fast"}}, has_side_effect = true}
// HANDLE: nx.custom_call @my_callback(%{{.+}}, %{{.+}}) {api_version = 4 : i32, backend_config = {callback_id = array<i64: 1>, callback_id_size = 8 : ui64, callback_server_pid = array<i64: 3329342315200131132, 15920>, callback_server_pid_size = 10 : ui64}}
func.func @calls(%x: tensor<4xf32>, %n: tensor<i64>) -> (tensor<2xf32>, tensor<2xf32>) {
  %a = nx.elixir_call @scale(%x) static_args {mode = "fast", factor = 2.0 : f64} : (tensor<4xf32>) -> tensor<4xf32>
  %b:2 = nx.elixir_call pure @split(%a, %n) : (tensor<4xf32>, tensor<i64>) -> (tensor<2xf32>, tensor<2xf32>)
  return %b#0, %b#1 : tensor<2xf32>, tensor<2xf32>
}

// -----

// Large ids use the full i64 word; callbacks without results lower too.

nx.callback @notify : (tensor<i1>) -> ()

// CHECK-LABEL: func.func @no_results
// CHECK: nx.custom_call @exla_elixir_callback(%{{.+}}) {api_version = 4 : i32, backend_config = {callback_id = array<i64: 0>, callback_id_size = 8 : ui64}, has_side_effect = true} : (tensor<i1>) -> ()
// OPERAND-LABEL: func.func @no_results
// OPERAND: %[[ID:.+]] = arith.constant dense<0> : tensor<i64>
// OPERAND: nx.custom_call @exla_elixir_callback(%{{.+}}, %[[ID]]) {api_version = 4 : i32, backend_config = {}, has_side_effect = true} : (tensor<i1>, tensor<i64>) -> ()
func.func @no_results(%p: tensor<i1>) {
  nx.elixir_call @notify(%p) : (tensor<i1>) -> ()
  return
}

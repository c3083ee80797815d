// The default callback ABI is what EXLA's main branch emits for
// Nx.runtime_call and Nx.io_call: one target, exla_runtime_callback, typed
// FFI, the callback server's handle (a 1-D ui8 tensor) as operand 0, and a
// backend_config of exactly callback_id, callback_id_size and
// num_aliased_data_outputs. What EXLA's config has no entry for goes into
// nx.callback_attrs.
// RUN: nx-opt %s -split-input-file -nx-assign-callback-ids -convert-nx-to-custom-call | FileCheck %s --enable-var-scope
// RUN: nx-opt %s -split-input-file -nx-assign-callback-ids "-convert-nx-to-custom-call=callback-server-handle=<0.1234.0>" | FileCheck %s --enable-var-scope --check-prefix=HANDLE

nx.callback @scale : (tensor<4xf32>) -> tensor<4xf32>

// A runtime_call: nothing aliased, static args beside the config.
// CHECK-LABEL: func.func @runtime_call
// CHECK-SAME: (%[[X:.+]]: tensor<4xf32>)
// CHECK: %[[SERVER:.+]] = arith.constant dense<0> : tensor<8xui8>
// CHECK: %[[R:.+]] = nx.custom_call @exla_runtime_callback(%[[SERVER]], %[[X]]) {api_version = 4 : i32, backend_config = {callback_id = array<i64: 0>, callback_id_size = 8 : ui64, num_aliased_data_outputs = 0 : ui64}, has_side_effect = true, nx.callback_attrs = {static_args = {factor = 2.000000e+00 : f64}}} : (tensor<8xui8>, tensor<4xf32>) -> tensor<4xf32>
// CHECK: return %[[R]]
// The handle's bytes are the server operand.
// HANDLE-LABEL: func.func @runtime_call
// HANDLE: %[[SERVER:.+]] = arith.constant dense<[60, 48, 46, 49, 50, 51, 52, 46, 48, 62]> : tensor<10xui8>
// HANDLE: nx.custom_call @exla_runtime_callback(%[[SERVER]], %{{.+}}) {{.+}} : (tensor<10xui8>, tensor<4xf32>) -> tensor<4xf32>
func.func @runtime_call(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = nx.elixir_call @scale(%x) static_args {factor = 2.0 : f64} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

nx.callback @scale : (tensor<4xf32>) -> tensor<4xf32>

// A pure call may be dropped or merged: no side effect, and no
// nx.callback_attrs when there is nothing to say.
// CHECK-LABEL: func.func @pure
// CHECK: nx.custom_call @exla_runtime_callback(%{{.+}}, %{{.+}}) {api_version = 4 : i32, backend_config = {callback_id = array<i64: 0>, callback_id_size = 8 : ui64, num_aliased_data_outputs = 0 : ui64}} : (tensor<8xui8>, tensor<4xf32>) -> tensor<4xf32>
func.func @pure(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = nx.elixir_call pure @scale(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

nx.callback @log : (tensor<2x3xf32>) -> ()

// An io_call of one tensor: its one result aliases operand 1 (after the
// server), with StableHLO's empty tuple index for a single result.
// CHECK-LABEL: func.func @io_call
// CHECK-SAME: (%[[X:.+]]: tensor<2x3xf32>)
// CHECK: %[[R:.+]] = nx.custom_call @exla_runtime_callback(%{{.+}}, %[[X]]) {api_version = 4 : i32, backend_config = {callback_id = array<i64: 0>, callback_id_size = 8 : ui64, num_aliased_data_outputs = 1 : ui64}, has_side_effect = true, output_operand_aliases = [#nx.output_operand_alias<output_tuple_indices = [], operand_index = 1, operand_tuple_indices = []>]} : (tensor<8xui8>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: return %[[R]]
func.func @io_call(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = nx.io_callback @log(%x) : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

nx.callback @log : (tensor<2xf32>, tensor<4xi32>) -> ()
nx.callback @step : (tensor<2xf32>) -> tensor<i64>

// Several tensors alias one by one; ordered and optional calls keep their
// flags in nx.callback_attrs and their place in program order, with their
// side effect (EXLA orders its own io_calls the same way: no token).
// CHECK-LABEL: func.func @flags
// CHECK: %[[A:.+]]:2 = nx.custom_call @exla_runtime_callback(%{{.+}}, %{{.+}}, %{{.+}}) {api_version = 4 : i32, backend_config = {callback_id = array<i64: 0>, callback_id_size = 8 : ui64, num_aliased_data_outputs = 2 : ui64}, has_side_effect = true, nx.callback_attrs = {ordered = true, static_args = {label = "x"}}, output_operand_aliases = [#nx.output_operand_alias<output_tuple_indices = [0], operand_index = 1, operand_tuple_indices = []>, #nx.output_operand_alias<output_tuple_indices = [1], operand_index = 2, operand_tuple_indices = []>]} : (tensor<8xui8>, tensor<2xf32>, tensor<4xi32>) -> (tensor<2xf32>, tensor<4xi32>)
// CHECK: %[[B:.+]] = nx.custom_call @exla_runtime_callback(%{{.+}}, %[[A]]#0) {{.+}}num_aliased_data_outputs = 0 : ui64}, has_side_effect = true, nx.callback_attrs = {ordered = true}} : (tensor<8xui8>, tensor<2xf32>) -> tensor<i64>
// CHECK: nx.custom_call @exla_runtime_callback({{.+}}, %[[A]]#1) {{.+}}num_aliased_data_outputs = 2 : ui64}, has_side_effect = true, nx.callback_attrs = {optional = true}, output_operand_aliases
func.func @flags(%x: tensor<2xf32>, %y: tensor<4xi32>) -> (tensor<2xf32>, tensor<i64>) {
  %a:2 = nx.io_callback ordered @log(%x, %y) static_args {label = "x"} : tensor<2xf32>, tensor<4xi32>
  %b = nx.elixir_call ordered @step(%a#0) : (tensor<2xf32>) -> tensor<i64>
  %c:2 = nx.io_callback optional @log(%a#0, %a#1) : tensor<2xf32>, tensor<4xi32>
  return %c#0, %b : tensor<2xf32>, tensor<i64>
}

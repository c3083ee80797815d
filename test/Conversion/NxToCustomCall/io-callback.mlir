// The older EXLA targets (callback-abi=exla-legacy); runtime-callback.mlir
// covers the default, EXLA's exla_runtime_callback.
// RUN: nx-opt %s -split-input-file -nx-assign-callback-ids -convert-nx-to-custom-call=callback-abi=exla-legacy | FileCheck %s --enable-var-scope
// RUN: nx-opt %s -split-input-file -nx-assign-callback-ids -convert-nx-to-custom-call="callback-abi=exla-legacy callback-id-encoding=operand io-callback-target=my_io" | FileCheck %s --enable-var-scope --check-prefix=OPERAND

nx.callback @log : (tensor<2x3xf32>) -> ()
nx.callback @log2 : (tensor<2x3xf32>, tensor<4xi32>) -> ()

// One result: output_tuple_indices = []. Several: [i].
// CHECK-LABEL: func.func @unordered
// CHECK-SAME: (%[[X:.+]]: tensor<2x3xf32>, %[[Y:.+]]: tensor<4xi32>)
// CHECK: %[[A:.+]] = nx.custom_call @exla_io_callback(%[[X]]) {api_version = 4 : i32, backend_config = {callback_id = array<i64: 0>, callback_id_size = 8 : ui64}, has_side_effect = true, output_operand_aliases = [#nx.output_operand_alias<output_tuple_indices = [], operand_index = 0, operand_tuple_indices = []>]} : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: %[[B:.+]]:2 = nx.custom_call @exla_io_callback(%[[A]], %[[Y]]) {api_version = 4 : i32, backend_config = {callback_id = array<i64: 1>, callback_id_size = 8 : ui64}, has_side_effect = true, output_operand_aliases = [#nx.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>, #nx.output_operand_alias<output_tuple_indices = [1], operand_index = 1, operand_tuple_indices = []>]} : (tensor<2x3xf32>, tensor<4xi32>) -> (tensor<2x3xf32>, tensor<4xi32>)
// CHECK: return %[[B]]#0, %[[B]]#1

// The id operand comes last and is not aliased.
// OPERAND-LABEL: func.func @unordered
// OPERAND-SAME: (%[[X:.+]]: tensor<2x3xf32>, %[[Y:.+]]: tensor<4xi32>)
// OPERAND: %[[ID0:.+]] = arith.constant dense<0> : tensor<i64>
// OPERAND: %[[A:.+]] = nx.custom_call @my_io(%[[X]], %[[ID0]]) {api_version = 4 : i32, backend_config = {}, has_side_effect = true, output_operand_aliases = [#nx.output_operand_alias<output_tuple_indices = [], operand_index = 0, operand_tuple_indices = []>]} : (tensor<2x3xf32>, tensor<i64>) -> tensor<2x3xf32>
// OPERAND: %[[ID1:.+]] = arith.constant dense<1> : tensor<i64>
// OPERAND: %[[B:.+]]:2 = nx.custom_call @my_io(%[[A]], %[[Y]], %[[ID1]]) {api_version = 4 : i32, backend_config = {}, has_side_effect = true, output_operand_aliases = [#nx.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>, #nx.output_operand_alias<output_tuple_indices = [1], operand_index = 1, operand_tuple_indices = []>]} : (tensor<2x3xf32>, tensor<4xi32>, tensor<i64>) -> (tensor<2x3xf32>, tensor<4xi32>)
func.func @unordered(%x: tensor<2x3xf32>, %y: tensor<4xi32>) -> (tensor<2x3xf32>, tensor<4xi32>) {
  %a = nx.io_callback @log(%x) : tensor<2x3xf32>
  %b:2 = nx.io_callback @log2(%a, %y) : tensor<2x3xf32>, tensor<4xi32>
  return %b#0, %b#1 : tensor<2x3xf32>, tensor<4xi32>
}

// -----

// Ordered io_callbacks thread a tensor<ui8> token, even when unused and
// independent; unordered ones in between do not take part.

nx.callback @log : (tensor<2x3xf32>) -> ()

// CHECK-LABEL: func.func @ordered
// CHECK-SAME: (%[[X:.+]]: tensor<2x3xf32>, %[[Y:.+]]: tensor<2x3xf32>)
// CHECK: %[[T0:.+]] = arith.constant dense<0> : tensor<ui8>
// CHECK: %[[A:.+]]:2 = nx.custom_call @exla_io_callback(%[[X]], %[[T0]]) {api_version = 4 : i32, backend_config = {callback_id = array<i64: 0>, callback_id_size = 8 : ui64, ordered = true}, has_side_effect = true, output_operand_aliases = [#nx.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>, #nx.output_operand_alias<output_tuple_indices = [1], operand_index = 1, operand_tuple_indices = []>]} : (tensor<2x3xf32>, tensor<ui8>) -> (tensor<2x3xf32>, tensor<ui8>)
// CHECK: %[[U:.+]] = nx.custom_call @exla_io_callback(%[[Y]]) {api_version = 4 : i32, backend_config = {callback_id = array<i64: 0>, callback_id_size = 8 : ui64}, has_side_effect = true, output_operand_aliases = [#nx.output_operand_alias<output_tuple_indices = [], operand_index = 0, operand_tuple_indices = []>]} : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: %[[B:.+]]:2 = nx.custom_call @exla_io_callback(%[[Y]], %[[A]]#1) {api_version = 4 : i32, backend_config = {callback_id = array<i64: 0>, callback_id_size = 8 : ui64, ordered = true}, has_side_effect = true, output_operand_aliases = [#nx.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>, #nx.output_operand_alias<output_tuple_indices = [1], operand_index = 1, operand_tuple_indices = []>]} : (tensor<2x3xf32>, tensor<ui8>) -> (tensor<2x3xf32>, tensor<ui8>)
// CHECK: nx.custom_call @exla_io_callback(%[[X]], %[[B]]#1)
// CHECK: return %[[A]]#0, %[[U]]
func.func @ordered(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %a = nx.io_callback ordered @log(%x) : tensor<2x3xf32>
  %u = nx.io_callback @log(%y) : tensor<2x3xf32>
  %b = nx.io_callback ordered @log(%y) : tensor<2x3xf32>
  %c = nx.io_callback ordered @log(%x) : tensor<2x3xf32>
  return %a, %u : tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// Each function (block) starts its own token chain; an ordered io_callback
// without operands still gets the token.

nx.callback @tick : () -> ()

// CHECK-LABEL: func.func @first
// CHECK: %[[T:.+]] = arith.constant dense<0> : tensor<ui8>
// CHECK: %{{.+}} = nx.custom_call @exla_io_callback(%[[T]]) {api_version = 4 : i32, backend_config = {callback_id = array<i64: 0>, callback_id_size = 8 : ui64, ordered = true}, has_side_effect = true, output_operand_aliases = [#nx.output_operand_alias<output_tuple_indices = [], operand_index = 0, operand_tuple_indices = []>]} : (tensor<ui8>) -> tensor<ui8>
// CHECK-LABEL: func.func @second
// CHECK: %[[T:.+]] = arith.constant dense<0> : tensor<ui8>
// CHECK: nx.custom_call @exla_io_callback(%[[T]])
func.func @first() {
  nx.io_callback ordered @tick()
  return
}
func.func @second() {
  nx.io_callback ordered @tick()
  return
}

// -----

// Static args travel in the backend_config, as an elixir_call's do.
nx.callback @log : (tensor<2x3xf32>) -> ()

// CHECK-LABEL: func.func @labelled
// CHECK: nx.custom_call @exla_io_callback(%{{.+}}) {api_version = 4 : i32, backend_config = {callback_id = array<i64: 0>, callback_id_size = 8 : ui64, static_args = {hook = "metrics", label = "loss"}}, has_side_effect = true
// OPERAND-LABEL: func.func @labelled
// OPERAND: nx.custom_call @my_io(%{{.+}}, %{{.+}}) {api_version = 4 : i32, backend_config = {static_args = {hook = "metrics", label = "loss"}}, has_side_effect = true
func.func @labelled(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %a = nx.io_callback @log(%x) static_args {hook = "metrics", label = "loss"} : tensor<2x3xf32>
  return %a : tensor<2x3xf32>
}

// -----

// An optional hook says so in its backend_config.
nx.callback @hook : (tensor<2x3xf32>) -> ()

// CHECK-LABEL: func.func @optional_hook
// CHECK: nx.custom_call @exla_io_callback(%{{.+}}) {api_version = 4 : i32, backend_config = {callback_id = array<i64: 0>, callback_id_size = 8 : ui64, optional = true}, has_side_effect = true
func.func @optional_hook(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %a = nx.io_callback optional @hook(%x) : tensor<2x3xf32>
  return %a : tensor<2x3xf32>
}

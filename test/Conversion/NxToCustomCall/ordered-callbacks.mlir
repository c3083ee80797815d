// Ordered elixir_calls and ordered io_callbacks share one ordering token per
// block: the token is the last operand (before an operand-encoded id) and
// the last result, and only the token aliases.
// RUN: nx-opt %s -nx-assign-callback-ids -convert-nx-to-custom-call=callback-abi=exla-legacy | FileCheck %s --enable-var-scope
// RUN: nx-opt %s -nx-assign-callback-ids -convert-nx-to-custom-call="callback-abi=exla-legacy callback-id-encoding=operand" | FileCheck %s --enable-var-scope --check-prefix=OPERAND

nx.callback @log : (tensor<2xf32>) -> ()
nx.callback @step : (tensor<2xf32>) -> tensor<i64>

// CHECK-LABEL: func.func @chain
// CHECK-SAME: (%[[X:.+]]: tensor<2xf32>)
// CHECK: %[[T0:.+]] = arith.constant dense<0> : tensor<ui8>
// CHECK: %[[A:.+]]:2 = nx.custom_call @exla_io_callback(%[[X]], %[[T0]]) {{.+}} : (tensor<2xf32>, tensor<ui8>) -> (tensor<2xf32>, tensor<ui8>)
// CHECK: %[[B:.+]]:2 = nx.custom_call @exla_elixir_callback(%[[A]]#0, %[[A]]#1) {api_version = 4 : i32, backend_config = {callback_id = array<i64: 1>, callback_id_size = 8 : ui64, ordered = true}, has_side_effect = true, output_operand_aliases = [#nx.output_operand_alias<output_tuple_indices = [1], operand_index = 1, operand_tuple_indices = []>]} : (tensor<2xf32>, tensor<ui8>) -> (tensor<i64>, tensor<ui8>)
// CHECK: %[[C:.+]]:2 = nx.custom_call @exla_io_callback(%[[A]]#0, %[[B]]#1) {{.+}} : (tensor<2xf32>, tensor<ui8>) -> (tensor<2xf32>, tensor<ui8>)
// CHECK: return %[[B]]#0

// OPERAND-LABEL: func.func @chain
// OPERAND: %[[ID:.+]] = arith.constant dense<1> : tensor<i64>
// OPERAND: nx.custom_call @exla_elixir_callback(%{{.+}}, %{{.+}}, %[[ID]]) {api_version = 4 : i32, backend_config = {ordered = true}, has_side_effect = true, output_operand_aliases = [#nx.output_operand_alias<output_tuple_indices = [1], operand_index = 1, operand_tuple_indices = []>]} : (tensor<2xf32>, tensor<ui8>, tensor<i64>) -> (tensor<i64>, tensor<ui8>)
func.func @chain(%x: tensor<2xf32>) -> tensor<i64> {
  %a = nx.io_callback ordered @log(%x) : tensor<2xf32>
  %n = nx.elixir_call ordered @step(%a) : (tensor<2xf32>) -> tensor<i64>
  %c = nx.io_callback ordered @log(%a) : tensor<2xf32>
  return %n : tensor<i64>
}

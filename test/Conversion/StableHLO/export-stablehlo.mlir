// RUN: nx-opt %s -split-input-file --allow-unregistered-dialect -nx-export-stablehlo | FileCheck %s --enable-var-scope

// CHECK-LABEL: func.func @io_callback
// CHECK-SAME: (%[[X:.+]]: tensor<2x3xf32>)
// CHECK: %[[R:.+]] = "stablehlo.custom_call"(%[[X]]) {api_version = 4 : i32, backend_config = {callback_id = array<i64: 0>, callback_id_size = 8 : ui64}, call_target_name = "exla_io_callback", has_side_effect = true, output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 0, operand_tuple_indices = []>]} : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: return %[[R]]
// CHECK-NOT: nx.custom_call
func.func @io_callback(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = nx.custom_call @exla_io_callback(%x) {
    api_version = 4 : i32, has_side_effect = true,
    backend_config = {callback_id = array<i64: 0>, callback_id_size = 8 : ui64},
    output_operand_aliases = [#nx.output_operand_alias<output_tuple_indices = [], operand_index = 0, operand_tuple_indices = []>]
  } : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// Several results, layouts, called computations, a string backend_config and
// extra attributes.
func.func private @helper(%a: tensor<4xf32>) -> tensor<4xf32>

// CHECK-LABEL: func.func @everything
// CHECK-SAME: (%[[A:.+]]: tensor<4xf32>, %[[B:.+]]: tensor<2x2xi64>)
// CHECK: %[[R:.+]]:2 = "stablehlo.custom_call"(%[[A]], %[[B]]) {api_version = 2 : i32, backend_config = "opaque", call_target_name = "my_target", called_computations = [@helper], mhlo.frontend_attributes = {x = "y"}, operand_layouts = [dense<0> : tensor<1xindex>, dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [1], operand_index = 1, operand_tuple_indices = []>], result_layouts = [dense<0> : tensor<1xindex>, dense<[1, 0]> : tensor<2xindex>]} : (tensor<4xf32>, tensor<2x2xi64>) -> (tensor<4xf32>, tensor<2x2xi64>)
// CHECK: %[[S:.+]] = "stablehlo.custom_call"(%[[R]]#0) {call_target_name = "pure_target"} : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: return %[[S]], %[[R]]#1
func.func @everything(%a: tensor<4xf32>, %b: tensor<2x2xi64>) -> (tensor<4xf32>, tensor<2x2xi64>) {
  %0:2 = nx.custom_call @my_target(%a, %b) {
    api_version = 2 : i32, backend_config = "opaque", called_computations = [@helper],
    operand_layouts = [dense<0> : tensor<1xindex>, dense<[0, 1]> : tensor<2xindex>],
    result_layouts = [dense<0> : tensor<1xindex>, dense<[1, 0]> : tensor<2xindex>],
    output_operand_aliases = [#nx.output_operand_alias<output_tuple_indices = [1], operand_index = 1, operand_tuple_indices = []>],
    mhlo.frontend_attributes = {x = "y"}
  } : (tensor<4xf32>, tensor<2x2xi64>) -> (tensor<4xf32>, tensor<2x2xi64>)
  %1 = nx.custom_call @pure_target(%0#0) : (tensor<4xf32>) -> tensor<4xf32>
  return %1, %0#1 : tensor<4xf32>, tensor<2x2xi64>
}

// RUN: nx-opt %s -split-input-file --allow-unregistered-dialect -nx-import-stablehlo | FileCheck %s --enable-var-scope

// What EXLA emits today for runtime_call: the callback server handle as
// operand 0, callback id words in a typed-FFI backend_config.
// CHECK-LABEL: func.func @exla_runtime_callback
// CHECK-SAME: (%[[PID:.+]]: tensor<27xui8>, %[[X:.+]]: tensor<2xf32>)
// CHECK: %[[R:.+]]:2 = nx.custom_call @exla_runtime_callback(%[[PID]], %[[X]]) {api_version = 4 : i32, backend_config = {callback_id = array<i64: 3399988123389603631, 7>, callback_id_size = 10 : ui64, num_aliased_data_outputs = 0 : ui64}, has_side_effect = true} : (tensor<27xui8>, tensor<2xf32>) -> (tensor<2xf32>, tensor<i64>)
// CHECK: return %[[R]]#0, %[[R]]#1
func.func @exla_runtime_callback(%pid: tensor<27xui8>, %x: tensor<2xf32>) -> (tensor<2xf32>, tensor<i64>) {
  %0:2 = "stablehlo.custom_call"(%pid, %x) {api_version = 4 : i32, backend_config = {callback_id = array<i64: 3399988123389603631, 7>, callback_id_size = 10 : ui64, num_aliased_data_outputs = 0 : ui64}, call_target_name = "exla_runtime_callback", has_side_effect = true} : (tensor<27xui8>, tensor<2xf32>) -> (tensor<2xf32>, tensor<i64>)
  return %0#0, %0#1 : tensor<2xf32>, tensor<i64>
}

// -----

// EXLA's io_callback, written across lines as EXLA prints it.
// CHECK-LABEL: func.func @exla_io_callback
// CHECK: nx.custom_call @exla_io_callback(%{{.+}}, %{{.+}}) {api_version = 4 : i32, backend_config = {callback_id = array<i64: 1>, callback_id_size = 8 : ui64, callback_server_pid = array<i64: 1, 2, 3>, callback_server_pid_size = 20 : ui64}, has_side_effect = true, output_operand_aliases = [#nx.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>, #nx.output_operand_alias<output_tuple_indices = [1], operand_index = 1, operand_tuple_indices = []>]} : (tensor<2x3xf32>, tensor<4xf32>) -> (tensor<2x3xf32>, tensor<4xf32>)
func.func @exla_io_callback(%a: tensor<2x3xf32>, %b: tensor<4xf32>) -> (tensor<2x3xf32>, tensor<4xf32>) {
  %out0, %out1 = "stablehlo.custom_call"(%a, %b) {
    call_target_name = "exla_io_callback",
    has_side_effect = true,
    api_version = 4 : i32,
    output_operand_aliases = [
      #stablehlo.output_operand_alias<
        output_tuple_indices = [0],
        operand_index = 0,
        operand_tuple_indices = []>,
      #stablehlo.output_operand_alias<
        output_tuple_indices = [1],
        operand_index = 1,
        operand_tuple_indices = []>
    ],
    backend_config = {callback_id = array<i64: 1>, callback_id_size = 8 : ui64,
                      callback_server_pid = array<i64: 1, 2, 3>, callback_server_pid_size = 20 : ui64}
  } : (tensor<2x3xf32>, tensor<4xf32>) -> (tensor<2x3xf32>, tensor<4xf32>)
  return %out0, %out1 : tensor<2x3xf32>, tensor<4xf32>
}

// -----

// JAX's FFI callbacks: typed FFI with `index` (or the older `descriptor`),
// no results, layouts and sharding attributes kept as they are.
// CHECK-LABEL: func.func @jax_ffi
// CHECK-SAME: (%[[X:.+]]: tensor<3xf32>)
// CHECK: nx.custom_call @xla_ffi_python_cpu_callback(%[[X]]) {api_version = 4 : i32, backend_config = {index = 0 : ui64}, has_side_effect = true, operand_layouts = [dense<0> : tensor<1xindex>], result_layouts = [], sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_0, []>]>} : (tensor<3xf32>) -> ()
// CHECK: %[[R:.+]] = nx.custom_call @xla_ffi_python_cpu_callback(%[[X]]) {api_version = 4 : i32, backend_config = {descriptor = 126001424235520 : ui64}, has_side_effect = true, operand_layouts = [dense<0> : tensor<1xindex>], result_layouts = [dense<0> : tensor<1xindex>], xla_shape = "f32[3]{0}"} : (tensor<3xf32>) -> tensor<3xf32>
// CHECK: nx.custom_call @xla_ffi_python_cpu_callback(%[[X]]) {backend_config = "", has_side_effect = true, mhlo.backend_config = {index = 2 : ui64}} : (tensor<3xf32>) -> ()
// CHECK: return %[[R]]
func.func @jax_ffi(%x: tensor<3xf32>) -> tensor<3xf32> {
  "stablehlo.custom_call"(%x) {api_version = 4 : i32, backend_config = {index = 0 : ui64}, call_target_name = "xla_ffi_python_cpu_callback", has_side_effect = true, operand_layouts = [dense<0> : tensor<1xindex>], result_layouts = [], sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_0, []>]>} : (tensor<3xf32>) -> ()
  %0 = "stablehlo.custom_call"(%x) {api_version = 4 : i32, backend_config = {descriptor = 126001424235520 : ui64}, call_target_name = "xla_ffi_python_cpu_callback", has_side_effect = true, operand_layouts = [dense<0> : tensor<1xindex>], result_layouts = [dense<0> : tensor<1xindex>], xla_shape = "f32[3]{0}"} : (tensor<3xf32>) -> tensor<3xf32>
  "stablehlo.custom_call"(%x) {backend_config = "", call_target_name = "xla_ffi_python_cpu_callback", has_side_effect = true, mhlo.backend_config = {index = 2 : ui64}} : (tensor<3xf32>) -> ()
  return %0 : tensor<3xf32>
}

// -----

// JAX's legacy host callback: the descriptor as a tensor<i64> operand 0.
// CHECK-LABEL: func.func @jax_legacy
// CHECK: nx.custom_call @xla_python_cpu_callback(%{{.+}}, %{{.+}}) {api_version = 2 : i32, backend_config = "56238273106176", has_side_effect = true, operand_layouts = [dense<> : tensor<0xindex>, dense<> : tensor<0xindex>], result_layouts = [dense<> : tensor<0xindex>]} : (tensor<i64>, tensor<f64>) -> tensor<i64>
func.func @jax_legacy(%c: tensor<i64>, %x: tensor<f64>) -> tensor<i64> {
  %0 = "stablehlo.custom_call"(%c, %x) {api_version = 2 : i32, backend_config = "56238273106176", call_target_name = "xla_python_cpu_callback", has_side_effect = true, operand_layouts = [dense<> : tensor<0xindex>, dense<> : tensor<0xindex>], result_layouts = [dense<> : tensor<0xindex>]} : (tensor<i64>, tensor<f64>) -> tensor<i64>
  return %0 : tensor<i64>
}

// -----

// Other dialects' ops are left alone.
// CHECK-LABEL: func.func @others
// CHECK: "stablehlo.add"
func.func @others(%x: tensor<f64>) -> tensor<f64> {
  %0 = "stablehlo.add"(%x, %x) : (tensor<f64>, tensor<f64>) -> tensor<f64>
  return %0 : tensor<f64>
}

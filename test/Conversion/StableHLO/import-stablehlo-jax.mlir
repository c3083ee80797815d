// What JAX emits for its host callbacks, as `print_generic_op_form=True`
// prints it with MLIR 22: inherent attributes as properties (`<{...}>`), the
// callback index in the discardable `mhlo.backend_config` next to an empty
// string backend_config, layouts, frontend attributes, a sharding, and a
// leading token when the callback is ordered.
// RUN: nx-opt %s -split-input-file --allow-unregistered-dialect -nx-import-stablehlo | FileCheck %s --enable-var-scope

// pure_callback: no side effect, no token. (Default values, api_version 1
// and has_side_effect false, are not printed.)
// CHECK-LABEL: func.func @pure_callback
// CHECK-SAME: (%[[X:.+]]: tensor<3xf32>)
// CHECK: %[[R:.+]] = nx.custom_call @xla_ffi_python_cpu_callback(%[[X]]) {backend_config = "", mhlo.backend_config = {index = 0 : ui64}, mhlo.frontend_attributes = {_xla_compute_type = "host"}, mhlo.sharding = "{maximal device=0}", operand_layouts = [dense<0> : tensor<1xindex>], result_layouts = [dense<0> : tensor<1xindex>]} : (tensor<3xf32>) -> tensor<3xf32>
// CHECK: return %[[R]]
func.func @pure_callback(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = "stablehlo.custom_call"(%x) <{api_version = 1 : i32, backend_config = "", call_target_name = "xla_ffi_python_cpu_callback", has_side_effect = false, operand_layouts = [dense<0> : tensor<1xindex>], result_layouts = [dense<0> : tensor<1xindex>]}> {mhlo.backend_config = {index = 0 : ui64}, mhlo.frontend_attributes = {_xla_compute_type = "host"}, mhlo.sharding = "{maximal device=0}"} : (tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// Unordered io_callback on the GPU target, with no results.
// CHECK-LABEL: func.func @io_callback_gpu
// CHECK: nx.custom_call @xla_ffi_python_gpu_callback(%{{.+}}) {backend_config = "", has_side_effect = true, mhlo.backend_config = {index = 1 : ui64}, operand_layouts = [dense<[1, 0]> : tensor<2xindex>], result_layouts = []} : (tensor<2x2xi32>) -> ()
func.func @io_callback_gpu(%x: tensor<2x2xi32>) {
  "stablehlo.custom_call"(%x) <{api_version = 1 : i32, backend_config = "", call_target_name = "xla_ffi_python_gpu_callback", has_side_effect = true, operand_layouts = [dense<[1, 0]> : tensor<2xindex>], result_layouts = []}> {mhlo.backend_config = {index = 1 : ui64}} : (tensor<2x2xi32>) -> ()
  return
}

// -----

// Ordered io_callback: the entry function takes and returns the ordering
// token, the callback takes it first and returns the next one first. A
// token's layout is empty.
// CHECK-LABEL: func.func public @main
// CHECK-SAME: (%[[T:.+]]: !nx.token {jax.token = true}, %[[X:.+]]: tensor<f32>) -> (!nx.token {jax.token = true}, tensor<f32>)
// CHECK: %[[R:.+]]:2 = nx.custom_call @xla_ffi_python_cpu_callback(%[[T]], %[[X]]) {backend_config = "", has_side_effect = true, mhlo.backend_config = {index = 2 : ui64}, operand_layouts = [dense<> : tensor<0xindex>, dense<> : tensor<0xindex>], result_layouts = [dense<> : tensor<0xindex>, dense<> : tensor<0xindex>]} : (!nx.token, tensor<f32>) -> (!nx.token, tensor<f32>)
// CHECK: return %[[R]]#0, %[[R]]#1 : !nx.token, tensor<f32>
func.func public @main(%arg0: !stablehlo.token {jax.token = true}, %arg1: tensor<f32>) -> (!stablehlo.token {jax.token = true}, tensor<f32>) {
  %0:2 = "stablehlo.custom_call"(%arg0, %arg1) <{api_version = 1 : i32, backend_config = "", call_target_name = "xla_ffi_python_cpu_callback", has_side_effect = true, operand_layouts = [dense<> : tensor<0xindex>, dense<> : tensor<0xindex>], result_layouts = [dense<> : tensor<0xindex>, dense<> : tensor<0xindex>]}> {mhlo.backend_config = {index = 2 : ui64}} : (!stablehlo.token, tensor<f32>) -> (!stablehlo.token, tensor<f32>)
  return %0#0, %0#1 : !stablehlo.token, tensor<f32>
}

// -----

// The typed-FFI form: the index in a dictionary backend_config.
// CHECK-LABEL: func.func @ffi_dictionary
// CHECK: nx.custom_call @xla_ffi_python_cpu_callback(%{{.+}}) {api_version = 4 : i32, backend_config = {index = 3 : ui64}, has_side_effect = true} : (tensor<2xi64>) -> ()
func.func @ffi_dictionary(%x: tensor<2xi64>) {
  "stablehlo.custom_call"(%x) <{api_version = 4 : i32, backend_config = {index = 3 : ui64}, call_target_name = "xla_ffi_python_cpu_callback", has_side_effect = true}> : (tensor<2xi64>) -> ()
  return
}

// -----

// The legacy callback: the descriptor is operand 0, then the token.
// CHECK-LABEL: func.func @legacy
// CHECK: %[[D:.+]] = arith.constant dense<7> : tensor<ui64>
// CHECK: nx.custom_call @xla_python_cpu_callback(%[[D]], %{{.+}}, %{{.+}}) {api_version = 2 : i32, backend_config = "", has_side_effect = true} : (tensor<ui64>, !nx.token, tensor<4xf32>) -> (!nx.token, tensor<4xf32>)
func.func @legacy(%t: !stablehlo.token, %x: tensor<4xf32>) -> (!stablehlo.token, tensor<4xf32>) {
  %d = arith.constant dense<7> : tensor<ui64>
  %0:2 = "stablehlo.custom_call"(%d, %t, %x) <{api_version = 2 : i32, backend_config = "", call_target_name = "xla_python_cpu_callback", has_side_effect = true}> : (tensor<ui64>, !stablehlo.token, tensor<4xf32>) -> (!stablehlo.token, tensor<4xf32>)
  return %0#0, %0#1 : !stablehlo.token, tensor<4xf32>
}

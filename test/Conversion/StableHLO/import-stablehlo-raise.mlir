// nx-import-stablehlo{raise-callbacks}: JAX's and EXLA's host callbacks
// become nx callbacks.
// RUN: nx-opt %s -split-input-file --allow-unregistered-dialect "-nx-import-stablehlo=raise-callbacks" | FileCheck %s --enable-var-scope

// JAX: pure_callback -> pure elixir_call; io_callback with results ->
// elixir_call; ordered io_callback without results -> ordered io_callback,
// and the token it returned is the token it took.
// CHECK: nx.callback @jax_callback_0 : (tensor<3xf32>) -> tensor<3xf32>
// CHECK: nx.callback @jax_callback_1 : (tensor<3xf32>) -> tensor<i32>
// CHECK: nx.callback @jax_callback_2 : (tensor<3xf32>) -> ()
// CHECK-LABEL: func.func public @main
// CHECK-SAME: (%[[T:.+]]: !nx.token, %[[X:.+]]: tensor<3xf32>) -> (!nx.token, tensor<3xf32>, tensor<i32>)
// CHECK: %[[P:.+]] = nx.elixir_call pure @jax_callback_0(%[[X]]) : (tensor<3xf32>) -> tensor<3xf32>
// CHECK: %[[N:.+]] = nx.elixir_call @jax_callback_1(%[[P]]) : (tensor<3xf32>) -> tensor<i32>
// CHECK: %{{.+}} = nx.io_callback ordered @jax_callback_2(%[[P]]) : tensor<3xf32>
// CHECK: return %[[T]], %[[P]], %[[N]] : !nx.token, tensor<3xf32>, tensor<i32>
func.func public @main(%arg0: !stablehlo.token, %arg1: tensor<3xf32>) -> (!stablehlo.token, tensor<3xf32>, tensor<i32>) {
  %0 = "stablehlo.custom_call"(%arg1) <{api_version = 1 : i32, backend_config = "", call_target_name = "xla_ffi_python_cpu_callback", has_side_effect = false, operand_layouts = [dense<0> : tensor<1xindex>], result_layouts = [dense<0> : tensor<1xindex>]}> {mhlo.backend_config = {index = 0 : ui64}} : (tensor<3xf32>) -> tensor<3xf32>
  %1 = "stablehlo.custom_call"(%0) <{api_version = 1 : i32, backend_config = "", call_target_name = "xla_ffi_python_cpu_callback", has_side_effect = true, operand_layouts = [dense<0> : tensor<1xindex>], result_layouts = [dense<> : tensor<0xindex>]}> {mhlo.backend_config = {index = 1 : ui64}} : (tensor<3xf32>) -> tensor<i32>
  %2 = "stablehlo.custom_call"(%arg0, %0) <{api_version = 1 : i32, backend_config = "", call_target_name = "xla_ffi_python_cpu_callback", has_side_effect = true, operand_layouts = [dense<> : tensor<0xindex>, dense<0> : tensor<1xindex>], result_layouts = [dense<> : tensor<0xindex>]}> {mhlo.backend_config = {index = 2 : ui64}} : (!stablehlo.token, tensor<3xf32>) -> !stablehlo.token
  return %2, %0, %1 : !stablehlo.token, tensor<3xf32>, tensor<i32>
}

// -----

// An ordered io_callback with results: an ordered elixir_call.
// CHECK: nx.callback @jax_callback_0 : (tensor<3xf32>) -> tensor<i32>
// CHECK-LABEL: func.func @ordered_with_results
// CHECK-SAME: (%[[T:.+]]: !nx.token, %[[X:.+]]: tensor<3xf32>)
// CHECK: %[[N:.+]] = nx.elixir_call ordered @jax_callback_0(%[[X]]) : (tensor<3xf32>) -> tensor<i32>
// CHECK: return %[[T]], %[[N]] : !nx.token, tensor<i32>
func.func @ordered_with_results(%t: !stablehlo.token, %x: tensor<3xf32>) -> (!stablehlo.token, tensor<i32>) {
  %0:2 = "stablehlo.custom_call"(%t, %x) <{api_version = 1 : i32, backend_config = "", call_target_name = "xla_ffi_python_cpu_callback", has_side_effect = true}> {mhlo.backend_config = {index = 0 : ui64}} : (!stablehlo.token, tensor<3xf32>) -> (!stablehlo.token, tensor<i32>)
  return %0#0, %0#1 : !stablehlo.token, tensor<i32>
}

// -----

// The legacy form: the descriptor constant names the callback and goes away.
// CHECK: nx.callback @jax_callback_7 : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-LABEL: func.func @legacy
// CHECK-NOT: arith.constant
// CHECK: nx.elixir_call @jax_callback_7(%{{.+}}) : (tensor<4xf32>) -> tensor<4xf32>
func.func @legacy(%x: tensor<4xf32>) -> tensor<4xf32> {
  %d = arith.constant dense<7> : tensor<ui64>
  %0 = "stablehlo.custom_call"(%d, %x) <{api_version = 2 : i32, backend_config = "", call_target_name = "xla_python_cpu_callback", has_side_effect = true}> : (tensor<ui64>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// EXLA: an id nx wrote names the nx.callback recorded with it; other ids
// (EXLA's serialized terms) name a callback after their bytes. The callback
// server handle is not a callback argument.
// CHECK: nx.callback @exla_callback_65e94404124c : (tensor<2xf32>) -> (tensor<2xf32>, tensor<i64>)
// CHECK: nx.callback @scale : (tensor<2xf32>) -> tensor<2xf32> attributes {id = 0 : i64}
// CHECK: nx.callback @log : (tensor<2xf32>, tensor<i64>) -> () attributes {id = 1 : i64}
// CHECK-LABEL: func.func @exla
// CHECK-SAME: (%[[PID:.+]]: tensor<27xui8>, %[[X:.+]]: tensor<2xf32>, %[[N:.+]]: tensor<i64>)
// CHECK: %[[S:.+]] = nx.elixir_call @scale(%[[X]]) static_args {k = 2 : i64} : (tensor<2xf32>) -> tensor<2xf32>
// CHECK: %[[L:.+]]:2 = nx.io_callback ordered @log(%[[S]], %[[N]]) : tensor<2xf32>, tensor<i64>
// CHECK: %[[R:.+]]:2 = nx.elixir_call @exla_callback_65e94404124c(%[[L]]#0) : (tensor<2xf32>) -> (tensor<2xf32>, tensor<i64>)
// CHECK: return %[[R]]#0, %[[L]]#1
module attributes {nx.callback_ids = {log = 1 : i64, scale = 0 : i64}, nx.callbacks = [{function_type = (tensor<2xf32>) -> tensor<2xf32>, id = 0 : i64, sym_name = "scale"}, {function_type = (tensor<2xf32>, tensor<i64>) -> (), id = 1 : i64, sym_name = "log"}]} {
  func.func @exla(%pid: tensor<27xui8>, %x: tensor<2xf32>, %n: tensor<i64>) -> (tensor<2xf32>, tensor<i64>) {
    %0 = "stablehlo.custom_call"(%x) {api_version = 4 : i32, backend_config = {callback_id = array<i64: 0>, callback_id_size = 8 : ui64, static_args = {k = 2 : i64}}, call_target_name = "exla_elixir_callback", has_side_effect = true} : (tensor<2xf32>) -> tensor<2xf32>
    %t = arith.constant dense<0> : tensor<ui8>
    %1:3 = "stablehlo.custom_call"(%0, %n, %t) {api_version = 4 : i32, backend_config = {callback_id = array<i64: 1>, callback_id_size = 8 : ui64, ordered = true}, call_target_name = "exla_io_callback", has_side_effect = true, output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>, #stablehlo.output_operand_alias<output_tuple_indices = [1], operand_index = 1, operand_tuple_indices = []>, #stablehlo.output_operand_alias<output_tuple_indices = [2], operand_index = 2, operand_tuple_indices = []>]} : (tensor<2xf32>, tensor<i64>, tensor<ui8>) -> (tensor<2xf32>, tensor<i64>, tensor<ui8>)
    %2:2 = "stablehlo.custom_call"(%pid, %1#0) {api_version = 4 : i32, backend_config = {callback_id = array<i64: 83640264747365>, callback_id_size = 6 : ui64, num_aliased_data_outputs = 0 : ui64}, call_target_name = "exla_runtime_callback", has_side_effect = true} : (tensor<27xui8>, tensor<2xf32>) -> (tensor<2xf32>, tensor<i64>)
    return %2#0, %1#1 : tensor<2xf32>, tensor<i64>
  }
}

// -----

// The operand id encoding: the trailing id constant.
// CHECK: nx.callback @scale : (tensor<2xf32>) -> tensor<2xf32> attributes {id = 4 : i64}
// CHECK-LABEL: func.func @operand_id
// CHECK: nx.elixir_call pure @scale(%{{.+}}) : (tensor<2xf32>) -> tensor<2xf32>
module attributes {nx.callback_ids = {scale = 4 : i64}, nx.callbacks = [{function_type = (tensor<2xf32>) -> tensor<2xf32>, id = 4 : i64, sym_name = "scale"}]} {
  func.func @operand_id(%x: tensor<2xf32>) -> tensor<2xf32> {
    %id = arith.constant dense<4> : tensor<i64>
    %0 = "stablehlo.custom_call"(%x, %id) {api_version = 4 : i32, backend_config = {}, call_target_name = "exla_elixir_callback"} : (tensor<2xf32>, tensor<i64>) -> tensor<2xf32>
    return %0 : tensor<2xf32>
  }
}

// -----

// Other targets stay custom calls.
// CHECK-LABEL: func.func @other
// CHECK: nx.custom_call @my_target
func.func @other(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "stablehlo.custom_call"(%x) {call_target_name = "my_target"} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// Earlier EXLA versions of exla_runtime_callback carried the callback
// server's pid in backend_config (callback_server_pid and its size) instead
// of a handle operand: every operand is an argument, and aliases count from
// the first.
// CHECK: nx.callback @exla_callback_83680d6400 : (tensor<3xf32>, tensor<i32>) -> ()
// CHECK: nx.callback @exla_callback_83680d6401 : (tensor<3xf32>) -> tensor<2xf32>
// CHECK-LABEL: func.func @exla_pid_in_config
// CHECK-SAME: (%[[X:.+]]: tensor<3xf32>, %[[I:.+]]: tensor<i32>)
// CHECK: %[[L:.+]]:2 = nx.io_callback @exla_callback_83680d6400(%[[X]], %[[I]]) : tensor<3xf32>, tensor<i32>
// CHECK: %[[R:.+]] = nx.elixir_call @exla_callback_83680d6401(%[[L]]#0) : (tensor<3xf32>) -> tensor<2xf32>
// CHECK: return %[[R]], %[[L]]#1
func.func @exla_pid_in_config(%x: tensor<3xf32>, %i: tensor<i32>) -> (tensor<2xf32>, tensor<i32>) {
  %0:2 = "stablehlo.custom_call"(%x, %i) {api_version = 4 : i32, backend_config = {callback_id = array<i64: 1678600323>, callback_id_size = 5 : ui64, callback_server_pid = array<i64: 7021788455817741187, 1103806595584>, callback_server_pid_size = 14 : ui64, num_aliased_data_outputs = 2 : ui64}, call_target_name = "exla_runtime_callback", has_side_effect = true, output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>, #stablehlo.output_operand_alias<output_tuple_indices = [1], operand_index = 1, operand_tuple_indices = []>]} : (tensor<3xf32>, tensor<i32>) -> (tensor<3xf32>, tensor<i32>)
  %1 = "stablehlo.custom_call"(%0#0) {api_version = 4 : i32, backend_config = {callback_id = array<i64: 5973567619>, callback_id_size = 5 : ui64, callback_server_pid = array<i64: 7021788455817741187, 1103806595584>, callback_server_pid_size = 14 : ui64, num_aliased_data_outputs = 0 : ui64}, call_target_name = "exla_runtime_callback", has_side_effect = true} : (tensor<3xf32>) -> tensor<2xf32>
  return %1, %0#1 : tensor<2xf32>, tensor<i32>
}

// -----

// EXLA's main branch: Nx.io_call is an exla_runtime_callback whose results
// pass its num_aliased_data_outputs arguments through (after the server,
// the entry function's first argument); Nx.runtime_call one with none.
// CHECK: nx.callback @exla_callback_83680d6400 : (tensor<3xf32>, tensor<i32>) -> ()
// CHECK: nx.callback @exla_callback_83680d6401 : (tensor<3xf32>) -> tensor<2xf32>
// CHECK-LABEL: func.func @exla_main
// CHECK-SAME: (%{{.+}}: tensor<8xui8>, %[[X:.+]]: tensor<3xf32>, %[[I:.+]]: tensor<i32>)
// CHECK: %[[L:.+]]:2 = nx.io_callback @exla_callback_83680d6400(%[[X]], %[[I]]) : tensor<3xf32>, tensor<i32>
// CHECK: %[[R:.+]] = nx.elixir_call @exla_callback_83680d6401(%[[L]]#0) : (tensor<3xf32>) -> tensor<2xf32>
// CHECK: return %[[R]], %[[L]]#1
func.func @exla_main(%pid: tensor<8xui8>, %x: tensor<3xf32>, %i: tensor<i32>) -> (tensor<2xf32>, tensor<i32>) {
  %0:2 = "stablehlo.custom_call"(%pid, %x, %i) {api_version = 4 : i32, backend_config = {callback_id = array<i64: 1678600323>, callback_id_size = 5 : ui64, num_aliased_data_outputs = 2 : ui64}, call_target_name = "exla_runtime_callback", has_side_effect = true, output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 1, operand_tuple_indices = []>, #stablehlo.output_operand_alias<output_tuple_indices = [1], operand_index = 2, operand_tuple_indices = []>]} : (tensor<8xui8>, tensor<3xf32>, tensor<i32>) -> (tensor<3xf32>, tensor<i32>)
  %1 = "stablehlo.custom_call"(%pid, %0#0) {api_version = 4 : i32, backend_config = {callback_id = array<i64: 5973567619>, callback_id_size = 5 : ui64, num_aliased_data_outputs = 0 : ui64}, call_target_name = "exla_runtime_callback", has_side_effect = true} : (tensor<8xui8>, tensor<3xf32>) -> tensor<2xf32>
  return %1, %0#1 : tensor<2xf32>, tensor<i32>
}

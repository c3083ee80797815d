// RUN: nx-opt %s -split-input-file --allow-unregistered-dialect -nx-import-stablehlo -verify-diagnostics

// Tokens are imported; other non-tensor types are not.
func.func @not_a_tensor(%t: !stablehlo.future<tensor<f32>>) {
  // expected-error @+1 {{'stablehlo.custom_call' op operand #0 has type '!stablehlo.future<tensor<f32>>'; nx.custom_call takes ranked tensors and tokens only}}
  "stablehlo.custom_call"(%t) {call_target_name = "f"} : (!stablehlo.future<tensor<f32>>) -> ()
  return
}

// -----

func.func @not_a_tensor_result() {
  // expected-error @+1 {{'stablehlo.custom_call' op result #0 has type 'f32'; nx.custom_call returns ranked tensors and tokens only}}
  %0 = "stablehlo.custom_call"() {call_target_name = "f"} : () -> f32
  return
}

// -----

// MLIR 22 prints inherent attributes as properties; the same name in both
// places is ambiguous.
func.func @property_and_attribute(%x: tensor<f32>) {
  // expected-error @+1 {{'stablehlo.custom_call' op has 'call_target_name' both as a property and as an attribute}}
  "stablehlo.custom_call"(%x) <{call_target_name = "f"}> {call_target_name = "g"} : (tensor<f32>) -> ()
  return
}

// -----

func.func @properties_not_a_dictionary(%x: tensor<f32>) {
  // expected-error @+1 {{'stablehlo.custom_call' op expects its properties to be a dictionary, got "f"}}
  "stablehlo.custom_call"(%x) <"f"> : (tensor<f32>) -> ()
  return
}

// -----

func.func @exla_string_config(%x: tensor<f32>) {
  // expected-error @+1 {{'stablehlo.custom_call' op expects a dictionary backend_config for target "exla_io_callback", got "1"}}
  "stablehlo.custom_call"(%x) {backend_config = "1", call_target_name = "exla_io_callback", has_side_effect = true} : (tensor<f32>) -> ()
  return
}

// -----

func.func @create_token_operands(%t: !stablehlo.token) {
  // expected-error @+1 {{'stablehlo.create_token' op expects no operands and one !stablehlo.token result}}
  %0 = "stablehlo.create_token"(%t) : (!stablehlo.token) -> !stablehlo.token
  return
}

// -----

func.func @after_all_tensor(%t: !stablehlo.token, %x: tensor<f32>) {
  // expected-error @+1 {{'stablehlo.after_all' op operand #1 has type 'tensor<f32>', expected !stablehlo.token}}
  %0 = "stablehlo.after_all"(%t, %x) : (!stablehlo.token, tensor<f32>) -> !stablehlo.token
  return
}

// -----

func.func @after_all_no_token() {
  // expected-error @+1 {{'stablehlo.after_all' op expects token operands and one !stablehlo.token result}}
  %0 = "stablehlo.after_all"() : () -> tensor<f32>
  return
}

// -----

func.func @no_target(%x: tensor<f32>) {
  // expected-error @+1 {{'stablehlo.custom_call' op expects a string call_target_name, got <<NULL ATTRIBUTE>>}}
  "stablehlo.custom_call"(%x) : (tensor<f32>) -> ()
  return
}

// -----

func.func @bad_alias(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'stablehlo.custom_call' op expects output_operand_aliases #0 to be a #stablehlo.output_operand_alias, got 3 : i64}}
  %0 = "stablehlo.custom_call"(%x) {call_target_name = "f", output_operand_aliases = [3]} : (tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

// Aliases must satisfy the nx.custom_call (= StableHLO) verifier.
func.func @alias_mismatch(%x: tensor<f32>, %y: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+2 {{'nx.custom_call' op output_operand_alias #0 aliases result #0 of type 'tensor<2xf32>' with operand #0 of type 'tensor<f32>'}}
  // expected-error @+1 {{'stablehlo.custom_call' op cannot be imported as nx.custom_call}}
  %0 = "stablehlo.custom_call"(%x, %y) {call_target_name = "f", output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 0, operand_tuple_indices = []>]} : (tensor<f32>, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @exla_missing_id(%pid: tensor<27xui8>, %x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'stablehlo.custom_call' op expects backend_config entry 'callback_id' for target "exla_runtime_callback"}}
  %0 = "stablehlo.custom_call"(%pid, %x) {api_version = 4 : i32, backend_config = {num_aliased_data_outputs = 0 : ui64}, call_target_name = "exla_runtime_callback", has_side_effect = true} : (tensor<27xui8>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @exla_short_words(%pid: tensor<27xui8>, %x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'stablehlo.custom_call' op has callback_id_size 12, but callback_id holds only 8 bytes}}
  %0 = "stablehlo.custom_call"(%pid, %x) {api_version = 4 : i32, backend_config = {callback_id = array<i64: 1>, callback_id_size = 12 : ui64}, call_target_name = "exla_runtime_callback", has_side_effect = true} : (tensor<27xui8>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @exla_size_type(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'stablehlo.custom_call' op expects backend_config entry 'callback_id_size' to be a ui64, got 8 : i64}}
  %0 = "stablehlo.custom_call"(%x) {api_version = 4 : i32, backend_config = {callback_id = array<i64: 1>, callback_id_size = 8 : i64}, call_target_name = "exla_io_callback", has_side_effect = true} : (tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @exla_no_handle(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'stablehlo.custom_call' op expects the callback server handle, a 1-D ui8 tensor, as its first tensor operand for target "exla_runtime_callback" (or, as earlier EXLA versions wrote it, the server's pid in backend_config 'callback_server_pid')}}
  %0 = "stablehlo.custom_call"(%x) {api_version = 4 : i32, backend_config = {callback_id = array<i64: 1>, callback_id_size = 8 : ui64}, call_target_name = "exla_runtime_callback", has_side_effect = true} : (tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @jax_no_index(%x: tensor<f32>) {
  // expected-error @+1 {{'stablehlo.custom_call' op expects an 'index' (or 'descriptor') entry in a backend_config or mhlo.backend_config dictionary for target "xla_ffi_python_cpu_callback"}}
  "stablehlo.custom_call"(%x) {api_version = 4 : i32, backend_config = {}, call_target_name = "xla_ffi_python_cpu_callback", has_side_effect = true} : (tensor<f32>) -> ()
  return
}

// -----

func.func @jax_legacy_no_descriptor(%x: tensor<f64>) {
  // expected-error @+1 {{'stablehlo.custom_call' op expects the callback descriptor, a tensor<i64> or tensor<ui64>, as operand #0 of target "xla_python_cpu_callback"}}
  "stablehlo.custom_call"(%x) {api_version = 2 : i32, backend_config = "1", call_target_name = "xla_python_cpu_callback", has_side_effect = true} : (tensor<f64>) -> ()
  return
}

// -----

// The alias's body does not parse: the parser's complaint is reported at the
// op, which has a location, not at the text it parsed.
func.func @malformed_alias(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'stablehlo.custom_call' op has a malformed output_operand_aliases #0: #stablehlo.output_operand_alias<bogus> (}}
  %0 = "stablehlo.custom_call"(%x) {call_target_name = "f", output_operand_aliases = [#stablehlo.output_operand_alias<bogus>]} : (tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

// The callbacks nx-export-stablehlo recorded are declared again; a name
// that is already taken is an error.
// expected-error @+1 {{'builtin.module' op declares @a and records it in 'nx.callbacks'}}
module attributes {nx.callbacks = [{function_type = () -> (), sym_name = "a"}]} {
  func.func @a() {
    return
  }
}

// -----

// Unregistered, a custom call may end a function's body as its terminator;
// imported, it could not.
func.func @ends_the_body(%x: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'stablehlo.custom_call' op ends its block, which would have no terminator once the op is imported}}
  "stablehlo.custom_call"(%x) {call_target_name = "t", has_side_effect = true} : (tensor<3xf32>) -> ()
}

// RUN: nx-opt %s -split-input-file --allow-unregistered-dialect "-nx-import-stablehlo=raise-callbacks" -verify-diagnostics

func.func @legacy_descriptor_not_constant(%d: tensor<ui64>, %x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'nx.custom_call' op cannot be raised: its callback descriptor (operand #0) is not a constant}}
  %0 = "stablehlo.custom_call"(%d, %x) {api_version = 2 : i32, backend_config = "", call_target_name = "xla_python_cpu_callback", has_side_effect = true} : (tensor<ui64>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @operand_id_not_constant(%x: tensor<2xf32>, %id: tensor<i64>) -> tensor<2xf32> {
  // expected-error @+1 {{'nx.custom_call' op cannot be raised: it has no backend_config callback_id and its last operand is not a constant id}}
  %0 = "stablehlo.custom_call"(%x, %id) {api_version = 4 : i32, backend_config = {}, call_target_name = "exla_elixir_callback"} : (tensor<2xf32>, tensor<i64>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @not_a_passthrough(%x: tensor<2xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'nx.custom_call' op cannot be raised as nx.io_callback: its results do not pass its arguments through}}
  %0 = "stablehlo.custom_call"(%x) {api_version = 4 : i32, backend_config = {callback_id = array<i64: 1>, callback_id_size = 8 : ui64}, call_target_name = "exla_io_callback", has_side_effect = true} : (tensor<2xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @ordered_without_token() {
  // expected-error @+1 {{'nx.custom_call' op cannot be raised: it is ordered but has no ordering token operand}}
  "stablehlo.custom_call"() {api_version = 4 : i32, backend_config = {callback_id = array<i64: 1>, callback_id_size = 8 : ui64, ordered = true}, call_target_name = "exla_io_callback", has_side_effect = true} : () -> ()
  return
}

// -----

// The same callback used with two signatures.
func.func @two_signatures(%x: tensor<2xf32>, %y: tensor<3xf32>) {
  "stablehlo.custom_call"(%x) {backend_config = "", call_target_name = "xla_ffi_python_cpu_callback", has_side_effect = true, mhlo.backend_config = {index = 0 : ui64}} : (tensor<2xf32>) -> ()
  // expected-error @+1 {{'nx.custom_call' op cannot be raised: callback @jax_callback_0 is used as '(tensor<3xf32>) -> ()' here but declared as '(tensor<2xf32>) -> ()'}}
  "stablehlo.custom_call"(%y) {backend_config = "", call_target_name = "xla_ffi_python_cpu_callback", has_side_effect = true, mhlo.backend_config = {index = 0 : ui64}} : (tensor<3xf32>) -> ()
  return
}

// -----

func.func @jax_callback_0() {
  // expected-error @+1 {{'nx.custom_call' op cannot be raised: @jax_callback_0 is already a 'func.func'}}
  "stablehlo.custom_call"() {backend_config = "", call_target_name = "xla_ffi_python_cpu_callback", has_side_effect = true, mhlo.backend_config = {index = 0 : ui64}} : () -> ()
  return
}

// -----

func.func @token_argument(%t: !stablehlo.token) {
  // expected-error @+1 {{'nx.custom_call' op cannot be raised: callback argument #0 must be a ranked tensor, got '!nx.token'}}
  "stablehlo.custom_call"(%t, %t) {backend_config = "", call_target_name = "xla_ffi_python_cpu_callback", has_side_effect = true, mhlo.backend_config = {index = 0 : ui64}} : (!stablehlo.token, !stablehlo.token) -> ()
  return
}

// -----

func.func @not_a_host_type(%x: tensor<4xf32>) -> tensor<?xf32> {
  // expected-error @+1 {{'nx.custom_call' op cannot be raised: callback result #0 must have a static shape, got 'tensor<?xf32>'}}
  %0 = "stablehlo.custom_call"(%x) {backend_config = "", call_target_name = "xla_ffi_python_cpu_callback", has_side_effect = true, mhlo.backend_config = {index = 0 : ui64}} : (tensor<4xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

func.func @token_types_differ(%x: tensor<2xf32>) -> tensor<2xf32> {
  %t = arith.constant dense<0> : tensor<ui8>
  // expected-error @+1 {{'nx.custom_call' op cannot be raised: its token operand has type 'tensor<ui8>' but its token result 'tensor<i8>'}}
  %0:2 = "stablehlo.custom_call"(%x, %t) {api_version = 4 : i32, backend_config = {callback_id = array<i64: 1>, callback_id_size = 8 : ui64, ordered = true}, call_target_name = "exla_elixir_callback", has_side_effect = true} : (tensor<2xf32>, tensor<ui8>) -> (tensor<2xf32>, tensor<i8>)
  return %0#0 : tensor<2xf32>
}

// -----

// An id wider than 64 bits is not an id.
func.func @wide_operand_id(%x: tensor<2xf32>) -> tensor<2xf32> {
  %id = arith.constant dense<1> : tensor<i128>
  // expected-error @+1 {{'nx.custom_call' op cannot be raised: it has no backend_config callback_id and its last operand is not a constant id}}
  %0 = "stablehlo.custom_call"(%x, %id) {api_version = 4 : i32, backend_config = {}, call_target_name = "exla_elixir_callback"} : (tensor<2xf32>, tensor<i128>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @not_a_host_element_type(%x: tensor<4xi4>) {
  // expected-error @+1 {{'nx.custom_call' op cannot be raised: callback argument #0 has unsupported element type 'i4'; expected i1, i8-i64, ui8-ui64, f16, bf16, f32, f64, complex<f32> or complex<f64>}}
  "stablehlo.custom_call"(%x) {backend_config = "", call_target_name = "xla_ffi_python_cpu_callback", has_side_effect = true, mhlo.backend_config = {index = 0 : ui64}} : (tensor<4xi4>) -> ()
  return
}

// -----

func.func @stream_handle_not_constant(%h: tensor<13xui8>, %x: tensor<4xf32>) {
  // expected-error @+1 {{'nx.custom_call' op cannot be raised: its stream handle (operand #0) is not a constant handle of nxrt's encoding}}
  %0 = "stablehlo.custom_call"(%h, %x) {api_version = 4 : i32, backend_config = {}, call_target_name = "exla_beam_outfeed", has_side_effect = true} : (tensor<13xui8>, tensor<4xf32>) -> tensor<ui8>
  return
}

// -----

// "NXSH", version 1, but a length of 2 for a name of 1 byte.
func.func @stream_handle_of_wrong_length(%x: tensor<4xf32>) {
  %h = arith.constant dense<[78, 88, 83, 72, 1, 0, 0, 0, 2, 0, 0, 0, 115]> : tensor<13xui8>
  // expected-error @+1 {{'nx.custom_call' op cannot be raised: its stream handle (operand #0) is not a constant handle of nxrt's encoding}}
  %0 = "stablehlo.custom_call"(%h, %x) {api_version = 4 : i32, backend_config = {}, call_target_name = "exla_beam_outfeed", has_side_effect = true} : (tensor<13xui8>, tensor<4xf32>) -> tensor<ui8>
  return
}

// -----

func.func @outfeed_flag_used(%x: tensor<4xf32>) -> tensor<ui8> {
  %h = arith.constant dense<[78, 88, 83, 72, 1, 0, 0, 0, 1, 0, 0, 0, 115]> : tensor<13xui8>
  // expected-error @+1 {{'nx.custom_call' op cannot be raised: an outfeed has one result, its success flag, and nothing may use it}}
  %0 = "stablehlo.custom_call"(%h, %x) {api_version = 4 : i32, backend_config = {}, call_target_name = "exla_beam_outfeed", has_side_effect = true} : (tensor<13xui8>, tensor<4xf32>) -> tensor<ui8>
  return %0 : tensor<ui8>
}

// -----

func.func @infeed_without_tag() -> tensor<4xf32> {
  %h = arith.constant dense<[78, 88, 83, 72, 1, 0, 0, 0, 1, 0, 0, 0, 115]> : tensor<13xui8>
  // expected-error @+1 {{'nx.custom_call' op cannot be raised: an infeed takes a stream handle and a tag, and returns the next tag first}}
  %0 = "stablehlo.custom_call"(%h) {api_version = 4 : i32, backend_config = {}, call_target_name = "exla_beam_infeed", has_side_effect = true} : (tensor<13xui8>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @infeed_of_a_dynamic_tensor(%t: tensor<8xui8>) -> tensor<?xf32> {
  %h = arith.constant dense<[78, 88, 83, 72, 1, 0, 0, 0, 1, 0, 0, 0, 115]> : tensor<13xui8>
  // expected-error @+1 {{'nx.custom_call' op cannot be raised: infeed result #1 must have a static shape, got 'tensor<?xf32>'}}
  %0:2 = "stablehlo.custom_call"(%h, %t) {api_version = 4 : i32, backend_config = {}, call_target_name = "exla_beam_infeed", has_side_effect = true} : (tensor<13xui8>, tensor<8xui8>) -> (tensor<8xui8>, tensor<?xf32>)
  return %0#1 : tensor<?xf32>
}

// -----

// EXLA's io_call passes every argument through: num_aliased_data_outputs
// must count them all, and the results.
func.func @partly_aliased(%pid: tensor<8xui8>, %x: tensor<3xf32>, %i: tensor<i32>) -> tensor<3xf32> {
  // expected-error @+1 {{cannot be raised: num_aliased_data_outputs is 1 but it has 2 arguments and 1 results (an io_call passes every argument through)}}
  %0 = "stablehlo.custom_call"(%pid, %x, %i) {api_version = 4 : i32, backend_config = {callback_id = array<i64: 1678600323>, callback_id_size = 5 : ui64, num_aliased_data_outputs = 1 : ui64}, call_target_name = "exla_runtime_callback", has_side_effect = true} : (tensor<8xui8>, tensor<3xf32>, tensor<i32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

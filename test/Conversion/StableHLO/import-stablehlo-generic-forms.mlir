// The two generic forms MLIR 22 reads: inherent attributes as properties
// (what MLIR 22 prints) or in the attribute dictionary (older printers,
// hand-written text). Both import to the same nx.custom_call; VHLO's dense
// ids become the array nx reads.
// RUN: nx-opt %s --allow-unregistered-dialect -nx-import-stablehlo | FileCheck %s --enable-var-scope

// CHECK-LABEL: func.func @forms
// CHECK-SAME: (%[[X:.+]]: tensor<2xf32>)
// CHECK: %[[A:.+]] = nx.custom_call @exla_io_callback(%[[X]]) {api_version = 4 : i32, backend_config = {callback_id = array<i64: 3>, callback_id_size = 8 : ui64}, has_side_effect = true, output_operand_aliases = [#nx.output_operand_alias<output_tuple_indices = [], operand_index = 0, operand_tuple_indices = []>]} : (tensor<2xf32>) -> tensor<2xf32>
// CHECK: %[[B:.+]] = nx.custom_call @exla_io_callback(%[[A]]) {api_version = 4 : i32, backend_config = {callback_id = array<i64: 3>, callback_id_size = 8 : ui64}, has_side_effect = true, output_operand_aliases = [#nx.output_operand_alias<output_tuple_indices = [], operand_index = 0, operand_tuple_indices = []>]} : (tensor<2xf32>) -> tensor<2xf32>
// CHECK: %[[C:.+]] = nx.custom_call @exla_io_callback(%[[B]]) {api_version = 4 : i32, backend_config = {callback_id = array<i64: 3>, callback_id_size = 8 : ui64}, has_side_effect = true, output_operand_aliases = [#nx.output_operand_alias<output_tuple_indices = [], operand_index = 0, operand_tuple_indices = []>]} : (tensor<2xf32>) -> tensor<2xf32>
// CHECK: nx.custom_call @exla_io_callback(%[[C]]) {api_version = 4 : i32, backend_config = {callback_id = array<i64: 3>, callback_id_size = 8 : ui64}, has_side_effect = true, mhlo.frontend_attributes = {a = "b"}, output_operand_aliases
func.func @forms(%x: tensor<2xf32>) -> tensor<2xf32> {
  // Properties.
  %0 = "stablehlo.custom_call"(%x) <{api_version = 4 : i32, backend_config = {callback_id = array<i64: 3>, callback_id_size = 8 : ui64}, call_target_name = "exla_io_callback", has_side_effect = true, output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 0, operand_tuple_indices = []>]}> : (tensor<2xf32>) -> tensor<2xf32>
  // Attribute dictionary.
  %1 = "stablehlo.custom_call"(%0) {api_version = 4 : i32, backend_config = {callback_id = array<i64: 3>, callback_id_size = 8 : ui64}, call_target_name = "exla_io_callback", has_side_effect = true, output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 0, operand_tuple_indices = []>]} : (tensor<2xf32>) -> tensor<2xf32>
  // A portable artifact's dense id.
  %2 = "stablehlo.custom_call"(%1) <{api_version = 4 : i32, backend_config = {callback_id = dense<3> : tensor<1xi64>, callback_id_size = 8 : ui64}, call_target_name = "exla_io_callback", has_side_effect = true, output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 0, operand_tuple_indices = []>]}> : (tensor<2xf32>) -> tensor<2xf32>
  // Both: inherent attributes as properties, discardable ones outside.
  %3 = "stablehlo.custom_call"(%2) <{api_version = 4 : i32, call_target_name = "exla_io_callback", has_side_effect = true, output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 0, operand_tuple_indices = []>]}> {backend_config = {callback_id = array<i64: 3>, callback_id_size = 8 : ui64}, mhlo.frontend_attributes = {a = "b"}} : (tensor<2xf32>) -> tensor<2xf32>
  return %3 : tensor<2xf32>
}

// A plain XLA FFI call (not a callback): api_version 1 with its attributes
// in `mhlo.backend_config` (how JAX builds every ffi_call), and the typed
// form with a dictionary backend_config. Both are imported as they are.
// CHECK-LABEL: func.func @ffi_calls
// CHECK: %[[A:.+]] = nx.custom_call @my_ffi_kernel(%{{.+}}) {backend_config = "", has_side_effect = true, mhlo.backend_config = {alpha = 2.500000e-01 : f32, mode = "fast"}, operand_layouts = [dense<[1, 0]> : tensor<2xindex>], result_layouts = [dense<[1, 0]> : tensor<2xindex>]} : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: nx.custom_call @my_ffi_kernel(%[[A]]) {api_version = 4 : i32, backend_config = {alpha = 2.500000e-01 : f32, mode = "fast"}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
func.func @ffi_calls(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = "stablehlo.custom_call"(%x) <{api_version = 1 : i32, backend_config = "", call_target_name = "my_ffi_kernel", has_side_effect = true, operand_layouts = [dense<[1, 0]> : tensor<2xindex>], result_layouts = [dense<[1, 0]> : tensor<2xindex>]}> {mhlo.backend_config = {alpha = 2.500000e-01 : f32, mode = "fast"}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = "stablehlo.custom_call"(%0) <{api_version = 4 : i32, backend_config = {alpha = 2.500000e-01 : f32, mode = "fast"}, call_target_name = "my_ffi_kernel"}> : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}

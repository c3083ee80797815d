// One-shot bufferization of nx ops through their BufferizableOpInterface
// models: each host interaction becomes one nx.invoke on buffers.
// RUN: nx-opt %s -split-input-file -one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" | FileCheck %s --enable-var-scope

nx.callback @f : (tensor<4xf32>) -> (tensor<4xf32>, tensor<i64>)

// elixir_call results get fresh buffers the host writes into.
// CHECK-LABEL: func.func @elixir_call
// CHECK-SAME: (%[[X:.+]]: memref<4xf32>)
// CHECK: %[[A:.+]] = memref.alloc() {{.*}} : memref<4xf32>
// CHECK: %[[B:.+]] = memref.alloc() {{.*}} : memref<i64>
// CHECK: nx.invoke elixir_call @f(%[[X]]) outs(%[[A]], %[[B]]) attrs {k = 2 : i64} {has_side_effect} : (memref<4xf32>) -> (memref<4xf32>, memref<i64>)
// CHECK: return %[[A]], %[[B]]
func.func @elixir_call(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<i64>) {
  %0:2 = nx.elixir_call @f(%x) static_args {k = 2} : (tensor<4xf32>) -> (tensor<4xf32>, tensor<i64>)
  return %0#0, %0#1 : tensor<4xf32>, tensor<i64>
}

// A pure call has no host effect.
// CHECK-LABEL: func.func @pure_elixir_call
// CHECK: nx.invoke elixir_call @f(%{{.+}}) outs(%{{.+}}, %{{.+}}) : (memref<4xf32>) -> (memref<4xf32>, memref<i64>)
func.func @pure_elixir_call(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0:2 = nx.elixir_call pure @f(%x) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<i64>)
  return %0#0 : tensor<4xf32>
}

// -----

nx.callback @log : (tensor<4xf32>, tensor<i64>) -> ()

// io_callback results are the operand buffers: no allocation, no copy, even
// when the operand is used again afterwards.
// CHECK-LABEL: func.func @io_callback
// CHECK-SAME: (%[[X:.+]]: memref<4xf32>, %[[N:.+]]: memref<i64>)
// CHECK-NOT: memref.alloc
// CHECK-NOT: memref.copy
// CHECK: nx.invoke io_callback @log(%[[X]], %[[N]]) outs() {has_side_effect} : (memref<4xf32>, memref<i64>) -> ()
// CHECK-NEXT: nx.invoke io_callback @log(%[[X]], %[[N]]) outs() {has_side_effect}
// CHECK-NEXT: return %[[X]], %[[N]], %[[X]]
func.func @io_callback(%x: tensor<4xf32>, %n: tensor<i64>) -> (tensor<4xf32>, tensor<i64>, tensor<4xf32>) {
  %0:2 = nx.io_callback @log(%x, %n) : tensor<4xf32>, tensor<i64>
  %1:2 = nx.io_callback @log(%0#0, %0#1) : tensor<4xf32>, tensor<i64>
  return %1#0, %1#1, %x : tensor<4xf32>, tensor<i64>, tensor<4xf32>
}

// A strided operand is copied into a contiguous buffer for the host.
// CHECK-LABEL: func.func @io_callback_slice
// CHECK: %[[S:.+]] = memref.subview
// CHECK: %[[C:.+]] = memref.alloc() {{.*}} : memref<4xf32>
// CHECK: memref.copy %[[S]], %[[C]]
// CHECK: nx.invoke io_callback @log(%[[C]], %{{.+}})
func.func @io_callback_slice(%x: tensor<8xf32>, %n: tensor<i64>) -> tensor<4xf32> {
  %s = tensor.extract_slice %x[0] [4] [2] : tensor<8xf32> to tensor<4xf32>
  %0:2 = nx.io_callback @log(%s, %n) : tensor<4xf32>, tensor<i64>
  return %0#0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @streams
// CHECK-SAME: (%[[X:.+]]: memref<4xf32>)
// CHECK: nx.invoke outfeed @out(%[[X]]) outs() {has_side_effect} : (memref<4xf32>) -> ()
// CHECK: %[[A:.+]] = memref.alloc() {{.*}} : memref<2xi32>
// CHECK: nx.invoke infeed @in() outs(%[[A]]) {has_side_effect} : () -> (memref<2xi32>)
// CHECK: return %[[A]]
func.func @streams(%x: tensor<4xf32>) -> tensor<2xi32> {
  nx.outfeed %x to "out" : tensor<4xf32>
  %0 = nx.infeed from "in" : tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

// Aliased custom_call results are written in place into the operand buffer;
// other results get fresh buffers; a string backend_config reaches the
// target as the attribute "backend_config".
// CHECK-LABEL: func.func @custom_call
// CHECK-SAME: (%[[X:.+]]: memref<3x3xf32>)
// CHECK: %[[R:.+]] = memref.alloc() {{.*}} : memref<3x3xf32>
// CHECK: nx.invoke custom_call @qr_cpu_custom_call_f32(%[[X]]) outs(%[[X]], %[[R]]) attrs {backend_config = "cfg"} : (memref<3x3xf32>) -> (memref<3x3xf32>, memref<3x3xf32>)
// CHECK: return %[[X]], %[[R]]
func.func @custom_call(%x: tensor<3x3xf32> {bufferization.writable = true}) -> (tensor<3x3xf32>, tensor<3x3xf32>) {
  %0:2 = nx.custom_call @qr_cpu_custom_call_f32(%x) {backend_config = "cfg", output_operand_aliases = [#nx.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>]} : (tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<3x3xf32>)
  return %0#0, %0#1 : tensor<3x3xf32>, tensor<3x3xf32>
}

// When the operand is still needed, bufferization copies it first, so the
// in-place write cannot clobber it.
// CHECK-LABEL: func.func @custom_call_operand_reused
// CHECK-SAME: (%[[X:.+]]: memref<4xf32>)
// CHECK: %[[C:.+]] = memref.alloc() {{.*}} : memref<4xf32>
// CHECK: memref.copy %[[X]], %[[C]]
// CHECK: nx.invoke custom_call @inplace(%[[C]]) outs(%[[C]]) {has_side_effect}
// CHECK: return %[[C]], %[[X]]
func.func @custom_call_operand_reused(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = nx.custom_call @inplace(%x) {has_side_effect = true, output_operand_aliases = [#nx.output_operand_alias<output_tuple_indices = [], operand_index = 0, operand_tuple_indices = []>]} : (tensor<4xf32>) -> tensor<4xf32>
  return %0, %x : tensor<4xf32>, tensor<4xf32>
}

// A dictionary backend_config is passed through as typed attributes.
// CHECK-LABEL: func.func @custom_call_dictionary
// CHECK: nx.invoke custom_call @t(%{{.+}}) outs(%{{.+}}) attrs {mode = "complete", n = 3 : i64} : (memref<4xf32>) -> (memref<4xf32>)
func.func @custom_call_dictionary(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = nx.custom_call @t(%x) {api_version = 4 : i32, backend_config = {mode = "complete", n = 3}} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// Tokens have no buffer: the invoke records their positions among the
// target's operands and results, and is kept in its place (has_side_effect).
// A token result is replaced by a fresh token; an aliased operand after a
// token is still found by its position among all operands.
// CHECK-LABEL: func.func @custom_call_tokens
// CHECK-SAME: (%[[T:.+]]: !nx.token, %[[X:.+]]: memref<4xf32>)
// CHECK: %[[T2:.+]] = nx.create_token
// CHECK: %[[S:.+]] = memref.alloc() {{.*}} : memref<f32>
// CHECK: nx.invoke custom_call @log(%[[X]]) outs(%[[X]], %[[S]]) {has_side_effect, token_inputs = array<i64: 0>, token_outputs = array<i64: 1>} : (memref<4xf32>) -> (memref<4xf32>, memref<f32>)
// CHECK: return %[[T2]], %[[X]], %[[S]]
func.func @custom_call_tokens(%t: !nx.token, %x: tensor<4xf32> {bufferization.writable = true}) -> (!nx.token, tensor<4xf32>, tensor<f32>) {
  %0:3 = nx.custom_call @log(%t, %x) {api_version = 4 : i32, output_operand_aliases = [#nx.output_operand_alias<output_tuple_indices = [0], operand_index = 1, operand_tuple_indices = []>]} : (!nx.token, tensor<4xf32>) -> (tensor<4xf32>, !nx.token, tensor<f32>)
  return %0#1, %0#0, %0#2 : !nx.token, tensor<4xf32>, tensor<f32>
}

// -----

// An optional io_callback becomes an optional_io_callback invoke; its static
// args become the invoke's attributes.
nx.callback @hook : (tensor<4xf32>) -> ()

// CHECK-LABEL: func.func @optional_hook
// CHECK-SAME: (%[[X:.+]]: memref<4xf32>)
// CHECK: nx.invoke optional_io_callback @hook(%[[X]]) outs() attrs {label = "h"} {has_side_effect} : (memref<4xf32>) -> ()
// CHECK: return %[[X]]
func.func @optional_hook(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = nx.io_callback optional @hook(%x) static_args {label = "h"} : tensor<4xf32>
  return %y : tensor<4xf32>
}

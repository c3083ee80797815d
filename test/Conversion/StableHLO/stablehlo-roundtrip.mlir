// Export followed by import is the identity, for both callback ABIs, both
// id encodings of the older one and every platform, and so is import
// followed by export on StableHLO text.
// RUN: nx-opt %s --allow-unregistered-dialect -nx-assign-callback-ids -convert-nx-to-custom-call > %t.nx.mlir
// RUN: nx-opt %t.nx.mlir --allow-unregistered-dialect -nx-export-stablehlo > %t.stablehlo.mlir
// RUN: nx-opt %t.stablehlo.mlir --allow-unregistered-dialect -nx-import-stablehlo > %t.back.mlir
// RUN: diff %t.nx.mlir %t.back.mlir
// RUN: nx-opt %t.back.mlir --allow-unregistered-dialect -nx-export-stablehlo | diff %t.stablehlo.mlir -
// RUN: FileCheck %s --enable-var-scope < %t.stablehlo.mlir

// A portable artifact (a VHLO serialize/deserialize round trip) turns the
// id words into dense tensors; importing that gives the same nx.
// RUN: sed -e 's/callback_id = array<i64: \([0-9]*\)>/callback_id = dense<\1> : tensor<1xi64>/g' %t.stablehlo.mlir > %t.vhlo.mlir
// RUN: FileCheck %s --check-prefix=VHLO < %t.vhlo.mlir
// RUN: nx-opt %t.vhlo.mlir --allow-unregistered-dialect -nx-import-stablehlo | diff %t.nx.mlir -
// VHLO: callback_id = dense<1> : tensor<1xi64>

// Every platform, both ABIs and both id encodings of the older one
// (callbacks and streams stay in the host orchestrator; blocks lower per
// platform).
// RUN: for platform in host cuda rocm tpu; do \
// RUN:   for abi in "exla" "exla-legacy" "exla-legacy callback-id-encoding=operand"; do \
// RUN:     nx-opt %s --allow-unregistered-dialect -nx-assign-callback-ids \
// RUN:       "-convert-nx-to-custom-call=platform=$platform callback-abi=$abi" > %t.p.nx.mlir && \
// RUN:     nx-opt %t.p.nx.mlir --allow-unregistered-dialect -nx-export-stablehlo > %t.p.stablehlo.mlir && \
// RUN:     nx-opt %t.p.stablehlo.mlir --allow-unregistered-dialect -nx-import-stablehlo | diff %t.p.nx.mlir - && \
// RUN:     nx-opt %t.p.stablehlo.mlir --allow-unregistered-dialect -nx-import-stablehlo -nx-export-stablehlo | diff %t.p.stablehlo.mlir - \
// RUN:     || exit 1; \
// RUN:   done; \
// RUN: done

// The exported module holds no nx syntax: the declarations became records.
// CHECK: module attributes {nx.callback_ids = {log = 0 : i64, scale = 1 : i64}, nx.callbacks = [{function_type = (tensor<4xf32>) -> tensor<4xf32>, id = 1 : i64, sym_name = "scale"}, {function_type = (tensor<4xf32>, tensor<i64>) -> (), id = 0 : i64, sym_name = "log"}]}
// CHECK-NOT: nx.callback @

nx.callback @scale : (tensor<4xf32>) -> tensor<4xf32>
nx.callback @log : (tensor<4xf32>, tensor<i64>) -> ()

// CHECK-LABEL: func.func @program
// CHECK: "stablehlo.custom_call"(%{{.+}}, %{{.+}}) {api_version = 4 : i32, backend_config = {callback_id = array<i64: 1>, callback_id_size = 8 : ui64, num_aliased_data_outputs = 0 : ui64}, call_target_name = "exla_runtime_callback", has_side_effect = true, nx.callback_attrs = {static_args = {k = 2 : i64}}} : (tensor<8xui8>, tensor<4xf32>) -> tensor<4xf32>
// CHECK: "stablehlo.custom_call"(%{{.+}}, %{{.+}}, %{{.+}}) {api_version = 4 : i32, backend_config = {callback_id = array<i64: 0>, callback_id_size = 8 : ui64, num_aliased_data_outputs = 2 : ui64}, call_target_name = "exla_runtime_callback", has_side_effect = true, nx.callback_attrs = {ordered = true}, output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 1, operand_tuple_indices = []>, #stablehlo.output_operand_alias<output_tuple_indices = [1], operand_index = 2, operand_tuple_indices = []>]} : (tensor<8xui8>, tensor<4xf32>, tensor<i64>) -> (tensor<4xf32>, tensor<i64>)
// CHECK: "stablehlo.custom_call"(%{{.+}}, %{{.+}}) {api_version = 4 : i32, backend_config = {}, call_target_name = "exla_beam_outfeed", has_side_effect = true} : (tensor<13xui8>, tensor<4xf32>) -> tensor<ui8>
// CHECK: "stablehlo.custom_call"(%{{.+}}, %{{.+}}) {api_version = 4 : i32, backend_config = {}, call_target_name = "exla_beam_infeed", has_side_effect = true} : (tensor<13xui8>, tensor<8xui8>) -> (tensor<8xui8>, tensor<4xf32>)
// CHECK: "stablehlo.custom_call"(%{{.+}}) {api_version = 4 : i32, backend_config = {}, call_target_name = "qr_cpu_custom_call_f32"} : (tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>)
func.func @program(%x: tensor<4xf32>, %n: tensor<i64>, %m: tensor<4x4xf32>) -> (tensor<4xf32>, tensor<4x4xf32>) attributes {nx.host_orchestrator} {
  %0 = nx.elixir_call @scale(%x) static_args {k = 2 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  %1:2 = nx.io_callback ordered @log(%0, %n) : tensor<4xf32>, tensor<i64>
  nx.outfeed %1#0 to "s" : tensor<4xf32>
  %2 = nx.infeed from "s" : tensor<4xf32>
  %q, %r = nx.block "Nx.Block.LinAlg.QR" {} (%m) : (tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  ^bb0(%a: tensor<4x4xf32>):
    nx.yield %a, %a : tensor<4x4xf32>, tensor<4x4xf32>
  }
  return %2, %q : tensor<4xf32>, tensor<4x4xf32>
}

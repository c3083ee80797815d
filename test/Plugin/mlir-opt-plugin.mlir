// Debian's own mlir-opt loads the nx dialect and passes from the plugin,
// parses and verifies nx IR, and runs an nx pass on it.
// An instrumented plugin cannot load into uninstrumented mlir-opt.
// UNSUPPORTED: sanitizer
// RUN: mlir-opt %s --load-dialect-plugin=%nx_plugin --load-pass-plugin=%nx_plugin \
// RUN:   --pass-pipeline="builtin.module(nx-assign-callback-ids)" \
// RUN:   | FileCheck %s --enable-var-scope

// CHECK: module attributes {nx.callback_ids = {double = 0 : i64, print = 1 : i64}}
// CHECK: nx.callback @print : (tensor<3xf32>) -> () attributes {id = 1 : i64}
// CHECK: nx.callback @double : (tensor<3xf32>) -> tensor<3xf32> attributes {id = 0 : i64}
nx.callback @print : (tensor<3xf32>) -> ()
nx.callback @double : (tensor<3xf32>) -> tensor<3xf32>

// CHECK-LABEL: func.func @use
// CHECK: %[[D:.+]] = nx.elixir_call @double(%{{.+}}) : (tensor<3xf32>) -> tensor<3xf32>
// CHECK: nx.io_callback @print(%[[D]]) : tensor<3xf32>
func.func @use(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = nx.elixir_call @double(%x) : (tensor<3xf32>) -> tensor<3xf32>
  %1 = nx.io_callback @print(%0) : tensor<3xf32>
  return %1 : tensor<3xf32>
}

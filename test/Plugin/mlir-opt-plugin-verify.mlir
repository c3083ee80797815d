// The nx verifiers run inside upstream mlir-opt as well.
// An instrumented plugin cannot load into uninstrumented mlir-opt.
// UNSUPPORTED: sanitizer
// RUN: mlir-opt %s --load-dialect-plugin=%nx_plugin -split-input-file -verify-diagnostics

nx.callback @double : (tensor<3xf32>) -> tensor<3xf32>

func.func @wrong_type(%x: tensor<4xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'nx.elixir_call' op operand #0 has type 'tensor<4xf32>', but callback @double expects 'tensor<3xf32>'}}
  %0 = nx.elixir_call @double(%x) : (tensor<4xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// expected-error @+1 {{'nx.callback' op input #0 must have a static shape, got 'tensor<?xf32>'}}
nx.callback @dynamic : (tensor<?xf32>) -> ()

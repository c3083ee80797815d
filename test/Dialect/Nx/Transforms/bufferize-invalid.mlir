// RUN: nx-opt %s -split-input-file -one-shot-bufferize="bufferize-function-boundaries" -verify-diagnostics

func.func @outfeed_without_stream(%x: tensor<4xf32>) {
  // expected-error @+2 {{failed to bufferize op}}
  // expected-error @+1 {{'nx.outfeed' op needs a 'stream' to be served by the runtime; name one on the op or run convert-nx-to-custom-call with stream-name}}
  nx.outfeed %x : tensor<4xf32>
  return
}

// -----

func.func @infeed_without_stream() -> tensor<4xf32> {
  // expected-error @+2 {{failed to bufferize op}}
  // expected-error @+1 {{'nx.infeed' op needs a 'stream' to be served by the runtime; name one on the op or run convert-nx-to-custom-call with stream-name}}
  %0 = nx.infeed : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @custom_call_dynamic_result(%x: tensor<4xf32>) -> tensor<?xf32> {
  // expected-error @+2 {{failed to bufferize op}}
  // expected-error @+1 {{'nx.custom_call' op cannot run on the host runtime: result type 'tensor<?xf32>' is not a statically shaped tensor of a host element type}}
  %0 = nx.custom_call @t(%x) : (tensor<4xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

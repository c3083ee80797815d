// RUN: nx-opt %s -split-input-file -convert-nx-to-custom-call -verify-diagnostics

nx.callback @no_id : (tensor<2xf32>) -> tensor<2xf32>

func.func @missing_id(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'nx.elixir_call' op calls callback @no_id, which has no id; run nx-assign-callback-ids first}}
  %0 = nx.elixir_call @no_id(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

nx.callback @log : (tensor<2xf32>) -> ()

func.func @missing_id_io(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'nx.io_callback' op calls callback @log, which has no id; run nx-assign-callback-ids first}}
  %0 = nx.io_callback @log(%x) : tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @missing_stream(%x: tensor<2xf32>) {
  // expected-error @+1 {{'nx.outfeed' op has no stream; set its stream attribute or the stream-name option of convert-nx-to-custom-call}}
  nx.outfeed %x : tensor<2xf32>
  return
}

// -----

func.func @missing_stream_infeed() -> tensor<2xf32> {
  // expected-error @+1 {{'nx.infeed' op has no stream; set its stream attribute or the stream-name option of convert-nx-to-custom-call}}
  %0 = nx.infeed : tensor<2xf32>
  return %0 : tensor<2xf32>
}

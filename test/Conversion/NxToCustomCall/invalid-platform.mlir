// RUN: nx-opt %s -split-input-file -nx-assign-callback-ids -convert-nx-to-custom-call=platform=cuda -verify-diagnostics

nx.callback @cb : (tensor<2xf32>) -> tensor<2xf32>
nx.callback @log : (tensor<2xf32>) -> ()

func.func @not_segmented(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'nx.elixir_call' op cannot run on platform 'cuda': callbacks and streams run on the host; run nx-segment-callbacks first (it moves them into a host orchestrator function marked nx.host_orchestrator)}}
  %0 = nx.elixir_call @cb(%x) : (tensor<2xf32>) -> tensor<2xf32>
  // expected-error @+1 {{'nx.io_callback' op cannot run on platform 'cuda': callbacks and streams run on the host; run nx-segment-callbacks first}}
  %1 = nx.io_callback @log(%0) : tensor<2xf32>
  // expected-error @+1 {{'nx.outfeed' op cannot run on platform 'cuda'}}
  nx.outfeed %1 to "s" : tensor<2xf32>
  // expected-error @+1 {{'nx.infeed' op cannot run on platform 'cuda'}}
  %2 = nx.infeed from "s" : tensor<2xf32>
  return %2 : tensor<2xf32>
}

// -----

nx.callback @cb : (tensor<2xf32>) -> tensor<2xf32>

// A host orchestrator (marked by nx-segment-callbacks) may call back.
func.func @orchestrator(%x: tensor<2xf32>) -> tensor<2xf32> attributes {nx.host_orchestrator} {
  %0 = nx.elixir_call @cb(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

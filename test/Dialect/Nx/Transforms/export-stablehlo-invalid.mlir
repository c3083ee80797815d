// RUN: nx-opt %s -nx-export-stablehlo -verify-diagnostics

func.func @needs_unregistered(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'nx.custom_call' op cannot be exported: the stablehlo dialect is not loaded, so nx-export-stablehlo emits unregistered ops; run with --allow-unregistered-dialect}}
  %0 = nx.custom_call @t(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

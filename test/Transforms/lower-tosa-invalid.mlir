// RUN: nx-opt %s -split-input-file -nx-lower-tosa -verify-diagnostics

// A TOSA op the front end rejects fails the pass with the front end's
// diagnostic at the op.

func.func @unranked(%x: tensor<*xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{'tosa.abs' op failed level check: unranked tensor}}
  %0 = tosa.abs %x : (tensor<*xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

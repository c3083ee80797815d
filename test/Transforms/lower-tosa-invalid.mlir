// RUN: nx-opt %s -split-input-file -nx-lower-tosa -verify-diagnostics

// A TOSA op the front end rejects fails the pass with the front end's
// diagnostic at the op.

func.func @unranked(%x: tensor<*xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{'tosa.abs' op failed level check: unranked tensor}}
  %0 = tosa.abs %x : (tensor<*xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// Sizes that contradict each other in a module with TOSA are reported at the
// user's op before the TOSA pipeline's canonicalization makes the output's
// size static in an op that would not verify (found by fuzzing).

func.func @contradicting_sizes(%a: tensor<8xf32>, %x: tensor<8xf32>) -> (tensor<?xf32>, tensor<8xf32>) {
  %c6 = arith.constant 6 : index
  %e = tensor.empty(%c6) : tensor<?xf32>
  // expected-error @+1 {{'linalg.generic' op has loop 0 run 8 times by operand #0 but 6 times by operand #1}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%a : tensor<8xf32>) outs(%e : tensor<?xf32>) {
  ^bb0(%v: f32, %out: f32):
    linalg.yield %v : f32
  } -> tensor<?xf32>
  %abs = tosa.abs %x : (tensor<8xf32>) -> tensor<8xf32>
  return %r, %abs : tensor<?xf32>, tensor<8xf32>
}

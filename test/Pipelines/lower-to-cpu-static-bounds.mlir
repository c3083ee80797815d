// RUN: nx-opt %s -split-input-file -verify-diagnostics -nx-lower-to-cpu

// Sizes that contradict each other behind a cast or in a reshape's output
// shape are reported at the user's op, not by the verifier of an op that
// canonicalization or bufferization built from it.

func.func @dilated_window_past_a_cast(%in: tensor<1x6x6x3xf32>, %filter: tensor<3x3x3x4xf32>,
                                      %out: tensor<1x4x4x4xf32>) -> tensor<?x4x4x4xf32> {
  %i = tensor.cast %in : tensor<1x6x6x3xf32> to tensor<?x?x?x3xf32>
  %o = tensor.cast %out : tensor<1x4x4x4xf32> to tensor<?x4x4x4xf32>
  // expected-error @+1 {{'linalg.conv_2d_nhwc_hwcf' op accesses operand #0 at index 7 along dimension 1, past its size 6}}
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%i, %filter : tensor<?x?x?x3xf32>, tensor<3x3x3x4xf32>) outs(%o : tensor<?x4x4x4xf32>) -> tensor<?x4x4x4xf32>
  return %r : tensor<?x4x4x4xf32>
}

// -----

func.func @reshape_with_a_negative_size(%a: tensor<64x8xf32>, %b: tensor<8x32xf32>,
                                        %c: tensor<64x32xf32>) -> tensor<4x16x32xf32> {
  %mm = linalg.matmul ins(%a, %b : tensor<64x8xf32>, tensor<8x32xf32>)
                      outs(%c : tensor<64x32xf32>) -> tensor<64x32xf32>
  // expected-error @+1 {{'tensor.expand_shape' op has output shape -1 at dimension 1 but its type has 16}}
  %r = tensor.expand_shape %mm [[0, 1], [2]] output_shape [4, -1, 32]
      : tensor<64x32xf32> into tensor<4x16x32xf32>
  return %r : tensor<4x16x32xf32>
}

// One op: a padded 3x3 convolution of stride 2 with TensorFlow Lite's
// filter layout, 2x28x28x32 by 64x3x3x32 (linalg.conv_2d_nhwc_fhwc on
// tensor.pad).
func.func @conv_fhwc(%x: tensor<2x28x28x32xf32>, %w: tensor<64x3x3x32xf32>) -> tensor<2x14x14x64xf32> {
  %zero = arith.constant 0.0 : f32
  %padded = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<2x28x28x32xf32> to tensor<2x30x30x32xf32>
  %e = tensor.empty() : tensor<2x14x14x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x14x14x64xf32>) -> tensor<2x14x14x64xf32>
  %c = linalg.conv_2d_nhwc_fhwc
      {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%padded, %w : tensor<2x30x30x32xf32>, tensor<64x3x3x32xf32>)
      outs(%z : tensor<2x14x14x64xf32>) -> tensor<2x14x14x64xf32>
  return %c : tensor<2x14x14x64xf32>
}

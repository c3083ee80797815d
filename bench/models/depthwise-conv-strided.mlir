// One op: a MobileNet downsampling layer's padded 3x3 depthwise
// convolution of stride 2, 1x56x56x128 by 3x3x128
// (linalg.depthwise_conv_2d_nhwc_hwc on tensor.pad).
func.func @depthwise_conv_strided(%x: tensor<1x56x56x128xf32>, %w: tensor<3x3x128xf32>) -> tensor<1x28x28x128xf32> {
  %zero = arith.constant 0.0 : f32
  %padded = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x56x56x128xf32> to tensor<1x58x58x128xf32>
  %e = tensor.empty() : tensor<1x28x28x128xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x28x28x128xf32>) -> tensor<1x28x28x128xf32>
  %c = linalg.depthwise_conv_2d_nhwc_hwc
      {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%padded, %w : tensor<1x58x58x128xf32>, tensor<3x3x128xf32>)
      outs(%z : tensor<1x28x28x128xf32>) -> tensor<1x28x28x128xf32>
  return %c : tensor<1x28x28x128xf32>
}

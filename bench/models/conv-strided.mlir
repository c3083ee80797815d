// One op: a ResNet downsampling layer's padded 3x3 convolution of stride 2,
// 1x56x56x64 by 3x3x64x128 (linalg.conv_2d_nhwc_hwcf on tensor.pad).
func.func @conv_strided(%x: tensor<1x56x56x64xf32>, %w: tensor<3x3x64x128xf32>) -> tensor<1x28x28x128xf32> {
  %zero = arith.constant 0.0 : f32
  %padded = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x56x56x64xf32> to tensor<1x58x58x64xf32>
  %e = tensor.empty() : tensor<1x28x28x128xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x28x28x128xf32>) -> tensor<1x28x28x128xf32>
  %c = linalg.conv_2d_nhwc_hwcf
      {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%padded, %w : tensor<1x58x58x64xf32>, tensor<3x3x64x128xf32>)
      outs(%z : tensor<1x28x28x128xf32>) -> tensor<1x28x28x128xf32>
  return %c : tensor<1x28x28x128xf32>
}

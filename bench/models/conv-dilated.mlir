// One op: a 3x3 convolution of dilation 2 (an atrous convolution), padded
// by 2, 1x28x28x32 by 3x3x32x32 (linalg.conv_2d_nhwc_hwcf on tensor.pad).
func.func @conv_dilated(%x: tensor<1x28x28x32xf32>, %w: tensor<3x3x32x32xf32>) -> tensor<1x28x28x32xf32> {
  %zero = arith.constant 0.0 : f32
  %padded = tensor.pad %x low[0, 2, 2, 0] high[0, 2, 2, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x28x28x32xf32> to tensor<1x32x32x32xf32>
  %e = tensor.empty() : tensor<1x28x28x32xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x28x28x32xf32>) -> tensor<1x28x28x32xf32>
  %c = linalg.conv_2d_nhwc_hwcf
      {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%padded, %w : tensor<1x32x32x32xf32>, tensor<3x3x32x32xf32>)
      outs(%z : tensor<1x28x28x32xf32>) -> tensor<1x28x28x32xf32>
  return %c : tensor<1x28x28x32xf32>
}

// One op: a depthwise 3-D convolution (linalg.depthwise_conv_3d_ndhwc_dhwc)
// of an 8x16x16 volume of 32 channels by a 3x3x3 kernel per channel.
// nx-convolutions-3d-to-2d makes it three depthwise NHWC convolutions.
func.func @depthwise_conv3d(%x: tensor<1x8x16x16x32xf32>, %w: tensor<3x3x3x32xf32>) -> tensor<1x6x14x14x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x6x14x14x32xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x6x14x14x32xf32>) -> tensor<1x6x14x14x32xf32>
  %y = linalg.depthwise_conv_3d_ndhwc_dhwc {dilations = dense<1> : tensor<3xi64>, strides = dense<1> : tensor<3xi64>}
      ins(%x, %w : tensor<1x8x16x16x32xf32>, tensor<3x3x3x32xf32>)
      outs(%z : tensor<1x6x14x14x32xf32>) -> tensor<1x6x14x14x32xf32>
  return %y : tensor<1x6x14x14x32xf32>
}

// One op: depthwise-conv3d's convolution in PyTorch's layouts, an NCDHW
// 8x16x16 volume of 32 channels by a CDHW 3x3x3 kernel per channel
// (linalg.depthwise_conv_3d_ncdhw_cdhw), strided along the depth.
// nx-convolutions-3d-to-2d transposes it to NDHWC and makes it three
// depthwise NHWC convolutions.
func.func @depthwise_conv3d_ncdhw(%x: tensor<1x32x8x16x16xf32>, %w: tensor<32x3x3x3xf32>) -> tensor<1x32x3x14x14xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x32x3x14x14xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x32x3x14x14xf32>) -> tensor<1x32x3x14x14xf32>
  %y = linalg.depthwise_conv_3d_ncdhw_cdhw {dilations = dense<1> : tensor<3xi64>, strides = dense<[2, 1, 1]> : tensor<3xi64>}
      ins(%x, %w : tensor<1x32x8x16x16xf32>, tensor<32x3x3x3xf32>)
      outs(%z : tensor<1x32x3x14x14xf32>) -> tensor<1x32x3x14x14xf32>
  return %y : tensor<1x32x3x14x14xf32>
}

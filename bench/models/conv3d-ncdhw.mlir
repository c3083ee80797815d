// One op: conv3d's convolution in PyTorch's layouts, an NCDHW 16x32x32
// volume of 16 channels by 32 FCDHW filters 3x3x3
// (linalg.conv_3d_ncdhw_fcdhw). nx-convolutions-3d-to-2d transposes the
// image, the filters and the output to NDHWC and makes it three NHWC
// convolutions.
func.func @conv3d_ncdhw(%x: tensor<1x16x16x32x32xf32>, %w: tensor<32x16x3x3x3xf32>) -> tensor<1x32x14x30x30xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x32x14x30x30xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x32x14x30x30xf32>) -> tensor<1x32x14x30x30xf32>
  %y = linalg.conv_3d_ncdhw_fcdhw {dilations = dense<1> : tensor<3xi64>, strides = dense<1> : tensor<3xi64>}
      ins(%x, %w : tensor<1x16x16x32x32xf32>, tensor<32x16x3x3x3xf32>)
      outs(%z : tensor<1x32x14x30x30xf32>) -> tensor<1x32x14x30x30xf32>
  return %y : tensor<1x32x14x30x30xf32>
}

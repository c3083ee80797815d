// One op: a 3-D convolution (linalg.conv_3d_ndhwc_dhwcf) of a 16x32x32
// volume of 16 channels with 32 filters 3x3x3. nx-convolutions-3d-to-2d makes
// it three NHWC convolutions, one per kernel plane, each over 14 image planes
// as one batch, which oneDNN runs.
func.func @conv3d(%x: tensor<1x16x32x32x16xf32>, %w: tensor<3x3x3x16x32xf32>) -> tensor<1x14x30x30x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x14x30x30x32xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x14x30x30x32xf32>) -> tensor<1x14x30x30x32xf32>
  %y = linalg.conv_3d_ndhwc_dhwcf {dilations = dense<1> : tensor<3xi64>, strides = dense<1> : tensor<3xi64>}
      ins(%x, %w : tensor<1x16x32x32x16xf32>, tensor<3x3x3x16x32xf32>)
      outs(%z : tensor<1x14x30x30x32xf32>) -> tensor<1x14x30x30x32xf32>
  return %y : tensor<1x14x30x30x32xf32>
}

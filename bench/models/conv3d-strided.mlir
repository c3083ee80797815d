// One op: a 3-D convolution of a batch of two 9x20x20 volumes of 8 channels
// with 16 filters 3x3x3, of stride 2 along the depth and the width and
// dilation 2 along the height. Each kernel plane meets every other image
// plane of both batch elements, which nx-convolutions-3d-to-2d's batch of
// planes copies.
func.func @conv3d_strided(%x: tensor<2x9x20x20x8xf32>, %w: tensor<3x3x3x8x16xf32>) -> tensor<2x4x16x9x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4x16x9x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x16x9x16xf32>) -> tensor<2x4x16x9x16xf32>
  %y = linalg.conv_3d_ndhwc_dhwcf {dilations = dense<[1, 2, 1]> : tensor<3xi64>, strides = dense<[2, 1, 2]> : tensor<3xi64>}
      ins(%x, %w : tensor<2x9x20x20x8xf32>, tensor<3x3x3x8x16xf32>)
      outs(%z : tensor<2x4x16x9x16xf32>) -> tensor<2x4x16x9x16xf32>
  return %y : tensor<2x4x16x9x16xf32>
}

// One op: a grouped 3x3 convolution, 8 groups of 16 channels, as in a
// ResNeXt block (linalg.conv_2d_nhwgc_gfhwc on a 1x56x56 image). On oneDNN:
// nx-linalg-to-dnnl makes each group's channels part of one channel
// dimension of the call.
func.func @conv_grouped(%x: tensor<1x56x56x8x16xf32>, %w: tensor<8x16x3x3x16xf32>) -> tensor<1x54x54x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x54x54x8x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x54x54x8x16xf32>) -> tensor<1x54x54x8x16xf32>
  %y = linalg.conv_2d_nhwgc_gfhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x56x56x8x16xf32>, tensor<8x16x3x3x16xf32>)
      outs(%z : tensor<1x54x54x8x16xf32>) -> tensor<1x54x54x8x16xf32>
  return %y : tensor<1x54x54x8x16xf32>
}

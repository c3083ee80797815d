// One op: the padded 3x3 convolution of conv.mlir in PyTorch's layout,
// 1x64x56x56 by 64x64x3x3 (linalg.conv_2d_nchw_fchw on tensor.pad).
func.func @conv_nchw(%x: tensor<1x64x56x56xf32>, %w: tensor<64x64x3x3xf32>) -> tensor<1x64x56x56xf32> {
  %zero = arith.constant 0.0 : f32
  %padded = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x64x56x56xf32> to tensor<1x64x58x58xf32>
  %e = tensor.empty() : tensor<1x64x56x56xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32>
  %c = linalg.conv_2d_nchw_fchw
      {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%padded, %w : tensor<1x64x58x58xf32>, tensor<64x64x3x3xf32>)
      outs(%z : tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32>
  return %c : tensor<1x64x56x56xf32>
}

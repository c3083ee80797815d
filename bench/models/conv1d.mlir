// One op: a 1-D convolution (linalg.conv_1d_nwc_wcf) of four 1024-step
// sequences of 64 channels with 64 filters 3 steps wide. nx-convolutions-1d-to-2d
// makes it an NHWC convolution one row high, which oneDNN runs.
func.func @conv1d(%x: tensor<4x1024x64xf32>, %w: tensor<3x64x64xf32>) -> tensor<4x1022x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x1022x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x1022x64xf32>) -> tensor<4x1022x64xf32>
  %y = linalg.conv_1d_nwc_wcf {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>}
      ins(%x, %w : tensor<4x1024x64xf32>, tensor<3x64x64xf32>)
      outs(%z : tensor<4x1022x64xf32>) -> tensor<4x1022x64xf32>
  return %y : tensor<4x1022x64xf32>
}

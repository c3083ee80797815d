// One op: a 2x2 max-pool of stride 2 (linalg.pooling_nhwc_max) on a
// 1x112x112x64 NHWC f32 image, as after a ResNet's first convolution.
func.func @max_pool(%x: tensor<1x112x112x64xf32>) -> tensor<1x56x56x64xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %window = tensor.empty() : tensor<2x2xf32>
  %e = tensor.empty() : tensor<1x56x56x64xf32>
  %z = linalg.fill ins(%ninf : f32) outs(%e : tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32>
  %p = linalg.pooling_nhwc_max
      {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %window : tensor<1x112x112x64xf32>, tensor<2x2xf32>)
      outs(%z : tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32>
  return %p : tensor<1x56x56x64xf32>
}

// One op: linalg.batch_matmul of 16 128x64 by 64x128 f32 matrices.
func.func @batch_matmul(%a: tensor<16x128x64xf32>, %b: tensor<16x64x128xf32>) -> tensor<16x128x128xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x128x128xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<16x128x128xf32>) -> tensor<16x128x128xf32>
  %c = linalg.batch_matmul ins(%a, %b : tensor<16x128x64xf32>, tensor<16x64x128xf32>)
                           outs(%z : tensor<16x128x128xf32>) -> tensor<16x128x128xf32>
  return %c : tensor<16x128x128xf32>
}

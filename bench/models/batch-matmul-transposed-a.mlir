// One op: linalg.batch_matmul whose first operand, 16 64x128 matrices, is
// read transposed (indexing_maps), by 16 64x128 matrices: a^T b per batch,
// as a backward pass computes weight gradients.
func.func @batch_matmul_transposed_a(%a: tensor<16x64x128xf32>, %b: tensor<16x64x128xf32>) -> tensor<16x128x128xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x128x128xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<16x128x128xf32>) -> tensor<16x128x128xf32>
  %c = linalg.batch_matmul
      indexing_maps = [affine_map<(b, m, n, k) -> (b, k, m)>,
                       affine_map<(b, m, n, k) -> (b, k, n)>,
                       affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%a, %b : tensor<16x64x128xf32>, tensor<16x64x128xf32>)
      outs(%z : tensor<16x128x128xf32>) -> tensor<16x128x128xf32>
  return %c : tensor<16x128x128xf32>
}

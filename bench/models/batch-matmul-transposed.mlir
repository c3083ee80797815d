// One op: attention's scores q k^T as one linalg.batch_matmul whose second
// operand, 16 128x64 matrices, is read transposed (indexing_maps).
func.func @batch_matmul_transposed(%q: tensor<16x128x64xf32>, %k: tensor<16x128x64xf32>) -> tensor<16x128x128xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x128x128xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<16x128x128xf32>) -> tensor<16x128x128xf32>
  %c = linalg.batch_matmul
      indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>,
                       affine_map<(b, m, n, k) -> (b, n, k)>,
                       affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%q, %k : tensor<16x128x64xf32>, tensor<16x128x64xf32>)
      outs(%z : tensor<16x128x128xf32>) -> tensor<16x128x128xf32>
  return %c : tensor<16x128x128xf32>
}

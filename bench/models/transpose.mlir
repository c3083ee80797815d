// One op: a 2048x2048 f32 transpose (linalg.transpose), the layout change a
// model makes between layers.
func.func @transpose(%x: tensor<2048x2048xf32>) -> tensor<2048x2048xf32> {
  %e = tensor.empty() : tensor<2048x2048xf32>
  %t = linalg.transpose ins(%x : tensor<2048x2048xf32>)
                        outs(%e : tensor<2048x2048xf32>) permutation = [1, 0]
  return %t : tensor<2048x2048xf32>
}

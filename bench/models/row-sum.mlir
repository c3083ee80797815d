// One op: the row sums of a 2048x2048 f32 matrix (linalg.reduce over
// dimension 1, the inner one).
func.func @row_sum(%x: tensor<2048x2048xf32>) -> tensor<2048xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2048xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2048xf32>) -> tensor<2048xf32>
  %s = linalg.reduce ins(%x : tensor<2048x2048xf32>) outs(%z : tensor<2048xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %t = arith.addf %in, %acc : f32
      linalg.yield %t : f32
    }
  return %s : tensor<2048xf32>
}

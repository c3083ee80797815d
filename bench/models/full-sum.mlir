// One op: the sum of every element of a 2048x2048 f32 matrix (linalg.reduce
// over both dimensions). nx-collapse-reduction-dims makes it the sum of a
// vector, which nx-split-reductions and nx-linalg-to-openmp share among
// threads.
func.func @full_sum(%x: tensor<2048x2048xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %s = linalg.reduce ins(%x : tensor<2048x2048xf32>) outs(%z : tensor<f32>) dimensions = [0, 1]
    (%in: f32, %acc: f32) {
      %t = arith.addf %in, %acc : f32
      linalg.yield %t : f32
    }
  return %s : tensor<f32>
}

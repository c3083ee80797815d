// One op: the dot product of two vectors of 2^22 f32 (linalg.dot).
// nx-split-reductions makes it a vector's sum, which nx-linalg-to-openmp
// shares among threads; as a GEMM of one element (nx-linalg-to-blas) it ran
// on one.
func.func @dot(%a: tensor<4194304xf32>, %b: tensor<4194304xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %d = linalg.dot ins(%a, %b : tensor<4194304xf32>, tensor<4194304xf32>)
      outs(%z : tensor<f32>) -> tensor<f32>
  return %d : tensor<f32>
}

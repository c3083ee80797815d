// One op: linalg.softmax, the named op, over the rows of a 2048x1024 f32
// matrix (nx-decompose-aggregated-ops makes it the maximum, exponential,
// sum and division that the rest of the pipeline knows).
func.func @softmax(%x: tensor<2048x1024xf32>) -> tensor<2048x1024xf32> {
  %e = tensor.empty() : tensor<2048x1024xf32>
  %s = linalg.softmax dimension(1) ins(%x : tensor<2048x1024xf32>)
      outs(%e : tensor<2048x1024xf32>) -> tensor<2048x1024xf32>
  return %s : tensor<2048x1024xf32>
}

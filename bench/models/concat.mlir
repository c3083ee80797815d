// One op: two 2048x1024 f32 matrices side by side (tensor.concat along
// dimension 1). Bufferization copies each operand into a subview of the
// result; nx-linalg-to-openmp shares the copies' rows among threads.
func.func @concat(%x: tensor<2048x1024xf32>, %y: tensor<2048x1024xf32>) -> tensor<2048x2048xf32> {
  %c = tensor.concat dim(1) %x, %y
      : (tensor<2048x1024xf32>, tensor<2048x1024xf32>) -> tensor<2048x2048xf32>
  return %c : tensor<2048x2048xf32>
}

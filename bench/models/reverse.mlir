// One op: a 2048x2048 f32 matrix with its columns in reverse order
// (tosa.reverse along axis 1, as jnp.flip and torch.flip of the last axis).
// Its lowering extracts the input at 2047 - j; nx-extracts-to-inputs makes
// that an indexing map, which nx-reversed-views reads through a view of
// negated strides that threads share and vectors read.
func.func @reverse(%x: tensor<2048x2048xf32>) -> tensor<2048x2048xf32> {
  %r = tosa.reverse %x {axis = 1 : i32} : (tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  return %r : tensor<2048x2048xf32>
}

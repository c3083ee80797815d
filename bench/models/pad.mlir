// One op: a zero border of one pixel around a 1x112x112x64 NHWC f32 image
// (tensor.pad). Bufferization fills the result and copies the image into
// its interior; nx-linalg-to-openmp shares both among threads.
func.func @pad(%x: tensor<1x112x112x64xf32>) -> tensor<1x114x114x64xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%n: index, %h: index, %w: index, %c: index):
    tensor.yield %zero : f32
  } : tensor<1x112x112x64xf32> to tensor<1x114x114x64xf32>
  return %p : tensor<1x114x114x64xf32>
}

// One op: the sums over a batch of 16 of rows of 524288 f32 (linalg.reduce
// over dimension 0 of few, wide rows): too few rows to give a large team a
// block each, so threads share the columns.
func.func @batch_sum(%x: tensor<16x524288xf32>) -> tensor<524288xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<524288xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<524288xf32>) -> tensor<524288xf32>
  %s = linalg.reduce ins(%x : tensor<16x524288xf32>) outs(%z : tensor<524288xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %t = arith.addf %in, %acc : f32
      linalg.yield %t : f32
    }
  return %s : tensor<524288xf32>
}

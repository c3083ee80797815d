// One op: the maximum over the middle axis of a 64x256x256 f32 tensor
// (linalg.reduce over dimension 1: neither the outer nor the inner one).
func.func @middle_max(%x: tensor<64x256x256xf32>) -> tensor<64x256xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<64x256xf32>
  %z = linalg.fill ins(%ninf : f32) outs(%e : tensor<64x256xf32>) -> tensor<64x256xf32>
  %s = linalg.reduce ins(%x : tensor<64x256x256xf32>) outs(%z : tensor<64x256xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %t = arith.maximumf %in, %acc : f32
      linalg.yield %t : f32
    }
  return %s : tensor<64x256xf32>
}

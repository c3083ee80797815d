// One op: a 3x3 average pool of stride 2 on a 1x112x112x64 NHWC f32 image,
// as a front end writes it: linalg.pooling_nhwc_sum, then a division by the
// window's size.
func.func @avg_pool(%x: tensor<1x112x112x64xf32>) -> tensor<1x55x55x64xf32> {
  %zero = arith.constant 0.0 : f32
  %size = arith.constant 9.0 : f32
  %window = tensor.empty() : tensor<3x3xf32>
  %e = tensor.empty() : tensor<1x55x55x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x55x55x64xf32>) -> tensor<1x55x55x64xf32>
  %s = linalg.pooling_nhwc_sum
      {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %window : tensor<1x112x112x64xf32>, tensor<3x3xf32>)
      outs(%z : tensor<1x55x55x64xf32>) -> tensor<1x55x55x64xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>,
                                        affine_map<(n, h, w, c) -> (n, h, w, c)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s : tensor<1x55x55x64xf32>) outs(%e : tensor<1x55x55x64xf32>) {
  ^bb0(%v: f32, %out: f32):
    %d = arith.divf %v, %size : f32
    linalg.yield %d : f32
  } -> tensor<1x55x55x64xf32>
  return %a : tensor<1x55x55x64xf32>
}

// One op: a ResNet layer's padded 3x3 convolution, 1x56x56x64 by
// 3x3x64x64 (linalg.conv_2d_nhwc_hwcf on tensor.pad), then ReLU.
func.func @conv(%x: tensor<1x56x56x64xf32>, %w: tensor<3x3x64x64xf32>) -> tensor<1x56x56x64xf32> {
  %zero = arith.constant 0.0 : f32
  %padded = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x56x56x64xf32> to tensor<1x58x58x64xf32>
  %init = tensor.empty() : tensor<1x56x56x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32>
  %conv = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%padded, %w : tensor<1x58x58x64xf32>, tensor<3x3x64x64xf32>) outs(%acc : tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32>
  %relu = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>],
                          iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%conv : tensor<1x56x56x64xf32>) outs(%init : tensor<1x56x56x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.maximumf %in, %zero : f32
    linalg.yield %r : f32
  } -> tensor<1x56x56x64xf32>
  return %relu : tensor<1x56x56x64xf32>
}

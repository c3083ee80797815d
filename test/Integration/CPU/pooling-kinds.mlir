// Max and min pooling run vectorized (nx-vectorize-linalg's window path)
// and agree with the loops: x[h, w, c] = 4h + w - c, so each 2x2 window of
// stride 2 has its maximum at its bottom right and its minimum at its top
// left. A NaN at (0, 0, channel 3) reaches both outputs of that window
// and channel: the maxima and minima may order +0 and -0 either way, but
// NaNs still propagate.
//
// RUN: nx-runner %s --entry=pool | FileCheck %s
// RUN: nx-runner %s --entry=pool --strict-reductions --vectorize=false | FileCheck %s
// RUN: nx-runner %s --print-lowered | FileCheck %s --check-prefix=LOWERED
// LOWERED: llvm.intr.maximum({{.*}}) {fastmathFlags = #llvm.fastmath<nsz, reassoc>} : (vector<{{[0-9]+}}xf32>
// LOWERED: llvm.intr.minimum({{.*}}) {fastmathFlags = #llvm.fastmath<nsz, reassoc>} : (vector<{{[0-9]+}}xf32>
// CHECK: result #0: tensor<1x2x2x16xf32> = {{\[\[\[}}[5, 4, 3, nan, 1, 0, -1, -2, -3, -4, -5, -6, -7, -8, -9, -10], [7, 6, 5, 4, 3, 2, 1, 0, -1, -2, -3, -4, -5, -6, -7, -8]], {{\[}}[13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, -1, -2], [15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0]]]]
// CHECK: result #1: tensor<1x2x2x16xf32> = {{\[\[\[}}[0, -1, -2, nan, -4, -5, -6, -7, -8, -9, -10, -11, -12, -13, -14, -15], [2, 1, 0, -1, -2, -3, -4, -5, -6, -7, -8, -9, -10, -11, -12, -13]], {{\[}}[8, 7, 6, 5, 4, 3, 2, 1, 0, -1, -2, -3, -4, -5, -6, -7], [10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, -1, -2, -3, -4, -5]]]]

func.func @pool() -> (tensor<1x2x2x16xf32>, tensor<1x2x2x16xf32>) {
  %empty = tensor.empty() : tensor<1x4x4x16xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%empty : tensor<1x4x4x16xf32>) {
  ^bb0(%out: f32):
    %h = linalg.index 1 : index
    %w = linalg.index 2 : index
    %c = linalg.index 3 : index
    %c4 = arith.constant 4 : index
    %c3 = arith.constant 3 : index
    %c0 = arith.constant 0 : index
    %h4 = arith.muli %h, %c4 : index
    %hw = arith.addi %h4, %w : index
    %v = arith.subi %hw, %c : index
    %i = arith.index_cast %v : index to i32
    %f = arith.sitofp %i : i32 to f32
    %is_c3 = arith.cmpi eq, %c, %c3 : index
    %is_h0 = arith.cmpi eq, %h, %c0 : index
    %is_w0 = arith.cmpi eq, %w, %c0 : index
    %a = arith.andi %is_c3, %is_h0 : i1
    %at = arith.andi %a, %is_w0 : i1
    %nan = arith.constant 0x7FC00000 : f32
    %r = arith.select %at, %nan, %f : f32
    linalg.yield %r : f32
  } -> tensor<1x4x4x16xf32>
  %window = tensor.empty() : tensor<2x2xf32>
  %out = tensor.empty() : tensor<1x2x2x16xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %inf = arith.constant 0x7F800000 : f32
  %low = linalg.fill ins(%ninf : f32) outs(%out : tensor<1x2x2x16xf32>) -> tensor<1x2x2x16xf32>
  %high = linalg.fill ins(%inf : f32) outs(%out : tensor<1x2x2x16xf32>) -> tensor<1x2x2x16xf32>
  %max = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %window : tensor<1x4x4x16xf32>, tensor<2x2xf32>) outs(%low : tensor<1x2x2x16xf32>) -> tensor<1x2x2x16xf32>
  %min = linalg.pooling_nhwc_min {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %window : tensor<1x4x4x16xf32>, tensor<2x2xf32>) outs(%high : tensor<1x2x2x16xf32>) -> tensor<1x2x2x16xf32>
  return %max, %min : tensor<1x2x2x16xf32>, tensor<1x2x2x16xf32>
}

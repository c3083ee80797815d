// A dense layer, relu(x w + b), runs as one call of the product, which
// adds the bias and takes the ReLU (nxrt_gemm_part_epilogue_f32), and gives
// what the loops give: each entry runs with the BLAS, on one thread, and
// without the BLAS, with the same expected output.
//
// RUN: nx-runner %s --entry=dense --input='[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]:tensor<3x4xf32>' --input='[[1, 0], [0, 1], [1, 1], [2, -1]]:tensor<4x2xf32>' --input='[-20, -6]:tensor<2xf32>' | FileCheck %s --check-prefix=DENSE
// RUN: nx-runner %s --compute-threads=1 --entry=dense --input='[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]:tensor<3x4xf32>' --input='[[1, 0], [0, 1], [1, 1], [2, -1]]:tensor<4x2xf32>' --input='[-20, -6]:tensor<2xf32>' | FileCheck %s --check-prefix=DENSE
// RUN: nx-runner %s --blas=false --entry=dense --input='[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]:tensor<3x4xf32>' --input='[[1, 0], [0, 1], [1, 1], [2, -1]]:tensor<4x2xf32>' --input='[-20, -6]:tensor<2xf32>' | FileCheck %s --check-prefix=DENSE
//
// A product of 2^20 multiply-adds is shared among the compute threads:
// every part adds the bias and takes the ReLU of its own rows.
// RUN: nx-runner %s --compute-threads=3 --entry=shared_dense --input=128x64xf32=1 --input=64x128xf32=0.5 --input=128xf32=-8 | FileCheck %s --check-prefix=SHARED
// RUN: nx-runner %s --blas=false --entry=shared_dense --input=128x64xf32=1 --input=64x128xf32=0.5 --input=128xf32=-8 | FileCheck %s --check-prefix=SHARED
//
// RUN: nx-runner %s --print-lowered | FileCheck %s --check-prefix=LOWERED
// LOWERED-LABEL: llvm.func @dense(
// LOWERED: llvm.call @nxrt_gemm_part_epilogue_f32(
// LOWERED-LABEL: llvm.func @shared_dense(
// LOWERED: omp.parallel
// LOWERED: llvm.call @nxrt_gemm_part_epilogue_f32(

#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (j)>

// x w = [[12, 1], [28, 5], [44, 9]]; plus [-20, -6], then the ReLU.
// DENSE: result #0: tensor<3x2xf32> = {{\[}}[0, 0], [8, 0], [24, 3]]
func.func @dense(%x: tensor<3x4xf32>, %w: tensor<4x2xf32>, %b: tensor<2xf32>) -> tensor<3x2xf32> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<3x2xf32>
  %c = linalg.fill ins(%zero : f32) outs(%init : tensor<3x2xf32>) -> tensor<3x2xf32>
  %m = linalg.matmul ins(%x, %w : tensor<3x4xf32>, tensor<4x2xf32>) outs(%c : tensor<3x2xf32>) -> tensor<3x2xf32>
  %h = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%m, %b : tensor<3x2xf32>, tensor<2xf32>) outs(%init : tensor<3x2xf32>) {
  ^bb0(%v: f32, %bias: f32, %out: f32):
    %s = arith.addf %v, %bias : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<3x2xf32>
  return %h : tensor<3x2xf32>
}

// Each element is 64 * 0.5 - 8 = 24; the sum of a column's 128 rows is
// 3072 (4096 where a part left out the bias).
// SHARED: result #0: tensor<128xf32> = [3072, 3072, 3072,
// SHARED-NOT: 4096
func.func @shared_dense(%x: tensor<128x64xf32>, %w: tensor<64x128xf32>, %b: tensor<128xf32>) -> tensor<128xf32> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<128x128xf32>
  %c = linalg.fill ins(%zero : f32) outs(%init : tensor<128x128xf32>) -> tensor<128x128xf32>
  %m = linalg.matmul ins(%x, %w : tensor<128x64xf32>, tensor<64x128xf32>) outs(%c : tensor<128x128xf32>) -> tensor<128x128xf32>
  %h = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%m, %b : tensor<128x128xf32>, tensor<128xf32>) outs(%init : tensor<128x128xf32>) {
  ^bb0(%v: f32, %bias: f32, %out: f32):
    %s = arith.addf %v, %bias : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<128x128xf32>
  %sinit = tensor.empty() : tensor<128xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%sinit : tensor<128xf32>) -> tensor<128xf32>
  %sum = linalg.reduce ins(%h : tensor<128x128xf32>) outs(%s0 : tensor<128xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %t = arith.addf %in, %acc : f32
      linalg.yield %t : f32
    }
  return %sum : tensor<128xf32>
}

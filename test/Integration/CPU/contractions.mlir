// Contractions run on the optimized BLAS (nx-linalg-to-blas) and give
// what the loops give: every entry runs both ways, with the same expected
// output. A slice that takes every other column is a view no BLAS call
// takes (neither of its strides is 1): the runtime's plain loop serves it.
//
// RUN: nx-runner %s --entry=matmul --input='[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]:tensor<3x4xf32>' --input='[[1, 0], [0, 1], [1, 1], [2, -1]]:tensor<4x2xf32>' | FileCheck %s --check-prefix=MATMUL
// RUN: nx-runner %s --compute-threads=1 --entry=matmul --input='[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]:tensor<3x4xf32>' --input='[[1, 0], [0, 1], [1, 1], [2, -1]]:tensor<4x2xf32>' | FileCheck %s --check-prefix=MATMUL
// RUN: nx-runner %s --blas=false --entry=matmul --input='[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]:tensor<3x4xf32>' --input='[[1, 0], [0, 1], [1, 1], [2, -1]]:tensor<4x2xf32>' | FileCheck %s --check-prefix=MATMUL
// RUN: nx-runner %s --entry=batch_matvec_f64 --input='[[[1, 2], [3, 4]], [[0, 1], [1, 0]]]:tensor<2x2x2xf64>' --input='[[[1], [1]], [[2], [3]]]:tensor<2x2x1xf64>' --input='[0.5, -1]:tensor<2xf64>' | FileCheck %s --check-prefix=BATCH
// RUN: nx-runner %s --blas=false --entry=batch_matvec_f64 --input='[[[1, 2], [3, 4]], [[0, 1], [1, 0]]]:tensor<2x2x2xf64>' --input='[[[1], [1]], [[2], [3]]]:tensor<2x2x1xf64>' --input='[0.5, -1]:tensor<2xf64>' | FileCheck %s --check-prefix=BATCH
// RUN: nx-runner %s --entry=views --input='[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]:tensor<3x4xf32>' --input='[[1, 1], [0, 2]]:tensor<2x2xf32>' | FileCheck %s --check-prefix=VIEWS
// RUN: nx-runner %s --blas=false --entry=views --input='[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]:tensor<3x4xf32>' --input='[[1, 1], [0, 2]]:tensor<2x2xf32>' | FileCheck %s --check-prefix=VIEWS
// RUN: nx-runner %s --entry=matmul_bf16 --input='[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]:tensor<3x4xf32>' --input='[[1, 0], [0, 1], [1, 1], [2, -1]]:tensor<4x2xf32>' | FileCheck %s --check-prefix=MATMUL
// RUN: nx-runner %s --blas=false --entry=matmul_bf16 --input='[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]:tensor<3x4xf32>' --input='[[1, 0], [0, 1], [1, 1], [2, -1]]:tensor<4x2xf32>' | FileCheck %s --check-prefix=MATMUL
// RUN: nx-runner %s --entry=matmul_f16 --input='[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]:tensor<3x4xf32>' --input='[[1, 0], [0, 1], [1, 1], [2, -1]]:tensor<4x2xf32>' | FileCheck %s --check-prefix=MATMUL
// RUN: nx-runner %s --blas=false --entry=matmul_f16 --input='[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]:tensor<3x4xf32>' --input='[[1, 0], [0, 1], [1, 1], [2, -1]]:tensor<4x2xf32>' | FileCheck %s --check-prefix=MATMUL
// RUN: nx-runner %s --entry=matmul_i8 --input='[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]:tensor<3x4xi8>' --input='[[1, 0], [0, 1], [1, 1], [2, -1]]:tensor<4x2xi8>' | FileCheck %s --check-prefix=MATMUL-I8
// RUN: nx-runner %s --blas=false --entry=matmul_i8 --input='[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]:tensor<3x4xi8>' --input='[[1, 0], [0, 1], [1, 1], [2, -1]]:tensor<4x2xi8>' | FileCheck %s --check-prefix=MATMUL-I8
// RUN: nx-runner %s --entry=exp_of_products --input='[[0, 1]]:tensor<1x2xf32>' --input='[[0], [1]]:tensor<2x1xf32>' | FileCheck %s --check-prefix=EXP
// RUN: nx-runner %s --blas=false --entry=exp_of_products --input='[[0, 1]]:tensor<1x2xf32>' --input='[[0], [1]]:tensor<2x1xf32>' | FileCheck %s --check-prefix=EXP
// RUN: nx-runner %s --print-lowered | FileCheck %s --check-prefix=LOWERED
// LOWERED-DAG: llvm.call @nxrt_gemm_f32(
// LOWERED-DAG: llvm.call @nxrt_gemm_f64(
// LOWERED-DAG: llvm.call @nxrt_gemm_bf16_f32(
// LOWERED-DAG: llvm.call @nxrt_gemm_f16_f32(
// LOWERED-DAG: llvm.call @nxrt_gemm_i8_i32(

// MATMUL: result #0: tensor<3x2xf32> = {{\[}}[12, 1], [28, 5], [44, 9]]
func.func @matmul(%a: tensor<3x4xf32>, %b: tensor<4x2xf32>) -> tensor<3x2xf32> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<3x2xf32>
  %c = linalg.fill ins(%zero : f32) outs(%init : tensor<3x2xf32>) -> tensor<3x2xf32>
  %r = linalg.matmul ins(%a, %b : tensor<3x4xf32>, tensor<4x2xf32>) outs(%c : tensor<3x2xf32>) -> tensor<3x2xf32>
  return %r : tensor<3x2xf32>
}

// The batch product [[3], [7]] and [[3], [2]], then a matvec that adds
// into a bias-initialized accumulator: [[1, 2], [3, 4]] [0.5, -1] + 1.
// BATCH: result #0: tensor<2x2x1xf64> = {{\[}}{{\[}}[3], [7]], {{\[}}[3], [2]]]
// BATCH: result #1: tensor<2xf64> = [-0.5, -1.5]
func.func @batch_matvec_f64(%a: tensor<2x2x2xf64>, %b: tensor<2x2x1xf64>, %x: tensor<2xf64>) -> (tensor<2x2x1xf64>, tensor<2xf64>) {
  %zero = arith.constant 0.0 : f64
  %init = tensor.empty() : tensor<2x2x1xf64>
  %c = linalg.fill ins(%zero : f64) outs(%init : tensor<2x2x1xf64>) -> tensor<2x2x1xf64>
  %r = linalg.batch_matmul ins(%a, %b : tensor<2x2x2xf64>, tensor<2x2x1xf64>) outs(%c : tensor<2x2x1xf64>) -> tensor<2x2x1xf64>
  %m = tensor.extract_slice %a[0, 0, 0] [1, 2, 2] [1, 1, 1] : tensor<2x2x2xf64> to tensor<2x2xf64>
  %one = arith.constant 1.0 : f64
  %yinit = tensor.empty() : tensor<2xf64>
  %y0 = linalg.fill ins(%one : f64) outs(%yinit : tensor<2xf64>) -> tensor<2xf64>
  %y = linalg.matvec ins(%m, %x : tensor<2x2xf64>, tensor<2xf64>) outs(%y0 : tensor<2xf64>) -> tensor<2xf64>
  return %r, %y : tensor<2x2x1xf64>, tensor<2xf64>
}

// Columns 0 and 2 of A, [[1, 3], [5, 7], [9, 11]], times [[1, 1], [0, 2]].
// VIEWS: result #0: tensor<3x2xf32> = {{\[}}[1, 7], [5, 19], [9, 31]]
func.func @views(%a: tensor<3x4xf32>, %b: tensor<2x2xf32>) -> tensor<3x2xf32> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<3x2xf32>
  %c = linalg.fill ins(%zero : f32) outs(%init : tensor<3x2xf32>) -> tensor<3x2xf32>
  %s = tensor.extract_slice %a[0, 0] [3, 2] [1, 2] : tensor<3x4xf32> to tensor<3x2xf32>
  %r = linalg.matmul ins(%s, %b : tensor<3x2xf32>, tensor<2x2xf32>) outs(%c : tensor<3x2xf32>) -> tensor<3x2xf32>
  return %r : tensor<3x2xf32>
}

// The same product of operands rounded to bf16 (every value here is exact
// in bf16), summed in f32: nxrt_gemm_bf16_f32, or loops with --blas=false.
func.func @matmul_bf16(%a: tensor<3x4xf32>, %b: tensor<4x2xf32>) -> tensor<3x2xf32> {
  %a16 = arith.truncf %a : tensor<3x4xf32> to tensor<3x4xbf16>
  %b16 = arith.truncf %b : tensor<4x2xf32> to tensor<4x2xbf16>
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<3x2xf32>
  %c = linalg.fill ins(%zero : f32) outs(%init : tensor<3x2xf32>) -> tensor<3x2xf32>
  %r = linalg.matmul ins(%a16, %b16 : tensor<3x4xbf16>, tensor<4x2xbf16>) outs(%c : tensor<3x2xf32>) -> tensor<3x2xf32>
  return %r : tensor<3x2xf32>
}

// The same product of f16 operands summed in f32: nxrt_gemm_f16_f32, or
// loops with --blas=false.
func.func @matmul_f16(%a: tensor<3x4xf32>, %b: tensor<4x2xf32>) -> tensor<3x2xf32> {
  %a16 = arith.truncf %a : tensor<3x4xf32> to tensor<3x4xf16>
  %b16 = arith.truncf %b : tensor<4x2xf32> to tensor<4x2xf16>
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<3x2xf32>
  %c = linalg.fill ins(%zero : f32) outs(%init : tensor<3x2xf32>) -> tensor<3x2xf32>
  %r = linalg.matmul ins(%a16, %b16 : tensor<3x4xf16>, tensor<4x2xf16>) outs(%c : tensor<3x2xf32>) -> tensor<3x2xf32>
  return %r : tensor<3x2xf32>
}

// The same product of i8 operands summed in i32: nxrt_gemm_i8_i32, or
// loops with --blas=false.
// MATMUL-I8: result #0: tensor<3x2xi32> = {{\[}}[12, 1], [28, 5], [44, 9]]
func.func @matmul_i8(%a: tensor<3x4xi8>, %b: tensor<4x2xi8>) -> tensor<3x2xi32> {
  %zero = arith.constant 0 : i32
  %init = tensor.empty() : tensor<3x2xi32>
  %c = linalg.fill ins(%zero : i32) outs(%init : tensor<3x2xi32>) -> tensor<3x2xi32>
  %r = linalg.matmul ins(%a, %b : tensor<3x4xi8>, tensor<4x2xi8>) outs(%c : tensor<3x2xi32>) -> tensor<3x2xi32>
  return %r : tensor<3x2xi32>
}

// A body the contraction interface takes but no GEMM computes: the sum of
// exp(a * b), exp(0) + exp(1), not the product's 1.
// EXP: result #0: tensor<1x1xf32> = {{\[}}[3.71828{{[0-9]*}}]]
func.func @exp_of_products(%a: tensor<1x2xf32>, %b: tensor<2x1xf32>) -> tensor<1x1xf32> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<1x1xf32>
  %c = linalg.fill ins(%zero : f32) outs(%init : tensor<1x1xf32>) -> tensor<1x1xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<1x2xf32>, tensor<2x1xf32>) outs(%c : tensor<1x1xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %e = math.exp %p : f32
    %s = arith.addf %acc, %e : f32
    linalg.yield %s : f32
  } -> tensor<1x1xf32>
  return %r : tensor<1x1xf32>
}

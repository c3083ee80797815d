// A large product is shared among the compute threads, one part per thread
// (nxrt_gemm_part_f64 in an OpenMP loop), and the parts together are the
// whole product whatever the team size: rows cut into whole batches (3
// batches, 3 threads), across batches (2 threads) or unevenly, columns cut
// when rows are few, and a size known only at run time below the
// threshold, which runs as one part. Each program scales A's rows by
// (batch + row + 1), so a part that misses, repeats or misplaces rows
// leaves an error; it returns the largest |C - expected|.
//
// RUN: nx-runner %s --print-lowered | FileCheck %s --check-prefix=LOWERED
// LOWERED: omp.parallel
// LOWERED: llvm.call @nxrt_gemm_part_f64(
//
// RUN: nx-runner %s --entry=product --compute-threads=1 --input="3x130x1024xf64=1" --input="3x1024x70xf64=1" | FileCheck %s
// RUN: nx-runner %s --entry=product --compute-threads=2 --input="3x130x1024xf64=1" --input="3x1024x70xf64=1" | FileCheck %s
// RUN: nx-runner %s --entry=product --compute-threads=3 --input="3x130x1024xf64=1" --input="3x1024x70xf64=1" | FileCheck %s
// RUN: nx-runner %s --entry=product --compute-threads=5 --input="1x100x1024xf64=1" --input="1x1024x70xf64=1" | FileCheck %s
// RUN: nx-runner %s --entry=product --compute-threads=3 --input="1x4x600xf64=1" --input="1x600x1000xf64=1" | FileCheck %s
// RUN: nx-runner %s --entry=product --compute-threads=2 --input="2x3x4xf64=1" --input="2x4x5xf64=1" | FileCheck %s
// RUN: nx-runner %s --entry=static_product --compute-threads=3 --input="2x130x512xf64=1" --input="2x512x64xf64=1" | FileCheck %s
// CHECK: result #0: tensor<f64> = 0

#id = affine_map<(b, i, j) -> (b, i, j)>
#all = affine_map<(b, i, j) -> ()>

func.func @product(%a: tensor<?x?x?xf64>, %b: tensor<?x?x?xf64>) -> tensor<f64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %batch = tensor.dim %a, %c0 : tensor<?x?x?xf64>
  %m = tensor.dim %a, %c1 : tensor<?x?x?xf64>
  %k = tensor.dim %a, %c2 : tensor<?x?x?xf64>
  %n = tensor.dim %b, %c2 : tensor<?x?x?xf64>
  %empty_a = tensor.empty(%batch, %m, %k) : tensor<?x?x?xf64>
  %scaled = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%a : tensor<?x?x?xf64>) outs(%empty_a : tensor<?x?x?xf64>) {
  ^bb0(%in: f64, %out: f64):
    %bi = linalg.index 0 : index
    %ri = linalg.index 1 : index
    %sum = arith.addi %bi, %ri : index
    %weight = arith.addi %sum, %c1 : index
    %w64 = arith.index_cast %weight : index to i64
    %wf = arith.sitofp %w64 : i64 to f64
    %v = arith.mulf %in, %wf : f64
    linalg.yield %v : f64
  } -> tensor<?x?x?xf64>
  %zero = arith.constant 0.0 : f64
  %empty_c = tensor.empty(%batch, %m, %n) : tensor<?x?x?xf64>
  %acc = linalg.fill ins(%zero : f64) outs(%empty_c : tensor<?x?x?xf64>) -> tensor<?x?x?xf64>
  %c = linalg.batch_matmul ins(%scaled, %b : tensor<?x?x?xf64>, tensor<?x?x?xf64>) outs(%acc : tensor<?x?x?xf64>) -> tensor<?x?x?xf64>
  %k64 = arith.index_cast %k : index to i64
  %kf = arith.sitofp %k64 : i64 to f64
  %err_init = tensor.empty() : tensor<f64>
  %err0 = linalg.fill ins(%zero : f64) outs(%err_init : tensor<f64>) -> tensor<f64>
  %err = linalg.generic {indexing_maps = [#id, #all], iterator_types = ["reduction", "reduction", "reduction"]}
      ins(%c : tensor<?x?x?xf64>) outs(%err0 : tensor<f64>) {
  ^bb0(%in: f64, %out: f64):
    %bi = linalg.index 0 : index
    %ri = linalg.index 1 : index
    %sum = arith.addi %bi, %ri : index
    %weight = arith.addi %sum, %c1 : index
    %w64 = arith.index_cast %weight : index to i64
    %wf = arith.sitofp %w64 : i64 to f64
    %expected = arith.mulf %wf, %kf : f64
    %diff = arith.subf %in, %expected : f64
    %abs = math.absf %diff : f64
    %max = arith.maximumf %abs, %out : f64
    linalg.yield %max : f64
  } -> tensor<f64>
  return %err : tensor<f64>
}

func.func @static_product(%a: tensor<2x130x512xf64>, %b: tensor<2x512x64xf64>) -> tensor<f64> {
  %scaled = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%a : tensor<2x130x512xf64>) outs(%a : tensor<2x130x512xf64>) {
  ^bb0(%in: f64, %out: f64):
    %bi = linalg.index 0 : index
    %ri = linalg.index 1 : index
    %c1 = arith.constant 1 : index
    %sum = arith.addi %bi, %ri : index
    %weight = arith.addi %sum, %c1 : index
    %w64 = arith.index_cast %weight : index to i64
    %wf = arith.sitofp %w64 : i64 to f64
    %v = arith.mulf %in, %wf : f64
    linalg.yield %v : f64
  } -> tensor<2x130x512xf64>
  %zero = arith.constant 0.0 : f64
  %empty_c = tensor.empty() : tensor<2x130x64xf64>
  %acc = linalg.fill ins(%zero : f64) outs(%empty_c : tensor<2x130x64xf64>) -> tensor<2x130x64xf64>
  %c = linalg.batch_matmul ins(%scaled, %b : tensor<2x130x512xf64>, tensor<2x512x64xf64>) outs(%acc : tensor<2x130x64xf64>) -> tensor<2x130x64xf64>
  %kf = arith.constant 512.0 : f64
  %err_init = tensor.empty() : tensor<f64>
  %err0 = linalg.fill ins(%zero : f64) outs(%err_init : tensor<f64>) -> tensor<f64>
  %err = linalg.generic {indexing_maps = [#id, #all], iterator_types = ["reduction", "reduction", "reduction"]}
      ins(%c : tensor<2x130x64xf64>) outs(%err0 : tensor<f64>) {
  ^bb0(%in: f64, %out: f64):
    %bi = linalg.index 0 : index
    %ri = linalg.index 1 : index
    %c1 = arith.constant 1 : index
    %sum = arith.addi %bi, %ri : index
    %weight = arith.addi %sum, %c1 : index
    %w64 = arith.index_cast %weight : index to i64
    %wf = arith.sitofp %w64 : i64 to f64
    %expected = arith.mulf %wf, %kf : f64
    %diff = arith.subf %in, %expected : f64
    %abs = math.absf %diff : f64
    %max = arith.maximumf %abs, %out : f64
    linalg.yield %max : f64
  } -> tensor<f64>
  return %err : tensor<f64>
}

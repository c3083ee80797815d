// Linalg ops of complex elements lower to arithmetic on their parts
// (convert-complex-to-standard, then the parts' LLVM struct): z = (j + 2i)
// for j in [0, 1000), then z * z + z, whose parts are j^2 - 4 + j and
// 4j + 2. @complex_arithmetic returns how many elements differ from that
// (0): on one thread, on three, and serially.
// RUN: nx-runner %s --entry=complex_arithmetic --compute-threads=1 | FileCheck %s
// RUN: nx-runner %s --entry=complex_arithmetic --compute-threads=3 | FileCheck %s
// RUN: nx-runner %s --entry=complex_arithmetic --parallel=false | FileCheck %s

// CHECK: result #0: tensor<i32> = 0

#id = affine_map<(j) -> (j)>
#all = affine_map<(j) -> ()>

func.func @complex_arithmetic() -> tensor<i32> {
  %e = tensor.empty() : tensor<1000xcomplex<f32>>
  %z = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]}
      outs(%e : tensor<1000xcomplex<f32>>) {
  ^bb0(%o: complex<f32>):
    %j = linalg.index 0 : index
    %ji = arith.index_cast %j : index to i32
    %re = arith.sitofp %ji : i32 to f32
    %im = arith.constant 2.0 : f32
    %c = complex.create %re, %im : complex<f32>
    linalg.yield %c : complex<f32>
  } -> tensor<1000xcomplex<f32>>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%z : tensor<1000xcomplex<f32>>) outs(%e : tensor<1000xcomplex<f32>>) {
  ^bb0(%v: complex<f32>, %o: complex<f32>):
    %sq = complex.mul %v, %v : complex<f32>
    %s = complex.add %sq, %v : complex<f32>
    linalg.yield %s : complex<f32>
  } -> tensor<1000xcomplex<f32>>
  %zero = arith.constant 0 : i32
  %ei = tensor.empty() : tensor<i32>
  %init = linalg.fill ins(%zero : i32) outs(%ei : tensor<i32>) -> tensor<i32>
  %wrong = linalg.generic {indexing_maps = [#id, #all], iterator_types = ["reduction"]}
      ins(%y : tensor<1000xcomplex<f32>>) outs(%init : tensor<i32>) {
  ^bb0(%v: complex<f32>, %acc: i32):
    %j = linalg.index 0 : index
    %ji = arith.index_cast %j : index to i32
    %jf = arith.sitofp %ji : i32 to f32
    %four = arith.constant 4.0 : f32
    %two = arith.constant 2.0 : f32
    %jj = arith.mulf %jf, %jf : f32
    %a = arith.subf %jj, %four : f32
    %want_re = arith.addf %a, %jf : f32
    %fj = arith.mulf %four, %jf : f32
    %want_im = arith.addf %fj, %two : f32
    %re = complex.re %v : complex<f32>
    %im = complex.im %v : complex<f32>
    %bad_re = arith.cmpf une, %re, %want_re : f32
    %bad_im = arith.cmpf une, %im, %want_im : f32
    %bad = arith.ori %bad_re, %bad_im : i1
    %one = arith.extui %bad : i1 to i32
    %t = arith.addi %acc, %one : i32
    linalg.yield %t : i32
  } -> tensor<i32>
  return %wrong : tensor<i32>
}

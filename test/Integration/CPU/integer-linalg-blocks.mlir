// QR and Eigh blocks on integer matrices run the f32 LAPACK kernels, as in
// EXLA: the input is converted to f32 and the results are f32. Q R = A is
// checked on the host by nx.debug.assert_close (a mismatch fails the run).
//
// RUN: nx-runner %s --entry=qr_i32 --input='[[1, 2], [3, 4], [5, 6]]:tensor<3x2xi32>' | FileCheck %s --check-prefix=QR
// RUN: nx-runner %s --entry=eigh_i64 --input='[[2, 1], [1, 2]]:tensor<2x2xi64>' | FileCheck %s --check-prefix=EIGH
// RUN: nx-runner %s --print-lowered | FileCheck %s --check-prefix=LOWERED
// LOWERED-DAG: qr_cpu_custom_call_f32\00
// LOWERED-DAG: eigh_cpu_custom_call_f32\00

nx.callback @nx.debug.assert_close : (tensor<3x2xf32>, tensor<3x2xf32>) -> ()

// Q R reproduces A; |R| x1000 with R[0][0] = |column 0| = sqrt(35).
// QR: result #0: tensor<2x2xi32> = {{\[}}[5916, 7437], [0, 828]]
func.func @qr_i32(%a: tensor<3x2xi32>) -> tensor<2x2xi32> {
  %q, %r = nx.block "Nx.Block.LinAlg.QR" {mode = "reduced"} (%a) : (tensor<3x2xi32>) -> (tensor<3x2xf32>, tensor<2x2xf32>) {
  ^bb0(%m: tensor<3x2xi32>):
    // Never run on the host, where the block is LAPACK's QR.
    %zq = arith.constant dense<0.0> : tensor<3x2xf32>
    %zr = arith.constant dense<0.0> : tensor<2x2xf32>
    nx.yield %zq, %zr : tensor<3x2xf32>, tensor<2x2xf32>
  }
  %af = arith.sitofp %a : tensor<3x2xi32> to tensor<3x2xf32>
  %zero = arith.constant dense<0.0> : tensor<3x2xf32>
  %qr = linalg.matmul ins(%q, %r : tensor<3x2xf32>, tensor<2x2xf32>) outs(%zero : tensor<3x2xf32>) -> tensor<3x2xf32>
  nx.elixir_call @nx.debug.assert_close(%qr, %af) static_args {atol = 1.0e-4 : f64} : (tensor<3x2xf32>, tensor<3x2xf32>) -> ()
  %abs = math.absf %r : tensor<2x2xf32>
  %k = arith.constant dense<1000.0> : tensor<2x2xf32>
  %scaled = arith.mulf %abs, %k : tensor<2x2xf32>
  %ints = arith.fptosi %scaled : tensor<2x2xf32> to tensor<2x2xi32>
  return %ints : tensor<2x2xi32>
}

// Eigenvalues in ascending order (the default region would give zeros).
// EIGH: result #0: tensor<2xf32> = [1, 3]
func.func @eigh_i64(%a: tensor<2x2xi64>) -> tensor<2xf32> {
  %w, %v = nx.block "Nx.Block.LinAlg.Eigh" {} (%a) : (tensor<2x2xi64>) -> (tensor<2xf32>, tensor<2x2xf32>) {
  ^bb0(%m: tensor<2x2xi64>):
    %zw = arith.constant dense<0.0> : tensor<2xf32>
    %zv = arith.constant dense<0.0> : tensor<2x2xf32>
    nx.yield %zw, %zv : tensor<2xf32>, tensor<2x2xf32>
  }
  %rounded = math.round %w : tensor<2xf32>
  return %rounded : tensor<2xf32>
}

// QR and Eigh blocks reach the runtime's LAPACK kernels
// (qr_cpu_custom_call_f32, eigh_cpu_custom_call_f64). The programs check the
// factorisations themselves - Q R = A, Q^T Q = I, V diag(w) V^T = A - both
// elementwise within a tolerance (i1 results) and rounded to integers for
// exact output.
//
// nx-lower-to-cpu does not lower nx.block yet, so the blocks are first
// turned into custom calls with convert-nx-to-custom-call (after
// nx-assign-callback-ids, which it requires). That pass also turns
// elixir_calls into custom calls, which nx-lower-to-cpu then treats as
// custom-call targets, so these programs use no host callbacks.
// RUN: nx-opt %s --nx-assign-callback-ids --convert-nx-to-custom-call \
// RUN:   | nx-runner - --entry=qr --input='[[1, 2, 3], [4, 5, 6], [7, 8, 10], [2, 0, 1]]:tensor<4x3xf32>' \
// RUN:   | FileCheck %s --enable-var-scope --check-prefix=QR
// RUN: nx-opt %s --nx-assign-callback-ids --convert-nx-to-custom-call \
// RUN:   | nx-runner - --entry=eigh --input='[[2, 1, 0], [1, 2, 0], [0, 0, 5]]:tensor<3x3xf64>' \
// RUN:   | FileCheck %s --enable-var-scope --check-prefix=EIGH
// From 8 threads at once.
// RUN: nx-opt %s --nx-assign-callback-ids --convert-nx-to-custom-call \
// RUN:   | nx-runner - --entry=eigh --threads=8 --repeat=10 --input='[[2, 1, 0], [1, 2, 0], [0, 0, 5]]:tensor<3x3xf64>' \
// RUN:   | FileCheck %s --enable-var-scope --check-prefix=EIGH

// QR: result #0: tensor<4x3xf32> = {{\[}}[1, 2, 3], [4, 5, 6], [7, 8, 10], [2, 0, 1]]
// QR-NEXT: result #1: tensor<3x3xf32> = {{\[}}[1, 0, 0], [0, 1, 0], [0, 0, 1]]
// QR-NEXT: result #2: tensor<3x3xf32> = {{\[}}[0, 0, 0], [0, 0, 0], [0, 0, 0]]
// QR-NEXT: result #3: tensor<4x3xi1> = {{\[}}[true, true, true], [true, true, true], [true, true, true], [true, true, true]]
// QR-NEXT: result #4: tensor<3x3xi1> = {{\[}}[true, true, true], [true, true, true], [true, true, true]]
func.func @qr(%a: tensor<4x3xf32>)
    -> (tensor<4x3xf32>, tensor<3x3xf32>, tensor<3x3xf32>, tensor<4x3xi1>, tensor<3x3xi1>) {
  %q, %r = nx.block "Nx.Block.LinAlg.QR" {mode = "reduced"} (%a) : (tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<3x3xf32>) {
  ^bb0(%m: tensor<4x3xf32>):
    %z = arith.constant dense<0.0> : tensor<3x3xf32>
    nx.yield %m, %z : tensor<4x3xf32>, tensor<3x3xf32>
  }
  %zero = arith.constant 0.0 : f32
  %e43 = tensor.empty() : tensor<4x3xf32>
  %f43 = linalg.fill ins(%zero : f32) outs(%e43 : tensor<4x3xf32>) -> tensor<4x3xf32>
  %qr = linalg.matmul ins(%q, %r : tensor<4x3xf32>, tensor<3x3xf32>) outs(%f43 : tensor<4x3xf32>) -> tensor<4x3xf32>
  %d43 = arith.subf %qr, %a : tensor<4x3xf32>
  %a43 = math.absf %d43 : tensor<4x3xf32>
  %tol43 = arith.constant dense<1.0e-4> : tensor<4x3xf32>
  %ok43 = arith.cmpf ole, %a43, %tol43 : tensor<4x3xf32>

  %e34 = tensor.empty() : tensor<3x4xf32>
  %qt = linalg.transpose ins(%q : tensor<4x3xf32>) outs(%e34 : tensor<3x4xf32>) permutation = [1, 0]
  %e33 = tensor.empty() : tensor<3x3xf32>
  %f33 = linalg.fill ins(%zero : f32) outs(%e33 : tensor<3x3xf32>) -> tensor<3x3xf32>
  %qtq = linalg.matmul ins(%qt, %q : tensor<3x4xf32>, tensor<4x3xf32>) outs(%f33 : tensor<3x3xf32>) -> tensor<3x3xf32>
  %eye = arith.constant dense<[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]> : tensor<3x3xf32>
  %d33 = arith.subf %qtq, %eye : tensor<3x3xf32>
  %a33 = math.absf %d33 : tensor<3x3xf32>
  %tol33 = arith.constant dense<1.0e-5> : tensor<3x3xf32>
  %ok33 = arith.cmpf ole, %a33, %tol33 : tensor<3x3xf32>

  // R is upper triangular: its strictly lower part is zero.
  %lower = arith.constant dense<[[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 1.0, 0.0]]> : tensor<3x3xf32>
  %rl = arith.mulf %r, %lower : tensor<3x3xf32>

  // Rounded; adding +0 turns -0 into 0.
  %pz43 = arith.constant dense<0.0> : tensor<4x3xf32>
  %pz33 = arith.constant dense<0.0> : tensor<3x3xf32>
  %qr_n = math.round %qr : tensor<4x3xf32>
  %qr_r = arith.addf %qr_n, %pz43 : tensor<4x3xf32>
  %qtq_n = math.round %qtq : tensor<3x3xf32>
  %qtq_r = arith.addf %qtq_n, %pz33 : tensor<3x3xf32>
  %rl_n = math.round %rl : tensor<3x3xf32>
  %rl_r = arith.addf %rl_n, %pz33 : tensor<3x3xf32>
  return %qr_r, %qtq_r, %rl_r, %ok43, %ok33 : tensor<4x3xf32>, tensor<3x3xf32>, tensor<3x3xf32>, tensor<4x3xi1>, tensor<3x3xi1>
}

// Eigenvalues of [[2, 1, 0], [1, 2, 0], [0, 0, 5]] are 1, 3 and 5, ascending.
// EIGH: result #0: tensor<3xf64> = [1, 3, 5]
// EIGH-NEXT: result #1: tensor<3x3xf64> = {{\[}}[2, 1, 0], [1, 2, 0], [0, 0, 5]]
// EIGH-NEXT: result #2: tensor<3x3xi1> = {{\[}}[true, true, true], [true, true, true], [true, true, true]]
func.func @eigh(%a: tensor<3x3xf64>) -> (tensor<3xf64>, tensor<3x3xf64>, tensor<3x3xi1>) {
  %w, %v = nx.block "Nx.Block.LinAlg.Eigh" {} (%a) : (tensor<3x3xf64>) -> (tensor<3xf64>, tensor<3x3xf64>) {
  ^bb0(%m: tensor<3x3xf64>):
    %z = arith.constant dense<0.0> : tensor<3xf64>
    nx.yield %z, %m : tensor<3xf64>, tensor<3x3xf64>
  }
  // V diag(w) V^T: scale column j of V by w[j], then multiply by V^T.
  %e = tensor.empty() : tensor<3x3xf64>
  %vw = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%v, %w : tensor<3x3xf64>, tensor<3xf64>) outs(%e : tensor<3x3xf64>) {
  ^bb0(%x: f64, %s: f64, %o: f64):
    %p = arith.mulf %x, %s : f64
    linalg.yield %p : f64
  } -> tensor<3x3xf64>
  %vt = linalg.transpose ins(%v : tensor<3x3xf64>) outs(%e : tensor<3x3xf64>) permutation = [1, 0]
  %zero = arith.constant 0.0 : f64
  %f = linalg.fill ins(%zero : f64) outs(%e : tensor<3x3xf64>) -> tensor<3x3xf64>
  %rec = linalg.matmul ins(%vw, %vt : tensor<3x3xf64>, tensor<3x3xf64>) outs(%f : tensor<3x3xf64>) -> tensor<3x3xf64>
  %d = arith.subf %rec, %a : tensor<3x3xf64>
  %ad = math.absf %d : tensor<3x3xf64>
  %tol = arith.constant dense<1.0e-9> : tensor<3x3xf64>
  %ok = arith.cmpf ole, %ad, %tol : tensor<3x3xf64>
  %w_r = math.round %w : tensor<3xf64>
  %rec_r = math.round %rec : tensor<3x3xf64>
  return %w_r, %rec_r, %ok : tensor<3xf64>, tensor<3x3xf64>, tensor<3x3xi1>
}

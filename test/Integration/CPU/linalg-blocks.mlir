// QR and Eigh blocks run two ways and agree: through the runtime's LAPACK
// kernels (the block lowering registry turns them into qr_cpu_custom_call_f32
// / eigh_cpu_custom_call_f64 custom calls, the default) and through their
// inlined default regions (--lower-blocks=false): modified Gram-Schmidt for
// QR, cyclic Jacobi for Eigh. Both runs print through the same CHECK lines.
//
// QR is unique up to the signs of Q's columns and R's rows, so the programs
// print |R| and |Q| (x1000, rounded to integers) plus exact checks that
// Q R = A, Q^T Q = I and that R is upper triangular. Eigh prints the
// eigenvalues (ascending, x1000 rounded) and checks A V = V diag(w) and
// V^T V = I.
//
// DEFINE: %{qr_input} = '[[1, 2, 3], [4, 5, 6], [7, 8, 10], [2, 0, 1]]:tensor<4x3xf32>'
// DEFINE: %{eigh_input} = '[[4, 1, 2], [1, 3, 0], [2, 0, 5]]:tensor<3x3xf64>'
// RUN: nx-runner %s --entry=qr --input=%{qr_input} | FileCheck %s --check-prefix=QR
// RUN: nx-runner %s --entry=qr --input=%{qr_input} --lower-blocks=false | FileCheck %s --check-prefix=QR
// RUN: nx-runner %s --entry=eigh --input=%{eigh_input} | FileCheck %s --check-prefix=EIGH
// RUN: nx-runner %s --entry=eigh --input=%{eigh_input} --lower-blocks=false | FileCheck %s --check-prefix=EIGH
// From 8 threads at once.
// RUN: nx-runner %s --entry=eigh --threads=8 --repeat=10 --input=%{eigh_input} | FileCheck %s --check-prefix=EIGH
// The LAPACK path really is a custom call, the default path is not.
// RUN: nx-runner %s --print-lowered | FileCheck %s --check-prefix=LAPACK
// RUN: nx-runner %s --print-lowered --lower-blocks=false | FileCheck %s --check-prefix=INLINED
// LAPACK-DAG: qr_cpu_custom_call_f32\00
// LAPACK-DAG: eigh_cpu_custom_call_f64\00
// INLINED-NOT: _cpu_custom_call_

// |R| and |Q| x1000 (R[0][0] = |column 0| = sqrt(70)).
// QR: result #0: tensor<3x3xi32> = {{\[}}[8367, 9323, 11833], [0, 2467, 2305], [0, 0, 821]]
// QR-NEXT: result #1: tensor<4x3xi32> = {{\[}}[120, 359, 924], [478, 220, 200], [837, 81, 106], [239, 903, 309]]
// QR-NEXT: result #2: tensor<4x3xi1> = {{\[}}[true, true, true], [true, true, true], [true, true, true], [true, true, true]]
// QR-NEXT: result #3: tensor<3x3xi1> = {{\[}}[true, true, true], [true, true, true], [true, true, true]]
// QR-NEXT: result #4: tensor<3x3xi1> = {{\[}}[true, true, true], [true, true, true], [true, true, true]]
func.func @qr(%a: tensor<4x3xf32>)
    -> (tensor<3x3xi32>, tensor<4x3xi32>, tensor<4x3xi1>, tensor<3x3xi1>, tensor<3x3xi1>) {
  %q, %r = nx.block "Nx.Block.LinAlg.QR" {mode = "reduced"} (%a) : (tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<3x3xf32>) {
  ^bb0(%m: tensor<4x3xf32>):
    // Modified Gram-Schmidt: column j loses its projections on the
    // (already orthonormal) columns before it, then is normalised.
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %fzero = arith.constant 0.0 : f32
    %r0 = arith.constant dense<0.0> : tensor<3x3xf32>
    %qf, %rf = scf.for %j = %c0 to %c3 step %c1 iter_args(%qa = %m, %ra = %r0) -> (tensor<4x3xf32>, tensor<3x3xf32>) {
      %qb, %rb = scf.for %i = %c0 to %j step %c1 iter_args(%qi = %qa, %ri = %ra) -> (tensor<4x3xf32>, tensor<3x3xf32>) {
        %dot = scf.for %k = %c0 to %c4 step %c1 iter_args(%acc = %fzero) -> (f32) {
          %x = tensor.extract %qi[%k, %i] : tensor<4x3xf32>
          %y = tensor.extract %qi[%k, %j] : tensor<4x3xf32>
          %p = arith.mulf %x, %y : f32
          %s = arith.addf %acc, %p : f32
          scf.yield %s : f32
        }
        %ri2 = tensor.insert %dot into %ri[%i, %j] : tensor<3x3xf32>
        %qi2 = scf.for %k = %c0 to %c4 step %c1 iter_args(%qk = %qi) -> (tensor<4x3xf32>) {
          %x = tensor.extract %qk[%k, %i] : tensor<4x3xf32>
          %y = tensor.extract %qk[%k, %j] : tensor<4x3xf32>
          %p = arith.mulf %dot, %x : f32
          %d = arith.subf %y, %p : f32
          %qk2 = tensor.insert %d into %qk[%k, %j] : tensor<4x3xf32>
          scf.yield %qk2 : tensor<4x3xf32>
        }
        scf.yield %qi2, %ri2 : tensor<4x3xf32>, tensor<3x3xf32>
      }
      %sq = scf.for %k = %c0 to %c4 step %c1 iter_args(%acc = %fzero) -> (f32) {
        %y = tensor.extract %qb[%k, %j] : tensor<4x3xf32>
        %p = arith.mulf %y, %y : f32
        %s = arith.addf %acc, %p : f32
        scf.yield %s : f32
      }
      %norm = math.sqrt %sq : f32
      %rc = tensor.insert %norm into %rb[%j, %j] : tensor<3x3xf32>
      %qc = scf.for %k = %c0 to %c4 step %c1 iter_args(%qk = %qb) -> (tensor<4x3xf32>) {
        %y = tensor.extract %qk[%k, %j] : tensor<4x3xf32>
        %d = arith.divf %y, %norm : f32
        %qk2 = tensor.insert %d into %qk[%k, %j] : tensor<4x3xf32>
        scf.yield %qk2 : tensor<4x3xf32>
      }
      scf.yield %qc, %rc : tensor<4x3xf32>, tensor<3x3xf32>
    }
    nx.yield %qf, %rf : tensor<4x3xf32>, tensor<3x3xf32>
  }
  %zero = arith.constant 0.0 : f32
  %thousand33 = arith.constant dense<1000.0> : tensor<3x3xf32>
  %thousand43 = arith.constant dense<1000.0> : tensor<4x3xf32>

  // |R| and |Q|, x1000, rounded.
  %rabs = math.absf %r : tensor<3x3xf32>
  %rs = arith.mulf %rabs, %thousand33 : tensor<3x3xf32>
  %rr = math.roundeven %rs : tensor<3x3xf32>
  %ri = arith.fptosi %rr : tensor<3x3xf32> to tensor<3x3xi32>
  %qabs = math.absf %q : tensor<4x3xf32>
  %qs = arith.mulf %qabs, %thousand43 : tensor<4x3xf32>
  %qr = math.roundeven %qs : tensor<4x3xf32>
  %qi = arith.fptosi %qr : tensor<4x3xf32> to tensor<4x3xi32>

  // Q R = A.
  %e43 = tensor.empty() : tensor<4x3xf32>
  %f43 = linalg.fill ins(%zero : f32) outs(%e43 : tensor<4x3xf32>) -> tensor<4x3xf32>
  %prod = linalg.matmul ins(%q, %r : tensor<4x3xf32>, tensor<3x3xf32>) outs(%f43 : tensor<4x3xf32>) -> tensor<4x3xf32>
  %d43 = arith.subf %prod, %a : tensor<4x3xf32>
  %a43 = math.absf %d43 : tensor<4x3xf32>
  %tol43 = arith.constant dense<1.0e-4> : tensor<4x3xf32>
  %ok43 = arith.cmpf ole, %a43, %tol43 : tensor<4x3xf32>

  // Q^T Q = I.
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

  // R is upper triangular: its strictly lower part is exactly zero.
  %lower = arith.constant dense<[[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 1.0, 0.0]]> : tensor<3x3xf32>
  %rl = arith.mulf %rabs, %lower : tensor<3x3xf32>
  %zeros33 = arith.constant dense<0.0> : tensor<3x3xf32>
  %upper = arith.cmpf oeq, %rl, %zeros33 : tensor<3x3xf32>
  return %ri, %qi, %ok43, %ok33, %upper : tensor<3x3xi32>, tensor<4x3xi32>, tensor<4x3xi1>, tensor<3x3xi1>, tensor<3x3xi1>
}

// Eigenvalues x1000, ascending (they sum to the trace, 12).
// EIGH: result #0: tensor<3xi64> = [1855, 3476, 6669]
// EIGH-NEXT: result #1: tensor<3x3xi1> = {{\[}}[true, true, true], [true, true, true], [true, true, true]]
// EIGH-NEXT: result #2: tensor<3x3xi1> = {{\[}}[true, true, true], [true, true, true], [true, true, true]]
func.func @eigh(%a: tensor<3x3xf64>) -> (tensor<3xi64>, tensor<3x3xi1>, tensor<3x3xi1>) {
  %w, %v = nx.block "Nx.Block.LinAlg.Eigh" {} (%a) : (tensor<3x3xf64>) -> (tensor<3xf64>, tensor<3x3xf64>) {
  ^bb0(%m: tensor<3x3xf64>):
    // Cyclic Jacobi: each rotation J(p, q) zeroes A[p, q] of A = J^T A J
    // and accumulates V = V J; 12 sweeps reach f64 precision for 3x3.
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c12 = arith.constant 12 : index
    %one = arith.constant 1.0 : f64
    %mone = arith.constant -1.0 : f64
    %two = arith.constant 2.0 : f64
    %dzero = arith.constant 0.0 : f64
    %eye = arith.constant dense<[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]> : tensor<3x3xf64>
    %af, %vf = scf.for %sweep = %c0 to %c12 step %c1 iter_args(%as = %m, %vs = %eye) -> (tensor<3x3xf64>, tensor<3x3xf64>) {
      %ap, %vp = scf.for %p = %c0 to %c3 step %c1 iter_args(%a1 = %as, %v1 = %vs) -> (tensor<3x3xf64>, tensor<3x3xf64>) {
        %p1 = arith.addi %p, %c1 : index
        %aq, %vq = scf.for %q = %p1 to %c3 step %c1 iter_args(%a2 = %a1, %v2 = %v1) -> (tensor<3x3xf64>, tensor<3x3xf64>) {
          %apq = tensor.extract %a2[%p, %q] : tensor<3x3xf64>
          %app = tensor.extract %a2[%p, %p] : tensor<3x3xf64>
          %aqq = tensor.extract %a2[%q, %q] : tensor<3x3xf64>
          // theta = (aqq - app) / (2 apq); t = sign(theta) / (|theta| + sqrt(theta^2 + 1))
          %diff = arith.subf %aqq, %app : f64
          %den = arith.mulf %two, %apq : f64
          %theta = arith.divf %diff, %den : f64
          %th2 = arith.mulf %theta, %theta : f64
          %th21 = arith.addf %th2, %one : f64
          %root = math.sqrt %th21 : f64
          %abst = math.absf %theta : f64
          %sum = arith.addf %abst, %root : f64
          %nonneg = arith.cmpf oge, %theta, %dzero : f64
          %sign = arith.select %nonneg, %one, %mone : f64
          %traw = arith.divf %sign, %sum : f64
          // Already zero (or theta overflowed): no rotation.
          %tfinite = arith.cmpf ord, %traw, %traw : f64
          %keep = arith.cmpf oeq, %apq, %dzero : f64
          %tsel = arith.select %keep, %dzero, %traw : f64
          %tfin = arith.select %tfinite, %tsel, %dzero : f64
          %t2 = arith.mulf %tfin, %tfin : f64
          %t21 = arith.addf %t2, %one : f64
          %sq = math.sqrt %t21 : f64
          %c = arith.divf %one, %sq : f64
          %s = arith.mulf %tfin, %c : f64
          // A J (columns p, q), then J^T (A J) (rows p, q), and V J.
          %acol = scf.for %k = %c0 to %c3 step %c1 iter_args(%ak = %a2) -> (tensor<3x3xf64>) {
            %kp = tensor.extract %ak[%k, %p] : tensor<3x3xf64>
            %kq = tensor.extract %ak[%k, %q] : tensor<3x3xf64>
            %ckp = arith.mulf %c, %kp : f64
            %skq = arith.mulf %s, %kq : f64
            %np = arith.subf %ckp, %skq : f64
            %skp = arith.mulf %s, %kp : f64
            %ckq = arith.mulf %c, %kq : f64
            %nq = arith.addf %skp, %ckq : f64
            %ak1 = tensor.insert %np into %ak[%k, %p] : tensor<3x3xf64>
            %ak2 = tensor.insert %nq into %ak1[%k, %q] : tensor<3x3xf64>
            scf.yield %ak2 : tensor<3x3xf64>
          }
          %arow = scf.for %k = %c0 to %c3 step %c1 iter_args(%ak = %acol) -> (tensor<3x3xf64>) {
            %pk = tensor.extract %ak[%p, %k] : tensor<3x3xf64>
            %qk = tensor.extract %ak[%q, %k] : tensor<3x3xf64>
            %cpk = arith.mulf %c, %pk : f64
            %sqk = arith.mulf %s, %qk : f64
            %np = arith.subf %cpk, %sqk : f64
            %spk = arith.mulf %s, %pk : f64
            %cqk = arith.mulf %c, %qk : f64
            %nq = arith.addf %spk, %cqk : f64
            %ak1 = tensor.insert %np into %ak[%p, %k] : tensor<3x3xf64>
            %ak2 = tensor.insert %nq into %ak1[%q, %k] : tensor<3x3xf64>
            scf.yield %ak2 : tensor<3x3xf64>
          }
          %vrot = scf.for %k = %c0 to %c3 step %c1 iter_args(%vk = %v2) -> (tensor<3x3xf64>) {
            %kp = tensor.extract %vk[%k, %p] : tensor<3x3xf64>
            %kq = tensor.extract %vk[%k, %q] : tensor<3x3xf64>
            %ckp = arith.mulf %c, %kp : f64
            %skq = arith.mulf %s, %kq : f64
            %np = arith.subf %ckp, %skq : f64
            %skp = arith.mulf %s, %kp : f64
            %ckq = arith.mulf %c, %kq : f64
            %nq = arith.addf %skp, %ckq : f64
            %vk1 = tensor.insert %np into %vk[%k, %p] : tensor<3x3xf64>
            %vk2 = tensor.insert %nq into %vk1[%k, %q] : tensor<3x3xf64>
            scf.yield %vk2 : tensor<3x3xf64>
          }
          scf.yield %arow, %vrot : tensor<3x3xf64>, tensor<3x3xf64>
        }
        scf.yield %aq, %vq : tensor<3x3xf64>, tensor<3x3xf64>
      }
      scf.yield %ap, %vp : tensor<3x3xf64>, tensor<3x3xf64>
    }
    // Eigenvalues from the diagonal, then a selection sort into ascending
    // order that moves the eigenvector columns along.
    %w0 = tensor.empty() : tensor<3xf64>
    %wd = scf.for %i = %c0 to %c3 step %c1 iter_args(%wi = %w0) -> (tensor<3xf64>) {
      %d = tensor.extract %af[%i, %i] : tensor<3x3xf64>
      %wi2 = tensor.insert %d into %wi[%i] : tensor<3xf64>
      scf.yield %wi2 : tensor<3xf64>
    }
    %ws, %vs2 = scf.for %i = %c0 to %c3 step %c1 iter_args(%wa = %wd, %va = %vf) -> (tensor<3xf64>, tensor<3x3xf64>) {
      %wi = tensor.extract %wa[%i] : tensor<3xf64>
      %i1 = arith.addi %i, %c1 : index
      %min, %argmin = scf.for %j = %i1 to %c3 step %c1 iter_args(%mv = %wi, %mi = %i) -> (f64, index) {
        %wj = tensor.extract %wa[%j] : tensor<3xf64>
        %less = arith.cmpf olt, %wj, %mv : f64
        %nv = arith.select %less, %wj, %mv : f64
        %ni = arith.select %less, %j, %mi : index
        scf.yield %nv, %ni : f64, index
      }
      %wa1 = tensor.insert %wi into %wa[%argmin] : tensor<3xf64>
      %wa2 = tensor.insert %min into %wa1[%i] : tensor<3xf64>
      %vswap = scf.for %k = %c0 to %c3 step %c1 iter_args(%vk = %va) -> (tensor<3x3xf64>) {
        %x = tensor.extract %vk[%k, %i] : tensor<3x3xf64>
        %y = tensor.extract %vk[%k, %argmin] : tensor<3x3xf64>
        %vk1 = tensor.insert %x into %vk[%k, %argmin] : tensor<3x3xf64>
        %vk2 = tensor.insert %y into %vk1[%k, %i] : tensor<3x3xf64>
        scf.yield %vk2 : tensor<3x3xf64>
      }
      scf.yield %wa2, %vswap : tensor<3xf64>, tensor<3x3xf64>
    }
    nx.yield %ws, %vs2 : tensor<3xf64>, tensor<3x3xf64>
  }
  %zero = arith.constant 0.0 : f64
  %thousand = arith.constant dense<1000.0> : tensor<3xf64>
  %ws = arith.mulf %w, %thousand : tensor<3xf64>
  %wr = math.roundeven %ws : tensor<3xf64>
  %wi = arith.fptosi %wr : tensor<3xf64> to tensor<3xi64>

  // A V = V diag(w).
  %e33 = tensor.empty() : tensor<3x3xf64>
  %f33 = linalg.fill ins(%zero : f64) outs(%e33 : tensor<3x3xf64>) -> tensor<3x3xf64>
  %av = linalg.matmul ins(%a, %v : tensor<3x3xf64>, tensor<3x3xf64>) outs(%f33 : tensor<3x3xf64>) -> tensor<3x3xf64>
  %wb = linalg.broadcast ins(%w : tensor<3xf64>) outs(%e33 : tensor<3x3xf64>) dimensions = [0]
  %vw = arith.mulf %v, %wb : tensor<3x3xf64>
  %d = arith.subf %av, %vw : tensor<3x3xf64>
  %ad = math.absf %d : tensor<3x3xf64>
  %tol = arith.constant dense<1.0e-9> : tensor<3x3xf64>
  %okav = arith.cmpf ole, %ad, %tol : tensor<3x3xf64>

  // V^T V = I.
  %vt = linalg.transpose ins(%v : tensor<3x3xf64>) outs(%e33 : tensor<3x3xf64>) permutation = [1, 0]
  %vtv = linalg.matmul ins(%vt, %v : tensor<3x3xf64>, tensor<3x3xf64>) outs(%f33 : tensor<3x3xf64>) -> tensor<3x3xf64>
  %eye = arith.constant dense<[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]> : tensor<3x3xf64>
  %dv = arith.subf %vtv, %eye : tensor<3x3xf64>
  %adv = math.absf %dv : tensor<3x3xf64>
  %okvv = arith.cmpf ole, %adv, %tol : tensor<3x3xf64>
  return %wi, %okav, %okvv : tensor<3xi64>, tensor<3x3xi1>, tensor<3x3xi1>
}

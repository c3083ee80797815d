// nx-lower-to-cpu's floating-point choices and the options that undo them.
//
// --strict-reductions keeps a sum in its serial order: 2^24 + 1 rounds back
// to 2^24 in f32, so adding 63 ones one at a time leaves 2^24. By default
// the sum reassociates into vector lanes (the JIT optimizes LLVM IR for the
// host), where the ones add up first: the result is above 2^24 and at most
// the exact 16777279; how far depends on the host's vector width.
// RUN: nx-runner %s --strict-reductions --entry=sum --input='[16777216, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]:tensor<64xf32>' | FileCheck %s --check-prefix=STRICT
// STRICT: result #0: tensor<f32> = 16777216
// RUN: nx-runner %s --entry=sum --input='[16777216, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]:tensor<64xf32>' | FileCheck %s --check-prefix=REASSOC
// REASSOC: result #0: tensor<f32> = 167772{{(1[7-9]|[2-7][0-9])$}}
//
// --libm-math calls libm's expf and log1pf: softplus(0.2) = 0.798138869...
// rounds to the nearest f32, 0.79813886, there and to 0.7981389 through the
// polynomial approximations used by default.
// RUN: nx-runner %s --libm-math --entry=softplus --input='[0.2]:tensor<1xf32>' | FileCheck %s --check-prefix=LIBM
// LIBM: result #0: tensor<1xf32> = [0.79813886]
// RUN: nx-runner %s --entry=softplus --input='[0.2]:tensor<1xf32>' | FileCheck %s --check-prefix=APPROX
// APPROX: result #0: tensor<1xf32> = [0.7981389]
//
// --libm-math also keeps divisions by constants: 0.35f / 9 rounds to
// 0.038888887, while 0.35f times the f32 nearest 1/9, what the default
// computes, rounds to the next f32 up.
// RUN: nx-runner %s --libm-math --entry=ninth --input='[0.35]:tensor<1xf32>' | FileCheck %s --check-prefix=DIVIDE
// RUN: nx-runner %s --entry=ninth --input='[0.35]:tensor<1xf32>' | FileCheck %s --check-prefix=RECIPROCAL
// DIVIDE: result #0: tensor<1xf32> = [0.038888887]
// RECIPROCAL: result #0: tensor<1xf32> = [0.03888889]
//
// It also keeps divisions by a divisor that many points share (a row's
// sum, as in a softmax): 5f / 3 rounds to 1.6666666, while 5f times the
// f32 nearest 1/3, what the default computes (nx-reciprocal-divisors),
// rounds to 1.6666667.
// RUN: nx-runner %s --libm-math --entry=rows_by_sums --input='[[5, 5, 5, 5, 5, 5, 5, 5]]:tensor<1x8xf32>' --input='[3]:tensor<1xf32>' | FileCheck %s --check-prefix=ROW-DIVIDE
// ROW-DIVIDE: result #0: tensor<1x8xf32> = {{\[\[}}1.6666666, 1.6666666, 1.6666666, 1.6666666, 1.6666666, 1.6666666, 1.6666666, 1.6666666]]
// RUN: nx-runner %s --entry=rows_by_sums --input='[[5, 5, 5, 5, 5, 5, 5, 5]]:tensor<1x8xf32>' --input='[3]:tensor<1xf32>' | FileCheck %s --check-prefix=ROW-RECIPROCAL
// ROW-RECIPROCAL: result #0: tensor<1x8xf32> = {{\[\[}}1.6666667, 1.6666667, 1.6666667, 1.6666667, 1.6666667, 1.6666667, 1.6666667, 1.6666667]]
//
// --strict-reductions also keeps IEEE's ordered zeros in a maximum: the
// largest of -0 and +0, starting from -0, is +0. By default the zero's
// sign is unspecified (nsz); NaNs propagate either way.
// RUN: nx-runner %s --strict-reductions --entry=largest --input='[-0, 0, -0, -0]:tensor<4xf32>' | FileCheck %s --check-prefix=ZEROS
// ZEROS: result #0: tensor<f32> = 0{{$}}
// RUN: nx-runner %s --entry=largest --input='[-0, 0, -0, -0]:tensor<4xf32>' | FileCheck %s --check-prefix=ANY-ZERO
// ANY-ZERO: result #0: tensor<f32> = {{-?}}0{{$}}
// RUN: nx-runner %s --entry=largest --input='[-1, nan, 3, 2]:tensor<4xf32>' | FileCheck %s --check-prefix=NAN
// NAN: result #0: tensor<f32> = nan

func.func @sum(%x: tensor<64xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<f32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<f32>) -> tensor<f32>
  %s = linalg.reduce ins(%x : tensor<64xf32>) outs(%acc : tensor<f32>) dimensions = [0]
    (%in: f32, %a: f32) {
      %t = arith.addf %a, %in : f32
      linalg.yield %t : f32
    }
  return %s : tensor<f32>
}

func.func @largest(%x: tensor<4xf32>) -> tensor<f32> {
  %negative_zero = arith.constant -0.0 : f32
  %init = tensor.empty() : tensor<f32>
  %acc = linalg.fill ins(%negative_zero : f32) outs(%init : tensor<f32>) -> tensor<f32>
  %m = linalg.reduce ins(%x : tensor<4xf32>) outs(%acc : tensor<f32>) dimensions = [0]
    (%in: f32, %a: f32) {
      %t = arith.maximumf %a, %in : f32
      linalg.yield %t : f32
    }
  return %m : tensor<f32>
}

func.func @softplus(%x: tensor<1xf32>) -> tensor<1xf32> {
  %e = math.exp %x : tensor<1xf32>
  %l = math.log1p %e : tensor<1xf32>
  return %l : tensor<1xf32>
}

func.func @ninth(%x: tensor<1xf32>) -> tensor<1xf32> {
  %nine = arith.constant dense<9.0> : tensor<1xf32>
  %q = arith.divf %x, %nine : tensor<1xf32>
  return %q : tensor<1xf32>
}

func.func @rows_by_sums(%x: tensor<1x8xf32>, %s: tensor<1xf32>) -> tensor<1x8xf32> {
  %out = tensor.empty() : tensor<1x8xf32>
  %q = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<1x8xf32>, tensor<1xf32>) outs(%out : tensor<1x8xf32>) {
  ^bb0(%v: f32, %d: f32, %o: f32):
    %r = arith.divf %v, %d : f32
    linalg.yield %r : f32
  } -> tensor<1x8xf32>
  return %q : tensor<1x8xf32>
}

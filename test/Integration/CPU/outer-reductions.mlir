// Reductions along the outermost loop (column sums and maxima) are shared
// among as many workers as there are compute threads, each reducing a
// contiguous share of the rows into a row of partial results of its own;
// the rows are then combined. The results do not depend on the number of
// threads: fewer than the blocks of rows, more (100 threads, 62 blocks:
// 62 workers), one, none (parallel=false) or the serial order
// (strict-reductions).
// RUN: nx-runner %s --entry=column_sums | FileCheck %s --check-prefix=SUMS
// RUN: nx-runner %s --entry=column_sums --compute-threads=1 | FileCheck %s --check-prefix=SUMS
// RUN: nx-runner %s --entry=column_sums --compute-threads=3 | FileCheck %s --check-prefix=SUMS
// RUN: nx-runner %s --entry=column_sums --compute-threads=100 | FileCheck %s --check-prefix=SUMS
// RUN: nx-runner %s --entry=column_sums --parallel=false | FileCheck %s --check-prefix=SUMS
// RUN: nx-runner %s --entry=column_sums --strict-reductions | FileCheck %s --check-prefix=SUMS
// RUN: nx-runner %s --entry=column_sums --vectorize=false --compute-threads=3 | FileCheck %s --check-prefix=SUMS
//
// Every value is negative, so a row of partial results that started from
// zero instead of the maximum's neutral element (-inf) would show.
// RUN: nx-runner %s --entry=column_maxima --compute-threads=3 | FileCheck %s --check-prefix=MAXIMA
// RUN: nx-runner %s --entry=column_maxima --compute-threads=100 | FileCheck %s --check-prefix=MAXIMA
//
// One output element: the workers' sums are combined after the team.
// RUN: nx-runner %s --entry=one_sum --compute-threads=3 | FileCheck %s --check-prefix=ONE
//
// The pipeline shares all three among workers, and only without
// strict-reductions.
// RUN: nx-opt %s --nx-lower-to-cpu --mlir-pass-statistics 2>&1 | FileCheck %s --check-prefix=SHARED
// RUN: nx-opt %s --nx-lower-to-cpu=strict-reductions --mlir-pass-statistics 2>&1 | FileCheck %s --check-prefix=STRICT

// SHARED: (S) 3 outer-reductions
// STRICT: (S) 0 outer-reductions

#id = affine_map<(d0, d1) -> (d0, d1)>

// x[i, j] = 256 i + j over 1001 rows (62 blocks of 16 rows, and 9 rows more
// that the last worker reduces too), so
// column j sums to 256 * (1000 * 1001 / 2) + 1001 j = 128128000 + 1001 j.
// SUMS: result #0: tensor<256xi32> = [128128000, 128129001, 128130002, {{.*}}, 128382254, 128383255]
func.func @column_sums() -> tensor<256xi32> {
  %init = tensor.empty() : tensor<1001x256xi32>
  %x = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%init : tensor<1001x256xi32>) {
  ^bb0(%out: i32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c256 = arith.constant 256 : index
    %row = arith.muli %i, %c256 : index
    %v = arith.addi %row, %j : index
    %r = arith.index_cast %v : index to i32
    linalg.yield %r : i32
  } -> tensor<1001x256xi32>
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<256xi32>
  %acc = linalg.fill ins(%zero : i32) outs(%e : tensor<256xi32>) -> tensor<256xi32>
  %s = linalg.reduce ins(%x : tensor<1001x256xi32>) outs(%acc : tensor<256xi32>) dimensions = [0]
    (%in: i32, %a: i32) {
      %t = arith.addi %a, %in : i32
      linalg.yield %t : i32
    }
  return %s : tensor<256xi32>
}

// x[i, j] = -(256 i + j + 1): column j's maximum is row 0's, -(j + 1).
// MAXIMA: result #0: tensor<256xf32> = [-1, -2, -3, {{.*}}, -255, -256]
func.func @column_maxima() -> tensor<256xf32> {
  %init = tensor.empty() : tensor<1001x256xf32>
  %x = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%init : tensor<1001x256xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c256 = arith.constant 256 : index
    %c1 = arith.constant 1 : index
    %row = arith.muli %i, %c256 : index
    %v = arith.addi %row, %j : index
    %w = arith.addi %v, %c1 : index
    %n = arith.index_cast %w : index to i32
    %f = arith.sitofp %n : i32 to f32
    %neg = arith.negf %f : f32
    linalg.yield %neg : f32
  } -> tensor<1001x256xf32>
  %lowest = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<256xf32>
  %acc = linalg.fill ins(%lowest : f32) outs(%e : tensor<256xf32>) -> tensor<256xf32>
  %m = linalg.reduce ins(%x : tensor<1001x256xf32>) outs(%acc : tensor<256xf32>) dimensions = [0]
    (%in: f32, %a: f32) {
      %t = arith.maximumf %a, %in : f32
      linalg.yield %t : f32
    }
  return %m : tensor<256xf32>
}

// The sum of 0 .. 65535, 65536 * 65535 / 2.
// ONE: result #0: tensor<1xi32> = [2147450880]
func.func @one_sum() -> tensor<1xi32> {
  %init = tensor.empty() : tensor<65536x1xi32>
  %x = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%init : tensor<65536x1xi32>) {
  ^bb0(%out: i32):
    %i = linalg.index 0 : index
    %r = arith.index_cast %i : index to i32
    linalg.yield %r : i32
  } -> tensor<65536x1xi32>
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<1xi32>
  %acc = linalg.fill ins(%zero : i32) outs(%e : tensor<1xi32>) -> tensor<1xi32>
  %s = linalg.reduce ins(%x : tensor<65536x1xi32>) outs(%acc : tensor<1xi32>) dimensions = [0]
    (%in: i32, %a: i32) {
      %t = arith.addi %a, %in : i32
      linalg.yield %t : i32
    }
  return %s : tensor<1xi32>
}

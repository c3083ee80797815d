// Large parallel loop nests run on OpenMP threads (nx-lower-to-cpu's
// parallel); the results do not depend on how many: each output element is
// computed by one thread, in the same order as serially.
// RUN: nx-runner %s --entry=row_sums | FileCheck %s --check-prefix=ROWS
// RUN: nx-runner %s --entry=row_sums --compute-threads=1 | FileCheck %s --check-prefix=ROWS
// RUN: nx-runner %s --entry=row_sums --compute-threads=3 | FileCheck %s --check-prefix=ROWS
// RUN: nx-runner %s --entry=row_sums --parallel=false | FileCheck %s --check-prefix=ROWS
// RUN: nx-runner %s --entry=row_sums --vectorize=false | FileCheck %s --check-prefix=ROWS
//
// 1001 rows, in tiles of 16 rows: the last tile has 9. The split row sum's
// two ops run in one team, each tile reducing the partial sums it wrote.
// RUN: nx-runner %s --entry=uneven_row_sums | FileCheck %s --check-prefix=UNEVEN
// RUN: nx-runner %s --entry=uneven_row_sums --compute-threads=3 | FileCheck %s --check-prefix=UNEVEN
// RUN: nx-runner %s --entry=uneven_row_sums --parallel=false | FileCheck %s --check-prefix=UNEVEN
//
// A reversal of rows stays serial (its slices of rows do not tile upward)
// and compiles.
// RUN: nx-runner %s --entry=reversed_rows | FileCheck %s --check-prefix=REVERSED
//
// A host loop with a callback and a parallel nest in its body: the loop and
// its callbacks stay serial and in order; only the nest forks. Run from four
// host threads at once, each forking its own teams.
// RUN: nx-runner %s --entry=loop --callbacks=%nx_test_callbacks \
// RUN:   --input='[1, 2, 3, 4]:tensor<4xf32>' | FileCheck %s --check-prefix=LOOP
// RUN: nx-runner %s --entry=loop --callbacks=%nx_test_callbacks --threads=4 --repeat=5 \
// RUN:   --input='[1, 2, 3, 4]:tensor<4xf32>' | FileCheck %s --check-prefixes=LOOP,REPEAT
// RUN: nx-runner %s --entry=loop --callbacks=%nx_test_callbacks --parallel=false \
// RUN:   --input='[1, 2, 3, 4]:tensor<4xf32>' | FileCheck %s --check-prefix=LOOP
// RUN: nx-runner %s --entry=loop --callbacks=%nx_test_callbacks --parallel=false --vectorize=false \
// RUN:   --input='[1, 2, 3, 4]:tensor<4xf32>' | FileCheck %s --check-prefix=LOOP

#id = affine_map<(d0, d1) -> (d0, d1)>

nx.callback @test.scale : (tensor<4xf32>) -> tensor<4xf32>

// x[i, j] = 256 i + j, so row i sums to 65536 i + 32640.
// ROWS: result #0: tensor<512xi32> = [32640, 98176, 163712, {{.*}}, 33456000, 33521536]
func.func @row_sums() -> tensor<512xi32> {
  %init = tensor.empty() : tensor<512x256xi32>
  %x = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%init : tensor<512x256xi32>) {
  ^bb0(%out: i32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c256 = arith.constant 256 : index
    %row = arith.muli %i, %c256 : index
    %v = arith.addi %row, %j : index
    %r = arith.index_cast %v : index to i32
    linalg.yield %r : i32
  } -> tensor<512x256xi32>
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<512xi32>
  %acc = linalg.fill ins(%zero : i32) outs(%e : tensor<512xi32>) -> tensor<512xi32>
  %s = linalg.reduce ins(%x : tensor<512x256xi32>) outs(%acc : tensor<512xi32>) dimensions = [1]
    (%in: i32, %a: i32) {
      %t = arith.addi %a, %in : i32
      linalg.yield %t : i32
    }
  return %s : tensor<512xi32>
}

// x[i, j] = 256 i + j again, over 1001 rows.
// UNEVEN: result #0: tensor<1001xi32> = [32640, 98176, 163712, {{.*}}, 65503104, 65568640]
func.func @uneven_row_sums() -> tensor<1001xi32> {
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
  %e = tensor.empty() : tensor<1001xi32>
  %acc = linalg.fill ins(%zero : i32) outs(%e : tensor<1001xi32>) -> tensor<1001xi32>
  %s = linalg.reduce ins(%x : tensor<1001x256xi32>) outs(%acc : tensor<1001xi32>) dimensions = [1]
    (%in: i32, %a: i32) {
      %t = arith.addi %a, %in : i32
      linalg.yield %t : i32
    }
  return %s : tensor<1001xi32>
}

// x[i, j] = 256 i + j, rows reversed: the first row starts at 511 * 256.
// REVERSED: result #0: tensor<512x256xi32> = {{\[\[}}130816, 130817, 130818, {{.*}}, 253, 254, 255]]
func.func @reversed_rows() -> tensor<512x256xi32> {
  %init = tensor.empty() : tensor<512x256xi32>
  %x = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%init : tensor<512x256xi32>) {
  ^bb0(%out: i32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c256 = arith.constant 256 : index
    %row = arith.muli %i, %c256 : index
    %v = arith.addi %row, %j : index
    %r = arith.index_cast %v : index to i32
    linalg.yield %r : i32
  } -> tensor<512x256xi32>
  %e = tensor.empty() : tensor<512x256xi32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (511 - i, j)>, #id],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<512x256xi32>) outs(%e : tensor<512x256xi32>) {
  ^bb0(%in: i32, %o: i32):
    linalg.yield %in : i32
  } -> tensor<512x256xi32>
  return %y : tensor<512x256xi32>
}

// Three iterations: the callback maps x to 2x + 1 each time; the big tensor
// doubles each time, from ones, so each of its rows sums to 256 * 8.
// LOOP: result #0: tensor<4xf32> = [15, 23, 31, 39]
// LOOP-NEXT: result #1: tensor<512xf32> = [2048, 2048, {{.*}}, 2048]
// REPEAT-NEXT: all 20 runs (4 threads x 5) produced identical results
func.func @loop(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<512xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %ones = arith.constant dense<1.0> : tensor<512x256xf32>
  %small, %big = scf.for %k = %c0 to %c3 step %c1
      iter_args(%s = %x, %b = %ones) -> (tensor<4xf32>, tensor<512x256xf32>) {
    %s2 = nx.elixir_call @test.scale(%s) static_args {factor = 2.0 : f64, offset = 1 : i64} : (tensor<4xf32>) -> tensor<4xf32>
    %b2 = arith.addf %b, %b : tensor<512x256xf32>
    scf.yield %s2, %b2 : tensor<4xf32>, tensor<512x256xf32>
  }
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<512xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<512xf32>) -> tensor<512xf32>
  %sums = linalg.reduce ins(%big : tensor<512x256xf32>) outs(%acc : tensor<512xf32>) dimensions = [1]
    (%in: f32, %a: f32) {
      %t = arith.addf %a, %in : f32
      linalg.yield %t : f32
    }
  return %small, %sums : tensor<4xf32>, tensor<512xf32>
}

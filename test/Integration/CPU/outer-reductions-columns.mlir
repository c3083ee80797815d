// A sum over 16 rows of 262144 columns: too few rows to give many workers
// a block each (4 blocks), so threads share tiles of 32768 columns instead,
// each reducing all 16 rows of its tiles. Every column's sum is exact at 3
// threads (8 tiles shared unevenly), at one, and in the serial order.
// REQUIRES: numpy
// RUN: nx-runner %s --entry=wide_sums --compute-threads=3 --quiet --output=%t.3.npy
// RUN: nx-runner %s --entry=wide_sums --compute-threads=1 --quiet --output=%t.1.npy
// RUN: nx-runner %s --entry=wide_sums --strict-reductions --quiet --output=%t.strict.npy
// RUN: %numpy_python -c "import numpy as np; j = np.arange(262144); \
// RUN:   print(all((np.load(f) == 31457280 + 16 * j).all() for f in ['%t.3.npy', '%t.1.npy', '%t.strict.npy']))" \
// RUN:   | FileCheck %s --check-prefix=EXACT
// EXACT: True
//
// The columns are shared as a parallel nest, not as an outer reduction.
// RUN: nx-opt %s --nx-lower-to-cpu --mlir-pass-statistics 2>&1 | FileCheck %s --check-prefix=SHARED
// SHARED: (S) 0 outer-reductions

#id = affine_map<(d0, d1) -> (d0, d1)>

// x[i, j] = 262144 i + j: column j sums to 262144 * 120 + 16 j.
func.func @wide_sums() -> tensor<262144xi32> {
  %init = tensor.empty() : tensor<16x262144xi32>
  %x = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%init : tensor<16x262144xi32>) {
  ^bb0(%out: i32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c262144 = arith.constant 262144 : index
    %row = arith.muli %i, %c262144 : index
    %v = arith.addi %row, %j : index
    %r = arith.index_cast %v : index to i32
    linalg.yield %r : i32
  } -> tensor<16x262144xi32>
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<262144xi32>
  %acc = linalg.fill ins(%zero : i32) outs(%e : tensor<262144xi32>) -> tensor<262144xi32>
  %s = linalg.reduce ins(%x : tensor<16x262144xi32>) outs(%acc : tensor<262144xi32>) dimensions = [0]
    (%in: i32, %a: i32) {
      %t = arith.addi %a, %in : i32
      linalg.yield %t : i32
    }
  return %s : tensor<262144xi32>
}

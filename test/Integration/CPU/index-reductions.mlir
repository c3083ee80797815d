// An argmax along rows of f32 and an argmin along rows of i32, split into
// vector lanes of (value, index) pairs by nx-split-index-reductions, give
// the serial loop's results exactly: the first of equal elements (ties in
// several lanes and in one, -0 before +0), never a NaN, the init where no
// element beats it, at 1 and 3 threads, with strict reductions, and with the loops to
// LLVM (vectorize=false). So does tosa.argmax's lowering, whose results come
// in the other order and which takes the first NaN as the maximum, along
// rows and along columns; and JAX's argmax as StableHLO's reduction of
// (values, iota) lowers to linalg, whose comparator keeps the accumulator
// (checked against that comparator run serially, and against np.argmax).
// REQUIRES: numpy
// RUN: %numpy_python %S/Inputs/index_reductions.py inputs %t
// RUN: nx-runner %s --entry=argmax --input=@%t/floats.npy --quiet \
// RUN:   --output=%t/1.values.npy --output=%t/1.indices.npy --compute-threads=1
// RUN: nx-runner %s --entry=argmin --input=@%t/ints.npy --quiet \
// RUN:   --output=%t/1.int-values.npy --output=%t/1.int-indices.npy --compute-threads=1
// RUN: nx-runner %s --entry=argmax --input=@%t/floats.npy --quiet \
// RUN:   --output=%t/3.values.npy --output=%t/3.indices.npy --compute-threads=3
// RUN: nx-runner %s --entry=argmin --input=@%t/ints.npy --quiet \
// RUN:   --output=%t/3.int-values.npy --output=%t/3.int-indices.npy --compute-threads=3
// RUN: nx-runner %s --entry=argmax --input=@%t/floats.npy --quiet \
// RUN:   --output=%t/strict.values.npy --output=%t/strict.indices.npy --strict-reductions
// RUN: nx-runner %s --entry=argmin --input=@%t/ints.npy --quiet \
// RUN:   --output=%t/strict.int-values.npy --output=%t/strict.int-indices.npy --strict-reductions
// RUN: nx-runner %s --entry=argmax --input=@%t/floats.npy --quiet \
// RUN:   --output=%t/loops.values.npy --output=%t/loops.indices.npy --vectorize=false
// RUN: nx-runner %s --entry=argmin --input=@%t/ints.npy --quiet \
// RUN:   --output=%t/loops.int-values.npy --output=%t/loops.int-indices.npy --vectorize=false
// RUN: nx-runner %s --entry=tosa_argmax --input=@%t/floats.npy --quiet --output=%t/1.tosa.npy --compute-threads=1
// RUN: nx-runner %s --entry=tosa_argmax --input=@%t/floats.npy --quiet --output=%t/3.tosa.npy --compute-threads=3
// RUN: nx-runner %s --entry=tosa_argmax --input=@%t/floats.npy --quiet --output=%t/strict.tosa.npy --strict-reductions
// RUN: nx-runner %s --entry=tosa_argmax --input=@%t/floats.npy --quiet --output=%t/loops.tosa.npy --vectorize=false
// RUN: nx-runner %s --entry=jax_argmax --input=@%t/floats.npy --quiet --output=%t/1.jax.npy --compute-threads=1
// RUN: nx-runner %s --entry=jax_argmax --input=@%t/floats.npy --quiet --output=%t/3.jax.npy --compute-threads=3
// RUN: nx-runner %s --entry=jax_argmax --input=@%t/floats.npy --quiet --output=%t/strict.jax.npy --strict-reductions
// RUN: nx-runner %s --entry=jax_argmax --input=@%t/floats.npy --quiet --output=%t/loops.jax.npy --vectorize=false
// RUN: nx-runner %s --entry=column_argmax --input=@%t/columns.npy --quiet --output=%t/1.columns.npy --compute-threads=1
// RUN: nx-runner %s --entry=column_argmax --input=@%t/columns.npy --quiet --output=%t/3.columns.npy --compute-threads=3
// RUN: nx-runner %s --entry=column_argmax --input=@%t/columns.npy --quiet --output=%t/strict.columns.npy --strict-reductions
// RUN: nx-runner %s --entry=column_argmax --input=@%t/columns.npy --quiet --output=%t/loops.columns.npy --vectorize=false
// RUN: %numpy_python %S/Inputs/index_reductions.py check %t %t/1 %t/3 %t/strict %t/loops \
// RUN:   | FileCheck %s
// CHECK: 1: exact [7, 36, 90, 10, -1, -1, 255, {{[0-9]+}}] [17, 0, {{.*}}] [7, 36, 3, 10, 0, 0, 255, {{.*}}] [3, 5, 0] [7, 36, 3, 10, 0, 0, 255, {{.*}}]
// CHECK: 3: exact [7, 36, 90, 10, -1, -1, 255,
// CHECK: strict: exact [7, 36, 90, 10, -1, -1, 255,
// CHECK: loops: exact [7, 36, 90, 10, -1, -1, 255,
//
// The four along rows are split, also with strict reductions.
// RUN: nx-opt %s --nx-lower-to-cpu --mlir-pass-statistics 2>&1 | FileCheck %s --check-prefix=SPLIT
// RUN: nx-opt %s --nx-lower-to-cpu=strict-reductions --mlir-pass-statistics 2>&1 | FileCheck %s --check-prefix=SPLIT
// SPLIT: NxSplitIndexReductionsPass
// SPLIT-NEXT: (S) 4 split

#rows = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>

func.func @argmax(%x: tensor<8x256xf32>) -> (tensor<8xf32>, tensor<8xi32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %none = arith.constant -1 : i32
  %e = tensor.empty() : tensor<8xf32>
  %ei = tensor.empty() : tensor<8xi32>
  %m = linalg.fill ins(%ninf : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %i = linalg.fill ins(%none : i32) outs(%ei : tensor<8xi32>) -> tensor<8xi32>
  %r:2 = linalg.generic {indexing_maps = [#rows, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x256xf32>) outs(%m, %i : tensor<8xf32>, tensor<8xi32>) {
  ^bb0(%in: f32, %acc: f32, %idx: i32):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i32
    %gt = arith.cmpf ogt, %in, %acc : f32
    %nm = arith.select %gt, %in, %acc : f32
    %ni = arith.select %gt, %ji, %idx : i32
    linalg.yield %nm, %ni : f32, i32
  } -> (tensor<8xf32>, tensor<8xi32>)
  return %r#0, %r#1 : tensor<8xf32>, tensor<8xi32>
}

// The comparison written with the running minimum on the left.
func.func @argmin(%x: tensor<8x256xi32>) -> (tensor<8xi32>, tensor<8xi32>) {
  %max = arith.constant 2147483647 : i32
  %none = arith.constant -1 : i32
  %e = tensor.empty() : tensor<8xi32>
  %m = linalg.fill ins(%max : i32) outs(%e : tensor<8xi32>) -> tensor<8xi32>
  %i = linalg.fill ins(%none : i32) outs(%e : tensor<8xi32>) -> tensor<8xi32>
  %r:2 = linalg.generic {indexing_maps = [#rows, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x256xi32>) outs(%m, %i : tensor<8xi32>, tensor<8xi32>) {
  ^bb0(%in: i32, %acc: i32, %idx: i32):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i32
    %gt = arith.cmpi sgt, %acc, %in : i32
    %nm = arith.select %gt, %in, %acc : i32
    %ni = arith.select %gt, %ji, %idx : i32
    linalg.yield %nm, %ni : i32, i32
  } -> (tensor<8xi32>, tensor<8xi32>)
  return %r#0, %r#1 : tensor<8xi32>, tensor<8xi32>
}

// JAX's argmax: StableHLO's reduction of the values and an iota along the
// row, lowered to linalg (the reduction's first arguments, the
// accumulator's, become the outputs), from -inf at index 0.
func.func @jax_argmax(%x: tensor<8x256xf32>) -> tensor<8xi32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0 : i32
  %ie = tensor.empty() : tensor<8x256xi32>
  %iota = linalg.generic {indexing_maps = [#rows], iterator_types = ["parallel", "parallel"]}
      outs(%ie : tensor<8x256xi32>) {
  ^bb0(%o: i32):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i32
    linalg.yield %ji : i32
  } -> tensor<8x256xi32>
  %e = tensor.empty() : tensor<8xf32>
  %ei = tensor.empty() : tensor<8xi32>
  %m = linalg.fill ins(%ninf : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %i = linalg.fill ins(%zero : i32) outs(%ei : tensor<8xi32>) -> tensor<8xi32>
  %r:2 = linalg.generic {indexing_maps = [#rows, #rows, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %iota : tensor<8x256xf32>, tensor<8x256xi32>) outs(%m, %i : tensor<8xf32>, tensor<8xi32>) {
  ^bb0(%in: f32, %position: i32, %acc: f32, %acci: i32):
    %gt = arith.cmpf ogt, %acc, %in : f32
    %nan = arith.cmpf une, %acc, %acc : f32
    %keep = arith.ori %gt, %nan : i1
    %eq = arith.cmpf oeq, %acc, %in : f32
    %lt = arith.cmpi slt, %acci, %position : i32
    %tie = arith.andi %eq, %lt : i1
    %keepi = arith.ori %keep, %tie : i1
    %v = arith.select %keep, %acc, %in : f32
    %k = arith.select %keepi, %acci, %position : i32
    linalg.yield %v, %k : f32, i32
  } -> (tensor<8xf32>, tensor<8xi32>)
  return %r#1 : tensor<8xi32>
}

// TOSA's argmax, lowered by nx-lower-tosa: (index, value), NaN propagated.
func.func @tosa_argmax(%x: tensor<8x256xf32>) -> tensor<8xi32> {
  %r = tosa.argmax %x {axis = 1 : i32} : (tensor<8x256xf32>) -> tensor<8xi32>
  return %r : tensor<8xi32>
}

// The same along the columns of 16x2048: no split (each thread would take
// columns, test/Conversion/LinalgToOpenMP/linalg-to-openmp-outer-columns.mlir,
// but these are below min-work).
func.func @column_argmax(%x: tensor<16x2048xf32>) -> tensor<2048xi32> {
  %r = tosa.argmax %x {axis = 0 : i32} : (tensor<16x2048xf32>) -> tensor<2048xi32>
  return %r : tensor<2048xi32>
}

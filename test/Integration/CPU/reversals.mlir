// Reversals (a generic that reads its input at `last - j`, as `jnp.flip`
// lowers) read views of negated strides (nx-reversed-views): threads share
// them and their rows are vector reads reversed by a shuffle. @reversals
// flips x[i][j] = 4096 i + j along the last axis (1000 columns: a short
// last vector), the first, both, along the last axis from column 998 down
// (a view that does not start at the end), and transposed with its columns
// reversed (a transpose's tiles of a reversed view). The flips of the last
// axis and of both run their column loop backwards, so they read forward
// and write views of negated strides; the four flips of @flipped are one
// row chain. It returns how many
// elements differ from their closed forms (0): on one thread, on three,
// serially, and as LLVM's loops without nx's vectorizer.
// RUN: nx-runner %s --entry=reversals --compute-threads=1 | FileCheck %s
// RUN: nx-runner %s --entry=reversals --compute-threads=3 | FileCheck %s
// RUN: nx-runner %s --entry=reversals --parallel=false | FileCheck %s
// RUN: nx-runner %s --entry=reversals --vectorize=false | FileCheck %s
// RUN: nx-opt %s --nx-lower-to-cpu --mlir-pass-statistics 2>&1 \
// RUN:   | FileCheck %s --check-prefix=STATISTICS

// CHECK: result #0: tensor<i32> = 0
// STATISTICS: 3 parallel-nests
// STATISTICS: 1 row-chains
// STATISTICS: 2 backward-loops
// STATISTICS: 6 reversed-views

#id = affine_map<(i, j) -> (i, j)>
#last = affine_map<(i, j) -> (i, 999 - j)>
#first = affine_map<(i, j) -> (299 - i, j)>
#both = affine_map<(i, j) -> (299 - i, 999 - j)>
#inner = affine_map<(i, j) -> (i, 998 - j)>
#all = affine_map<(i, j) -> ()>
#turned = affine_map<(i, j) -> (j, 999 - i)>


func.func @flipped(%x: tensor<300x1000xf32>) -> (tensor<300x1000xf32>, tensor<300x1000xf32>,
                                                   tensor<300x1000xf32>, tensor<300x999xf32>) {
  %e = tensor.empty() : tensor<300x1000xf32>
  %e999 = tensor.empty() : tensor<300x999xf32>
  %l = linalg.generic {indexing_maps = [#last, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<300x1000xf32>) outs(%e : tensor<300x1000xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  } -> tensor<300x1000xf32>
  %f = linalg.generic {indexing_maps = [#first, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<300x1000xf32>) outs(%e : tensor<300x1000xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  } -> tensor<300x1000xf32>
  %b = linalg.generic {indexing_maps = [#both, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<300x1000xf32>) outs(%e : tensor<300x1000xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  } -> tensor<300x1000xf32>
  %n = linalg.generic {indexing_maps = [#inner, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<300x1000xf32>) outs(%e999 : tensor<300x999xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  } -> tensor<300x999xf32>
  return %l, %f, %b, %n : tensor<300x1000xf32>, tensor<300x1000xf32>, tensor<300x1000xf32>, tensor<300x999xf32>
}

// How many elements of %y differ from x at (i or 299 - i, j or last - j).
func.func @wrong(%y: tensor<300x?xf32>, %flip_i: i1, %flip_j: i1, %last: index) -> tensor<i32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<i32>
  %z = linalg.fill ins(%zero : i32) outs(%e : tensor<i32>) -> tensor<i32>
  %r = linalg.generic {indexing_maps = [#id, #all], iterator_types = ["reduction", "reduction"]}
      ins(%y : tensor<300x?xf32>) outs(%z : tensor<i32>) {
  ^bb0(%v: f32, %acc: i32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c299 = arith.constant 299 : index
    %ri = arith.subi %c299, %i : index
    %rj = arith.subi %last, %j : index
    %si = arith.select %flip_i, %ri, %i : index
    %sj = arith.select %flip_j, %rj, %j : index
    %c4096 = arith.constant 4096 : index
    %row = arith.muli %si, %c4096 : index
    %k = arith.addi %row, %sj : index
    %ki = arith.index_cast %k : index to i32
    %want = arith.sitofp %ki : i32 to f32
    %bad = arith.cmpf une, %v, %want : f32
    %one = arith.extui %bad : i1 to i32
    %t = arith.addi %acc, %one : i32
    linalg.yield %t : i32
  } -> tensor<i32>
  return %r : tensor<i32>
}

// How many elements of %y differ from x at (j, 999 - i).
func.func @wrong_turned(%y: tensor<1000x300xf32>) -> tensor<i32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<i32>
  %z = linalg.fill ins(%zero : i32) outs(%e : tensor<i32>) -> tensor<i32>
  %r = linalg.generic {indexing_maps = [#id, #all], iterator_types = ["reduction", "reduction"]}
      ins(%y : tensor<1000x300xf32>) outs(%z : tensor<i32>) {
  ^bb0(%v: f32, %acc: i32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c999 = arith.constant 999 : index
    %ri = arith.subi %c999, %i : index
    %c4096 = arith.constant 4096 : index
    %row = arith.muli %j, %c4096 : index
    %k = arith.addi %row, %ri : index
    %ki = arith.index_cast %k : index to i32
    %want = arith.sitofp %ki : i32 to f32
    %bad = arith.cmpf une, %v, %want : f32
    %one = arith.extui %bad : i1 to i32
    %t = arith.addi %acc, %one : i32
    linalg.yield %t : i32
  } -> tensor<i32>
  return %r : tensor<i32>
}

func.func @turned(%x: tensor<300x1000xf32>) -> tensor<1000x300xf32> {
  %e = tensor.empty() : tensor<1000x300xf32>
  %t = linalg.generic {indexing_maps = [#turned, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<300x1000xf32>) outs(%e : tensor<1000x300xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  } -> tensor<1000x300xf32>
  return %t : tensor<1000x300xf32>
}

func.func @reversals() -> tensor<i32> {
  %e = tensor.empty() : tensor<300x1000xf32>
  %x = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<300x1000xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c4096 = arith.constant 4096 : index
    %row = arith.muli %i, %c4096 : index
    %k = arith.addi %row, %j : index
    %ki = arith.index_cast %k : index to i32
    %v = arith.sitofp %ki : i32 to f32
    linalg.yield %v : f32
  } -> tensor<300x1000xf32>
  %l, %f, %b, %n = func.call @flipped(%x) : (tensor<300x1000xf32>) -> (tensor<300x1000xf32>, tensor<300x1000xf32>, tensor<300x1000xf32>, tensor<300x999xf32>)
  %true = arith.constant true
  %false = arith.constant false
  %c999 = arith.constant 999 : index
  %c998 = arith.constant 998 : index
  %lc = tensor.cast %l : tensor<300x1000xf32> to tensor<300x?xf32>
  %fc = tensor.cast %f : tensor<300x1000xf32> to tensor<300x?xf32>
  %bc = tensor.cast %b : tensor<300x1000xf32> to tensor<300x?xf32>
  %nc = tensor.cast %n : tensor<300x999xf32> to tensor<300x?xf32>
  %wl = func.call @wrong(%lc, %false, %true, %c999) : (tensor<300x?xf32>, i1, i1, index) -> tensor<i32>
  %wf = func.call @wrong(%fc, %true, %false, %c999) : (tensor<300x?xf32>, i1, i1, index) -> tensor<i32>
  %wb = func.call @wrong(%bc, %true, %true, %c999) : (tensor<300x?xf32>, i1, i1, index) -> tensor<i32>
  %wn = func.call @wrong(%nc, %false, %true, %c998) : (tensor<300x?xf32>, i1, i1, index) -> tensor<i32>
  %s0 = arith.addi %wl, %wf : tensor<i32>
  %s1 = arith.addi %wb, %wn : tensor<i32>
  %t = func.call @turned(%x) : (tensor<300x1000xf32>) -> tensor<1000x300xf32>
  %wt = func.call @wrong_turned(%t) : (tensor<1000x300xf32>) -> tensor<i32>
  %s2 = arith.addi %s0, %s1 : tensor<i32>
  %s = arith.addi %s2, %wt : tensor<i32>
  return %s : tensor<i32>
}

// A run of ops along the same rows runs in one team, each tile of rows
// through every op (nx-linalg-to-openmp's row chains): each row's maximum,
// the row minus it, each row's sum, and their sum, over 1000 rows (tiles of
// 16 rows leave a short last one). Every row's values differ, so a tile
// that read another tile's rows, or rows not yet written, shows. Each
// function returns how many results differ from their closed form (0): on
// one thread, on three, serially (parallel=false) and in the serial order
// (strict-reductions). @dynamic_row_chain is the same chain at sizes read
// from its argument: one team too, with an if clause, which runs 5 rows on
// the calling thread.
// RUN: nx-runner %s --entry=row_chain --compute-threads=1 | FileCheck %s
// RUN: nx-runner %s --entry=row_chain --compute-threads=3 | FileCheck %s
// RUN: nx-runner %s --entry=row_chain --parallel=false | FileCheck %s
// RUN: nx-runner %s --entry=row_chain --strict-reductions --compute-threads=3 \
// RUN:   | FileCheck %s
// RUN: nx-runner %s --entry=dynamic_row_chain --input=1000x256xf32=0 \
// RUN:   --compute-threads=1 | FileCheck %s
// RUN: nx-runner %s --entry=dynamic_row_chain --input=1000x256xf32=0 \
// RUN:   --compute-threads=3 | FileCheck %s
// RUN: nx-runner %s --entry=dynamic_row_chain --input=5x256xf32=0 \
// RUN:   --compute-threads=3 | FileCheck %s
// RUN: nx-runner %s --entry=dynamic_row_chain --input=1000x256xf32=0 \
// RUN:   --strict-reductions --compute-threads=3 | FileCheck %s
// RUN: nx-opt %s --nx-lower-to-cpu --mlir-pass-statistics 2>&1 \
// RUN:   | FileCheck %s --check-prefix=STATISTICS

// CHECK: result #0: tensor<i32> = 0
// STATISTICS: 2 row-chains

#rows = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>

// x[i, j] = (5 i + j) mod 256 + 1000 (i mod 7): each row holds 0..255 once,
// shifted by 1000 (i mod 7). Its maximum is 255 + 1000 (i mod 7), its sum
// 32640 + 256000 (i mod 7), and
//   z[i, j] = x[i, j] - max[i] + sum[i]
//           = (5 i + j) mod 256 - 255 + 32640 + 256000 (i mod 7),
// every value an integer that f32 holds exactly, in any order of the sums.
func.func @row_chain() -> tensor<i32> {
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c256 = arith.constant 256 : index
  %c1000 = arith.constant 1000 : index
  %init = tensor.empty() : tensor<1000x256xf32>
  %x = linalg.generic {indexing_maps = [#rows], iterator_types = ["parallel", "parallel"]}
      outs(%init : tensor<1000x256xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %fi = arith.muli %i, %c5 : index
    %s = arith.addi %fi, %j : index
    %r = arith.remui %s, %c256 : index
    %k = arith.remui %i, %c7 : index
    %shift = arith.muli %k, %c1000 : index
    %v = arith.addi %r, %shift : index
    %vi = arith.index_cast %v : index to i32
    %vf = arith.sitofp %vi : i32 to f32
    linalg.yield %vf : f32
  } -> tensor<1000x256xf32>

  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %rowsInit = tensor.empty() : tensor<1000xf32>
  %maxInit = linalg.fill ins(%ninf : f32) outs(%rowsInit : tensor<1000xf32>) -> tensor<1000xf32>
  %max = linalg.reduce ins(%x : tensor<1000x256xf32>) outs(%maxInit : tensor<1000xf32>) dimensions = [1]
    (%in: f32, %a: f32) {
      %t = arith.maximumf %in, %a : f32
      linalg.yield %t : f32
    }
  %y = linalg.generic {indexing_maps = [#rows, #row, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<1000x256xf32>, tensor<1000xf32>) outs(%init : tensor<1000x256xf32>) {
  ^bb0(%v: f32, %m: f32, %out: f32):
    %d = arith.subf %v, %m : f32
    linalg.yield %d : f32
  } -> tensor<1000x256xf32>
  %sumInit = linalg.fill ins(%zero : f32) outs(%rowsInit : tensor<1000xf32>) -> tensor<1000xf32>
  %sum = linalg.reduce ins(%x : tensor<1000x256xf32>) outs(%sumInit : tensor<1000xf32>) dimensions = [1]
    (%in: f32, %a: f32) {
      %t = arith.addf %in, %a : f32
      linalg.yield %t : f32
    }
  %z = linalg.generic {indexing_maps = [#rows, #row, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%y, %sum : tensor<1000x256xf32>, tensor<1000xf32>) outs(%init : tensor<1000x256xf32>) {
  ^bb0(%v: f32, %s: f32, %out: f32):
    %t = arith.addf %v, %s : f32
    linalg.yield %t : f32
  } -> tensor<1000x256xf32>

  %zd = tensor.cast %z : tensor<1000x256xf32> to tensor<?x256xf32>
  %count = func.call @count_wrong(%zd) : (tensor<?x256xf32>) -> tensor<i32>
  return %count : tensor<i32>
}

// The same chain at dynamic sizes.
func.func @dynamic_row_chain(%shape: tensor<?x256xf32>) -> tensor<i32> {
  %c0 = arith.constant 0 : index
  %rows = tensor.dim %shape, %c0 : tensor<?x256xf32>
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c256 = arith.constant 256 : index
  %c1000 = arith.constant 1000 : index
  %init = tensor.empty(%rows) : tensor<?x256xf32>
  %x = linalg.generic {indexing_maps = [#rows], iterator_types = ["parallel", "parallel"]}
      outs(%init : tensor<?x256xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %fi = arith.muli %i, %c5 : index
    %s = arith.addi %fi, %j : index
    %r = arith.remui %s, %c256 : index
    %k = arith.remui %i, %c7 : index
    %shift = arith.muli %k, %c1000 : index
    %v = arith.addi %r, %shift : index
    %vi = arith.index_cast %v : index to i32
    %vf = arith.sitofp %vi : i32 to f32
    linalg.yield %vf : f32
  } -> tensor<?x256xf32>

  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %rowsInit = tensor.empty(%rows) : tensor<?xf32>
  %maxInit = linalg.fill ins(%ninf : f32) outs(%rowsInit : tensor<?xf32>) -> tensor<?xf32>
  %max = linalg.reduce ins(%x : tensor<?x256xf32>) outs(%maxInit : tensor<?xf32>) dimensions = [1]
    (%in: f32, %a: f32) {
      %t = arith.maximumf %in, %a : f32
      linalg.yield %t : f32
    }
  %y = linalg.generic {indexing_maps = [#rows, #row, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<?x256xf32>, tensor<?xf32>) outs(%init : tensor<?x256xf32>) {
  ^bb0(%v: f32, %m: f32, %out: f32):
    %d = arith.subf %v, %m : f32
    linalg.yield %d : f32
  } -> tensor<?x256xf32>
  %sumInit = linalg.fill ins(%zero : f32) outs(%rowsInit : tensor<?xf32>) -> tensor<?xf32>
  %sum = linalg.reduce ins(%x : tensor<?x256xf32>) outs(%sumInit : tensor<?xf32>) dimensions = [1]
    (%in: f32, %a: f32) {
      %t = arith.addf %in, %a : f32
      linalg.yield %t : f32
    }
  %z = linalg.generic {indexing_maps = [#rows, #row, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%y, %sum : tensor<?x256xf32>, tensor<?xf32>) outs(%init : tensor<?x256xf32>) {
  ^bb0(%v: f32, %s: f32, %out: f32):
    %t = arith.addf %v, %s : f32
    linalg.yield %t : f32
  } -> tensor<?x256xf32>

  %count = func.call @count_wrong(%z) : (tensor<?x256xf32>) -> tensor<i32>
  return %count : tensor<i32>
}

// How many of z's values differ from their closed form.
func.func private @count_wrong(%z: tensor<?x256xf32>) -> tensor<i32> {
  %c0 = arith.constant 0 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c256 = arith.constant 256 : index
  %c32385 = arith.constant 32385 : index
  %c256000 = arith.constant 256000 : index
  %rows = tensor.dim %z, %c0 : tensor<?x256xf32>
  %flagsInit = tensor.empty(%rows) : tensor<?x256xi32>
  %flags = linalg.generic {indexing_maps = [#rows, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%z : tensor<?x256xf32>) outs(%flagsInit : tensor<?x256xi32>) {
  ^bb0(%v: f32, %out: i32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %fi = arith.muli %i, %c5 : index
    %s = arith.addi %fi, %j : index
    %r = arith.remui %s, %c256 : index
    %k = arith.remui %i, %c7 : index
    %shift = arith.muli %k, %c256000 : index
    %base = arith.addi %r, %c32385 : index
    %e = arith.addi %base, %shift : index
    %ei = arith.index_cast %e : index to i32
    %expected = arith.sitofp %ei : i32 to f32
    %same = arith.cmpf oeq, %v, %expected : f32
    %wrong = arith.extui %same : i1 to i32
    %one = arith.constant 1 : i32
    %n = arith.subi %one, %wrong : i32
    linalg.yield %n : i32
  } -> tensor<?x256xi32>
  %zeroCount = arith.constant 0 : i32
  %countInit = tensor.empty() : tensor<i32>
  %countAcc = linalg.fill ins(%zeroCount : i32) outs(%countInit : tensor<i32>) -> tensor<i32>
  %count = linalg.reduce ins(%flags : tensor<?x256xi32>) outs(%countAcc : tensor<i32>) dimensions = [0, 1]
    (%in: i32, %a: i32) {
      %t = arith.addi %a, %in : i32
      linalg.yield %t : i32
    }
  return %count : tensor<i32>
}

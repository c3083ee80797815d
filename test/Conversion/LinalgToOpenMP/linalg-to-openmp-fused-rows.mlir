// RUN: nx-opt %s -split-input-file -nx-linalg-to-openmp -cse | FileCheck %s --enable-var-scope

#x = affine_map<(i, k, l) -> (i, k, l)>
#p = affine_map<(i, k, l) -> (i, l)>
#rows = affine_map<(i, l) -> (i, l)>
#row = affine_map<(i, l) -> (i)>

// A row sum as nx-split-reductions leaves it: partial sums into a buffer of
// their own, then a reduction of each row of partial sums. The second op
// runs in the first one's tiles, on the rows each tile has just written:
// one team, and the partial sums are read back while in cache. Tiles of
// 16 rows (1024 points would make 4), for nx-vectorize-linalg to read four
// of them at once, one of each quarter, while 64 tiles remain.
// CHECK-LABEL: func.func @row_sums
// CHECK: %[[SUMS:.+]] = memref.alloc() : memref<1024xf32>
// CHECK: linalg.fill {{.+}} outs(%[[SUMS]] :
// CHECK: %[[PARTIAL:.+]] = memref.alloc() : memref<1024x64xf32>
// CHECK-NOT: linalg
// CHECK: omp.parallel {
// CHECK: omp.loop_nest (%[[ROW:.+]]) : index = (%{{.+}}) to (%{{.+}}) step (%[[C16:.+]]) {
// CHECK: %[[X:.+]] = memref.subview %{{.+}}[%[[ROW]], 0, 0] [16, 16, 64]
// CHECK: %[[P:.+]] = memref.subview %[[PARTIAL]][%[[ROW]], 0] [16, 64]
// CHECK: linalg.fill {{.+}} outs(%[[P]] :
// CHECK-NEXT: linalg.generic {{.+}} ins(%[[X]] : {{.+}}) outs(%[[P]] :
// CHECK: %[[S:.+]] = memref.subview %[[SUMS]][%[[ROW]]] [16]
// CHECK-NEXT: linalg.generic {{.+}} ins(%[[P]] : {{.+}}) outs(%[[S]] :
// CHECK: omp.yield
// CHECK: omp.terminator
// CHECK-NEXT: }
// CHECK-NEXT: memref.dealloc %[[PARTIAL]]
// CHECK-NOT: omp.parallel
// CHECK-NOT: linalg
func.func @row_sums(%x: memref<1024x16x64xf32>) -> memref<1024xf32> {
  %zero = arith.constant 0.0 : f32
  %sums = memref.alloc() : memref<1024xf32>
  linalg.fill ins(%zero : f32) outs(%sums : memref<1024xf32>)
  %partial = memref.alloc() : memref<1024x64xf32>
  linalg.fill ins(%zero : f32) outs(%partial : memref<1024x64xf32>)
  linalg.generic {indexing_maps = [#x, #p], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x : memref<1024x16x64xf32>) outs(%partial : memref<1024x64xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]}
      ins(%partial : memref<1024x64xf32>) outs(%sums : memref<1024xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  }
  memref.dealloc %partial : memref<1024x64xf32>
  return %sums : memref<1024xf32>
}

// -----

#x = affine_map<(i, k, l) -> (i, k, l)>
#p = affine_map<(i, k, l) -> (i, l)>
#rows = affine_map<(i, l) -> (i, l)>
#row = affine_map<(i, l) -> (i)>

// 1001 rows in tiles of 4: the last tile has one row, in both ops.
// CHECK-LABEL: func.func @short_last_tile
// CHECK: omp.loop_nest (%[[ROW:.+]]) : index
// CHECK: %[[SIZE:.+]] = affine.min #{{.+}}(%[[ROW]])
// CHECK: memref.subview %{{.+}}[%[[ROW]], 0, 0] [%[[SIZE]], 16, 64]
// CHECK: %[[P:.+]] = memref.subview %{{.+}}[%[[ROW]], 0] [%[[SIZE]], 64]
// CHECK: linalg.generic {{.+}} outs(%[[P]] :
// CHECK: %[[S:.+]] = memref.subview %{{.+}}[%[[ROW]]] [%[[SIZE]]]
// CHECK-NEXT: linalg.generic {{.+}} ins(%[[P]] : {{.+}}) outs(%[[S]] :
// CHECK-NOT: omp.parallel
func.func @short_last_tile(%x: memref<1001x16x64xf32>) -> memref<1001xf32> {
  %sums = memref.alloc() : memref<1001xf32>
  %partial = memref.alloc() : memref<1001x64xf32>
  linalg.generic {indexing_maps = [#x, #p], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x : memref<1001x16x64xf32>) outs(%partial : memref<1001x64xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]}
      ins(%partial : memref<1001x64xf32>) outs(%sums : memref<1001xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  }
  memref.dealloc %partial : memref<1001x64xf32>
  return %sums : memref<1001xf32>
}

// -----

#x = affine_map<(i, k, l) -> (i, k, l)>
#p = affine_map<(i, k, l) -> (i, l)>
#rows = affine_map<(i, l) -> (i, l)>
#row = affine_map<(i, l) -> (i)>

// A mean: the row reduction's own epilogue (the division) comes along too.
// CHECK-LABEL: func.func @row_means
// CHECK: omp.parallel {
// CHECK: linalg.generic {{.+}}iterator_types = ["parallel", "reduction", "parallel"]
// CHECK: linalg.generic {{.+}}iterator_types = ["parallel", "reduction"]
// CHECK: linalg.generic {{.+}}iterator_types = ["parallel"]
// CHECK: arith.divf
// CHECK: omp.terminator
// CHECK-NOT: omp.parallel
// CHECK-NOT: linalg
func.func @row_means(%x: memref<1024x16x64xf32>) -> memref<1024xf32> {
  %n = arith.constant 1024.0 : f32
  %sums = memref.alloc() : memref<1024xf32>
  %partial = memref.alloc() : memref<1024x64xf32>
  linalg.generic {indexing_maps = [#x, #p], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x : memref<1024x16x64xf32>) outs(%partial : memref<1024x64xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]}
      ins(%partial : memref<1024x64xf32>) outs(%sums : memref<1024xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  }
  memref.dealloc %partial : memref<1024x64xf32>
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                  iterator_types = ["parallel"]}
      ins(%sums : memref<1024xf32>) outs(%sums : memref<1024xf32>) {
  ^bb0(%s: f32, %o: f32):
    %m = arith.divf %s, %n : f32
    linalg.yield %m : f32
  }
  return %sums : memref<1024xf32>
}

// -----

#x = affine_map<(i, k, l) -> (i, k, l)>
#p = affine_map<(i, k, l) -> (i, l)>
#cols = affine_map<(i, l) -> (l, i)>
#out = affine_map<(i, l) -> (i)>

// The second op reads the partial sums by columns: a tile of it needs rows
// that other tiles write. Two teams, one after the other.
// CHECK-LABEL: func.func @reads_columns
// CHECK: omp.parallel {
// CHECK: linalg.generic
// CHECK: omp.terminator
// CHECK: omp.parallel {
// CHECK: linalg.generic
func.func @reads_columns(%x: memref<1024x16x1024xf32>) -> memref<1024xf32> {
  %sums = memref.alloc() : memref<1024xf32>
  %partial = memref.alloc() : memref<1024x1024xf32>
  linalg.generic {indexing_maps = [#x, #p], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x : memref<1024x16x1024xf32>) outs(%partial : memref<1024x1024xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#cols, #out], iterator_types = ["parallel", "reduction"]}
      ins(%partial : memref<1024x1024xf32>) outs(%sums : memref<1024xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  }
  memref.dealloc %partial : memref<1024x1024xf32>
  return %sums : memref<1024xf32>
}

// -----

#x = affine_map<(i, k, l) -> (i, k, l)>
#p = affine_map<(i, k, l) -> (i, l)>
#rows = affine_map<(i, l) -> (i, l)>
#row = affine_map<(i, l) -> (i)>

// The partial sums go to a buffer the function was given, which the
// caller may see: each op keeps its own team.
// CHECK-LABEL: func.func @argument_partials
// CHECK: omp.parallel {
// CHECK: omp.terminator
// CHECK: omp.parallel {
func.func @argument_partials(%x: memref<1024x16x64xf32>, %partial: memref<1024x64xf32>) -> memref<1024xf32> {
  %sums = memref.alloc() : memref<1024xf32>
  linalg.generic {indexing_maps = [#x, #p], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x : memref<1024x16x64xf32>) outs(%partial : memref<1024x64xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]}
      ins(%partial : memref<1024x64xf32>) outs(%sums : memref<1024xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  }
  return %sums : memref<1024xf32>
}

// -----

#x = affine_map<(i, k, l) -> (i, k, l)>
#p = affine_map<(i, k, l) -> (i, l)>
#rows = affine_map<(i, l) -> (i, l)>
#row = affine_map<(i, l) -> (i)>

// The second op writes the buffer the first one reads. As a pair, a tile
// could overwrite rows that later tiles of the first op still read; here
// both touch that buffer only in their own rows, which the row chain
// proves: one team, each tile reading its rows of %y before it writes them.
// CHECK-LABEL: func.func @writes_producer_input
// CHECK: omp.parallel {
// CHECK: math.exp
// CHECK: arith.addf
// CHECK: omp.terminator
// CHECK-NOT: omp.parallel
func.func @writes_producer_input(%x: memref<1024x64xf32>) -> memref<1024x64xf32> {
  %y = memref.alloc() : memref<1024x64xf32>
  %partial = memref.alloc() : memref<1024x64xf32>
  linalg.generic {indexing_maps = [#rows, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%y : memref<1024x64xf32>) outs(%partial : memref<1024x64xf32>) {
  ^bb0(%in: f32, %o: f32):
    %e = math.exp %in : f32
    linalg.yield %e : f32
  }
  linalg.generic {indexing_maps = [#rows, #rows, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%partial, %x : memref<1024x64xf32>, memref<1024x64xf32>) outs(%y : memref<1024x64xf32>) {
  ^bb0(%in: f32, %b: f32, %o: f32):
    %s = arith.addf %in, %b : f32
    linalg.yield %s : f32
  }
  memref.dealloc %partial : memref<1024x64xf32>
  return %y : memref<1024x64xf32>
}

// -----

#rows = affine_map<(i, l) -> (i, l)>

// A chain of three ops, each reading the rows the one before writes: as
// pairs, the second would run in the first one's tiles and the third get
// a team of its own; as a row chain, one team runs all three.
// CHECK-LABEL: func.func @chain
// CHECK: omp.parallel {
// CHECK: math.exp
// CHECK: math.log
// CHECK: math.sqrt
// CHECK: omp.terminator
// CHECK-NOT: linalg.generic
func.func @chain(%x: memref<1024x64xf32>) -> memref<1024x64xf32> {
  %a = memref.alloc() : memref<1024x64xf32>
  %b = memref.alloc() : memref<1024x64xf32>
  %c = memref.alloc() : memref<1024x64xf32>
  linalg.generic {indexing_maps = [#rows, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<1024x64xf32>) outs(%a : memref<1024x64xf32>) {
  ^bb0(%in: f32, %o: f32):
    %e = math.exp %in : f32
    linalg.yield %e : f32
  }
  linalg.generic {indexing_maps = [#rows, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<1024x64xf32>) outs(%b : memref<1024x64xf32>) {
  ^bb0(%in: f32, %o: f32):
    %e = math.log %in : f32
    linalg.yield %e : f32
  }
  linalg.generic {indexing_maps = [#rows, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%b : memref<1024x64xf32>) outs(%c : memref<1024x64xf32>) {
  ^bb0(%in: f32, %o: f32):
    %e = math.sqrt %in : f32
    linalg.yield %e : f32
  }
  memref.dealloc %a : memref<1024x64xf32>
  memref.dealloc %b : memref<1024x64xf32>
  return %c : memref<1024x64xf32>
}

// -----

#x = affine_map<(i, k, l) -> (i, k, l)>
#p = affine_map<(i, k, l) -> (i, l)>
#rows = affine_map<(i, l) -> (i, l)>
#row = affine_map<(i, l) -> (i)>

// Rows of 768 points: 6 rows cover 4096. Tiles of 16 would leave 8 tiles
// of 128 rows, fewer than a 16-core host's threads; tiles of 8 (the
// granule of four rows) leave 16.
// CHECK-LABEL: func.func @granule_of_four_rows
// CHECK: omp.loop_nest (%[[ROW:.+]]) : index = (%{{.+}}) to (%{{.+}}) step (%c8) {
// CHECK: memref.subview %{{.+}}[%[[ROW]], 0, 0] [8, 12, 64]
func.func @granule_of_four_rows(%x: memref<128x12x64xf32>) -> memref<128xf32> {
  %zero = arith.constant 0.0 : f32
  %sums = memref.alloc() : memref<128xf32>
  linalg.fill ins(%zero : f32) outs(%sums : memref<128xf32>)
  %partial = memref.alloc() : memref<128x64xf32>
  linalg.fill ins(%zero : f32) outs(%partial : memref<128x64xf32>)
  linalg.generic {indexing_maps = [#x, #p], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x : memref<128x12x64xf32>) outs(%partial : memref<128x64xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]}
      ins(%partial : memref<128x64xf32>) outs(%sums : memref<128xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  }
  memref.dealloc %partial : memref<128x64xf32>
  return %sums : memref<128xf32>
}

// -----

#x = affine_map<(i, k, l) -> (i, k, l)>
#p = affine_map<(i, k, l) -> (i, l)>
#rows = affine_map<(i, l) -> (i, l)>
#row = affine_map<(i, l) -> (i)>

// 88 such rows: neither granule leaves 16 tiles (8 rows would make 11),
// and the tiles keep the 6 rows that cover 4096 points.
// CHECK-LABEL: func.func @too_few_rows_for_a_granule
// CHECK: omp.loop_nest (%{{.+}}) : index = (%{{.+}}) to (%{{.+}}) step (%c6) {
func.func @too_few_rows_for_a_granule(%x: memref<88x12x64xf32>) -> memref<88xf32> {
  %zero = arith.constant 0.0 : f32
  %sums = memref.alloc() : memref<88xf32>
  linalg.fill ins(%zero : f32) outs(%sums : memref<88xf32>)
  %partial = memref.alloc() : memref<88x64xf32>
  linalg.fill ins(%zero : f32) outs(%partial : memref<88x64xf32>)
  linalg.generic {indexing_maps = [#x, #p], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x : memref<88x12x64xf32>) outs(%partial : memref<88x64xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]}
      ins(%partial : memref<88x64xf32>) outs(%sums : memref<88xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  }
  memref.dealloc %partial : memref<88x64xf32>
  return %sums : memref<88xf32>
}

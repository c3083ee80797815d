// Reductions over a middle or outer axis whose accumulators stay in memory
// take four input rows per pass: one of each of four segments of the rows
// when the combiner may reassociate (lib/Codegen/CPU/JammedRows.h), four
// adjacent ones otherwise. Split row reductions reduce four rows at a time,
// one of each quarter of their tile's rows (SplitRowReductions.cpp). Every row must still be read once: each function
// below marks one row per output element, a different row for different
// elements, so that a segment read twice or not at all shows, and returns
// how many outputs differ from their closed form (0). On one thread, on
// three, serially (parallel=false) and in the serial order
// (strict-reductions).
// RUN: nx-runner %s --entry=middle_maxima --compute-threads=1 | FileCheck %s
// RUN: nx-runner %s --entry=middle_maxima --compute-threads=3 | FileCheck %s
// RUN: nx-runner %s --entry=middle_maxima --strict-reductions | FileCheck %s
// RUN: nx-runner %s --entry=middle_maxima --parallel=false | FileCheck %s
// RUN: nx-runner %s --entry=column_sums --compute-threads=1 | FileCheck %s
// RUN: nx-runner %s --entry=column_sums --strict-reductions | FileCheck %s
// RUN: nx-runner %s --entry=column_sums --compute-threads=3 | FileCheck %s
// RUN: nx-runner %s --entry=row_sums --compute-threads=1 | FileCheck %s
// RUN: nx-runner %s --entry=row_sums --compute-threads=3 | FileCheck %s
// RUN: nx-runner %s --entry=row_sums --parallel=false | FileCheck %s
// RUN: nx-runner %s --entry=row_sums --strict-reductions | FileCheck %s

// CHECK: result #0: tensor<i32> = 0

#map3 = affine_map<(b, i, j) -> (b, i, j)>
#map2 = affine_map<(b, j) -> (b, j)>
#map1 = affine_map<(j) -> (j)>
#row = affine_map<(i, j) -> (i, j)>
#column = affine_map<(i, j) -> (j)>

// x[b, i, j] = j + 100 b in row (7 j + 13 b) mod 64 of the 64 rows, -1 in
// the others, and NaN at [1, 50, 3] (in the last segment): the maximum over
// i is j + 100 b, and NaN at [1, 3].
func.func @middle_maxima() -> tensor<i32> {
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c7 = arith.constant 7 : index
  %c13 = arith.constant 13 : index
  %c50 = arith.constant 50 : index
  %c64 = arith.constant 64 : index
  %c100 = arith.constant 100 : index
  %minus1 = arith.constant -1.0 : f32
  %nan = arith.constant 0x7FC00000 : f32
  %init = tensor.empty() : tensor<4x64x128xf32>
  %x = linalg.generic {indexing_maps = [#map3], iterator_types = ["parallel", "parallel", "parallel"]}
      outs(%init : tensor<4x64x128xf32>) {
  ^bb0(%out: f32):
    %b = linalg.index 0 : index
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %sj = arith.muli %j, %c7 : index
    %sb = arith.muli %b, %c13 : index
    %s = arith.addi %sj, %sb : index
    %p = arith.remui %s, %c64 : index
    %hb = arith.muli %b, %c100 : index
    %e = arith.addi %hb, %j : index
    %en = arith.index_cast %e : index to i32
    %expected = arith.sitofp %en : i32 to f32
    %marked = arith.cmpi eq, %i, %p : index
    %v = arith.select %marked, %expected, %minus1 : f32
    %atB = arith.cmpi eq, %b, %c1 : index
    %atI = arith.cmpi eq, %i, %c50 : index
    %atJ = arith.cmpi eq, %j, %c3 : index
    %atBI = arith.andi %atB, %atI : i1
    %atNaN = arith.andi %atBI, %atJ : i1
    %w = arith.select %atNaN, %nan, %v : f32
    linalg.yield %w : f32
  } -> tensor<4x64x128xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %empty = tensor.empty() : tensor<4x128xf32>
  %acc = linalg.fill ins(%ninf : f32) outs(%empty : tensor<4x128xf32>) -> tensor<4x128xf32>
  %m = linalg.reduce ins(%x : tensor<4x64x128xf32>) outs(%acc : tensor<4x128xf32>) dimensions = [1]
    (%in: f32, %a: f32) {
      %t = arith.maximumf %in, %a : f32
      linalg.yield %t : f32
    }
  // Outputs other than j + 100 b; [1, 3] is right only as a NaN.
  %true = arith.constant true
  %flagsInit = tensor.empty() : tensor<4x128xi32>
  %flags = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel"]}
      ins(%m : tensor<4x128xf32>) outs(%flagsInit : tensor<4x128xi32>) {
  ^bb0(%v: f32, %out: i32):
    %b = linalg.index 0 : index
    %j = linalg.index 1 : index
    %hb = arith.muli %b, %c100 : index
    %e = arith.addi %hb, %j : index
    %en = arith.index_cast %e : index to i32
    %expected = arith.sitofp %en : i32 to f32
    %atB = arith.cmpi eq, %b, %c1 : index
    %atJ = arith.cmpi eq, %j, %c3 : index
    %atNaN = arith.andi %atB, %atJ : i1
    %same = arith.cmpf oeq, %v, %expected : f32
    %isNaN = arith.cmpf uno, %v, %v : f32
    %right = arith.select %atNaN, %isNaN, %same : i1
    %wrong = arith.xori %right, %true : i1
    %n = arith.extui %wrong : i1 to i32
    linalg.yield %n : i32
  } -> tensor<4x128xi32>
  %zero = arith.constant 0 : i32
  %countInit = tensor.empty() : tensor<i32>
  %countAcc = linalg.fill ins(%zero : i32) outs(%countInit : tensor<i32>) -> tensor<i32>
  %count = linalg.reduce ins(%flags : tensor<4x128xi32>) outs(%countAcc : tensor<i32>) dimensions = [0, 1]
    (%in: i32, %a: i32) {
      %t = arith.addi %a, %in : i32
      linalg.yield %t : i32
    }
  return %count : tensor<i32>
}

// x[i, j] = 1, plus j in row 7 j mod 64 of the 64 rows: column j sums to
// 64 + j, exactly in f32 in any order. 300 columns: a partial vector too.
func.func @column_sums() -> tensor<i32> {
  %c7 = arith.constant 7 : index
  %c64 = arith.constant 64 : index
  %one = arith.constant 1.0 : f32
  %init = tensor.empty() : tensor<64x300xf32>
  %x = linalg.generic {indexing_maps = [#row], iterator_types = ["parallel", "parallel"]}
      outs(%init : tensor<64x300xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %sj = arith.muli %j, %c7 : index
    %p = arith.remui %sj, %c64 : index
    %marked = arith.cmpi eq, %i, %p : index
    %jn = arith.index_cast %j : index to i32
    %jf = arith.sitofp %jn : i32 to f32
    %plus = arith.addf %jf, %one : f32
    %v = arith.select %marked, %plus, %one : f32
    linalg.yield %v : f32
  } -> tensor<64x300xf32>
  %zerof = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<300xf32>
  %acc = linalg.fill ins(%zerof : f32) outs(%empty : tensor<300xf32>) -> tensor<300xf32>
  %s = linalg.reduce ins(%x : tensor<64x300xf32>) outs(%acc : tensor<300xf32>) dimensions = [0]
    (%in: f32, %a: f32) {
      %t = arith.addf %a, %in : f32
      linalg.yield %t : f32
    }
  // Outputs other than 64 + j.
  %flagsInit = tensor.empty() : tensor<300xi32>
  %flags = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel"]}
      ins(%s : tensor<300xf32>) outs(%flagsInit : tensor<300xi32>) {
  ^bb0(%v: f32, %out: i32):
    %j = linalg.index 0 : index
    %e = arith.addi %j, %c64 : index
    %en = arith.index_cast %e : index to i32
    %expected = arith.sitofp %en : i32 to f32
    %wrong = arith.cmpf une, %v, %expected : f32
    %n = arith.extui %wrong : i1 to i32
    linalg.yield %n : i32
  } -> tensor<300xi32>
  %zero = arith.constant 0 : i32
  %countInit = tensor.empty() : tensor<i32>
  %countAcc = linalg.fill ins(%zero : i32) outs(%countInit : tensor<i32>) -> tensor<i32>
  %count = linalg.reduce ins(%flags : tensor<300xi32>) outs(%countAcc : tensor<i32>) dimensions = [0]
    (%in: i32, %a: i32) {
      %t = arith.addi %a, %in : i32
      linalg.yield %t : i32
    }
  return %count : tensor<i32>
}

// x[i, j] = 1, plus i in column (7 i) mod 1024 of the 1024: row i sums to
// 1024 + i, exactly in f32 in any order. 256 rows: OpenMP tiles of 16 rows
// (four quarters of four), or all 256 in quarters of 64 when serial.
func.func @row_sums() -> tensor<i32> {
  %c7 = arith.constant 7 : index
  %c1024 = arith.constant 1024 : index
  %one = arith.constant 1.0 : f32
  %init = tensor.empty() : tensor<256x1024xf32>
  %x = linalg.generic {indexing_maps = [#row], iterator_types = ["parallel", "parallel"]}
      outs(%init : tensor<256x1024xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %si = arith.muli %i, %c7 : index
    %p = arith.remui %si, %c1024 : index
    %marked = arith.cmpi eq, %j, %p : index
    %in = arith.index_cast %i : index to i32
    %if = arith.sitofp %in : i32 to f32
    %plus = arith.addf %if, %one : f32
    %v = arith.select %marked, %plus, %one : f32
    linalg.yield %v : f32
  } -> tensor<256x1024xf32>
  %zerof = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<256xf32>
  %acc = linalg.fill ins(%zerof : f32) outs(%empty : tensor<256xf32>) -> tensor<256xf32>
  %s = linalg.reduce ins(%x : tensor<256x1024xf32>) outs(%acc : tensor<256xf32>) dimensions = [1]
    (%in: f32, %a: f32) {
      %t = arith.addf %a, %in : f32
      linalg.yield %t : f32
    }
  // Outputs other than 1024 + i.
  %flagsInit = tensor.empty() : tensor<256xi32>
  %flags = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel"]}
      ins(%s : tensor<256xf32>) outs(%flagsInit : tensor<256xi32>) {
  ^bb0(%v: f32, %out: i32):
    %i = linalg.index 0 : index
    %e = arith.addi %i, %c1024 : index
    %en = arith.index_cast %e : index to i32
    %expected = arith.sitofp %en : i32 to f32
    %wrong = arith.cmpf une, %v, %expected : f32
    %n = arith.extui %wrong : i1 to i32
    linalg.yield %n : i32
  } -> tensor<256xi32>
  %zero = arith.constant 0 : i32
  %countInit = tensor.empty() : tensor<i32>
  %countAcc = linalg.fill ins(%zero : i32) outs(%countInit : tensor<i32>) -> tensor<i32>
  %count = linalg.reduce ins(%flags : tensor<256xi32>) outs(%countAcc : tensor<i32>) dimensions = [0]
    (%in: i32, %a: i32) {
      %t = arith.addi %a, %in : i32
      linalg.yield %t : i32
    }
  return %count : tensor<i32>
}

// RUN: nx-opt %s -split-input-file -nx-linalg-to-openmp="split-outer-reductions num-threads-function=threads" -cse | FileCheck %s --enable-var-scope
// RUN: nx-opt %s -split-input-file -nx-linalg-to-openmp="split-outer-reductions" -cse | FileCheck %s --check-prefix=DEFAULT-TEAM
// RUN: nx-opt %s -split-input-file -nx-linalg-to-openmp | FileCheck %s --check-prefix=OFF
// RUN: nx-opt %s -split-input-file -nx-linalg-to-openmp="split-outer-reductions" -mlir-pass-statistics -mlir-pass-statistics-display=list -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATISTICS

// Without split-outer-reductions, a reduction along the outermost loop has
// no loop that owns its output: it stays serial.
// OFF-NOT: omp.parallel

// Each part's statistics: the first three are shared among workers, the
// last is left alone.
// STATISTICS: (S) 1 outer-reductions
// STATISTICS: (S) 1 outer-reductions
// STATISTICS: (S) 1 outer-reductions
// STATISTICS: (S) 0 outer-reductions

// A column sum: as many workers as `@threads` says, at most the 128 blocks
// of 16 rows (8 rows cover 4096 points; 16, whose quarters the vectorizer
// reads as four streams, still make 16 blocks or more), and one thread per
// worker. Worker w fills its own row of partial sums
// with zeros and reduces its blocks [w * 128 / W, (w + 1) * 128 / W) into
// it; once every worker is done, the same team sums the W rows into the
// output, in tiles of 128 columns (the blocks' constant, after CSE).
// CHECK-LABEL: func.func @column_sums
// CHECK-SAME: (%[[X:.+]]: memref<2048x512xf32>, %[[OUT:.+]]: memref<512xf32>)
// CHECK: %[[THREADS:.+]] = call @threads() : () -> i32
// CHECK: %[[T:.+]] = arith.index_cast %[[THREADS]] : i32 to index
// CHECK: %[[BLOCKS:.+]] = arith.constant 128 : index
// CHECK: %[[MIN:.+]] = arith.minsi %[[T]], %[[BLOCKS]] : index
// CHECK: %[[ONE:.+]] = arith.constant 1 : index
// CHECK: %[[W:.+]] = arith.maxsi %[[MIN]], %[[ONE]] : index
// CHECK: %[[PARTIAL:.+]] = memref.alloc(%[[W]]) {alignment = 64 : i64} : memref<?x512xf32>
// CHECK: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[TEAM:.+]] = arith.index_cast %[[W]] : index to i32
// CHECK: omp.parallel num_threads(%[[TEAM]] : i32) {
// CHECK: omp.loop_nest (%[[WORKER:.+]]) : index = (%{{.+}}) to (%[[W]]) step (%[[ONE]]) {
// CHECK: %[[ROW:.+]] = memref.subview %[[PARTIAL]][%[[WORKER]], 0] [1, 512] [1, 1] : memref<?x512xf32> to memref<512xf32, strided<[1], offset: ?>>
// CHECK: linalg.fill ins(%[[ZERO]] : f32) outs(%[[ROW]] :
// CHECK: %[[S0:.+]] = arith.muli %[[WORKER]], %[[BLOCKS]] : index
// CHECK: %[[FIRST:.+]] = arith.divui %[[S0]], %[[W]] : index
// CHECK: %[[NEXT:.+]] = arith.addi %[[WORKER]], %[[ONE]] : index
// CHECK: %[[S1:.+]] = arith.muli %[[NEXT]], %[[BLOCKS]] : index
// CHECK: %[[LAST:.+]] = arith.divui %[[S1]], %[[W]] : index
// CHECK: scf.for %[[BLOCK:.+]] = %[[FIRST]] to %[[LAST]] step %[[ONE]] {
// CHECK: %[[R:.+]] = affine.apply #{{.+}}(%[[BLOCK]])
// CHECK: %[[XS:.+]] = memref.subview %[[X]][%[[R]], 0] [16, 512] [1, 1]
// CHECK: linalg.reduce ins(%[[XS]] : {{.+}}) outs(%[[ROW]] : {{.+}}) dimensions = [0]
// CHECK: arith.addf
// CHECK: omp.yield
// CHECK: %[[C512:.+]] = arith.constant 512 : index
// CHECK: omp.wsloop {
// CHECK-NEXT: omp.loop_nest (%[[COLUMN:.+]]) : index = (%{{.+}}) to (%[[C512]]) step (%[[BLOCKS]]) {
// CHECK-NEXT: %[[ROWS:.+]] = memref.subview %[[PARTIAL]][0, %[[COLUMN]]] [%[[W]], 128] [1, 1]
// CHECK-NEXT: %[[SUMS:.+]] = memref.subview %[[OUT]][%[[COLUMN]]] [128] [1]
// CHECK-NEXT: linalg.reduce ins(%[[ROWS]] : {{.+}}) outs(%[[SUMS]] : {{.+}}) dimensions = [0]
// CHECK: arith.addf
// CHECK: omp.yield
// CHECK: omp.terminator
// CHECK-NEXT: }
// CHECK-NEXT: memref.dealloc %[[PARTIAL]]
// CHECK-NEXT: return

// DEFAULT-TEAM-LABEL: func.func @column_sums
// DEFAULT-TEAM: %[[THREADS:.+]] = call @omp_get_max_threads() : () -> i32
// DEFAULT-TEAM: arith.index_cast %[[THREADS]] : i32 to index
func.func @column_sums(%x: memref<2048x512xf32>, %out: memref<512xf32>) {
  linalg.reduce ins(%x : memref<2048x512xf32>) outs(%out : memref<512xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return
}

// DEFAULT-TEAM: func.func private @omp_get_max_threads() -> i32

// -----

// Maxima over rows behind a batch of one: the rows are the first loop of
// another extent. 202 rows are 25 whole blocks of 8 (blocks of 16 would be
// fewer than 16) and 2 rows more, which
// the last worker reduces too: every op on rows has a static size. The
// partial rows start at the maximum's neutral element, -inf, and keep the
// output's shape.
// CHECK-LABEL: func.func @uneven_maxima
// CHECK: %[[BLOCKS:.+]] = arith.constant 25 : index
// CHECK: %[[PARTIAL:.+]] = memref.alloc(%[[W:.+]]) {alignment = 64 : i64} : memref<?x1x512xf32>
// CHECK: %[[LOWEST:.+]] = arith.constant 0xFF800000 : f32
// CHECK: omp.loop_nest (%[[WORKER:.+]]) :
// CHECK: %[[ROW:.+]] = memref.subview %[[PARTIAL]][%[[WORKER]], 0, 0] [1, 1, 512] [1, 1, 1] : memref<?x1x512xf32> to memref<1x512xf32, strided<[512, 1], offset: ?>>
// CHECK: linalg.fill ins(%[[LOWEST]] : f32) outs(%[[ROW]] :
// CHECK: %[[NEXT:.+]] = arith.addi %[[WORKER]], %{{.+}} : index
// CHECK: scf.for %[[BLOCK:.+]] =
// CHECK: memref.subview %{{.+}}[0, %{{.+}}, 0] [1, 8, 512] [1, 1, 1]
// CHECK: linalg.reduce {{.+}} outs(%[[ROW]] : {{.+}}) dimensions = [1]
// CHECK: arith.maximumf
// CHECK: %[[LAST:.+]] = arith.cmpi eq, %[[NEXT]], %[[W]] : index
// CHECK: scf.if %[[LAST]] {
// CHECK: %[[TAIL:.+]] = memref.subview %{{.+}}[0, 200, 0] [1, 2, 512] [1, 1, 1]
// CHECK: linalg.reduce ins(%[[TAIL]] : {{.+}}) outs(%[[ROW]] : {{.+}}) dimensions = [1]
// CHECK: omp.loop_nest (%[[COLUMN:.+]]) :
// CHECK: memref.subview %[[PARTIAL]][0, 0, %[[COLUMN]]] [%[[W]], 1, 128] [1, 1, 1]
// CHECK: linalg.reduce {{.+}} dimensions = [0]
// CHECK: arith.maximumf
func.func private @threads() -> i32
func.func @uneven_maxima(%x: memref<1x202x512xf32>, %out: memref<1x512xf32>) {
  linalg.reduce ins(%x : memref<1x202x512xf32>) outs(%out : memref<1x512xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.maximumf %in, %acc : f32
      linalg.yield %s : f32
    }
  return
}

// -----

// One output element: its rows are shared among workers, but the one
// combination of their partial sums runs after the team.
// CHECK-LABEL: func.func @one_sum
// CHECK: %[[PARTIAL:.+]] = memref.alloc(%{{.+}}) {alignment = 64 : i64} : memref<?x1xf32>
// CHECK: omp.parallel
// CHECK-COUNT-1: omp.wsloop
// CHECK-NOT: omp.wsloop
// CHECK: omp.terminator
// CHECK-NEXT: }
// CHECK-NEXT: linalg.reduce ins(%[[PARTIAL]] : memref<?x1xf32>) outs(%{{.+}} : memref<1xf32>) dimensions = [0]
func.func private @threads() -> i32
func.func @one_sum(%x: memref<65536x1xf32>, %out: memref<1xf32>) {
  linalg.reduce ins(%x : memref<65536x1xf32>) outs(%out : memref<1xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return
}

// -----

// Outer reductions left serial: a dynamic number of rows, fewer than
// min-work points, an input that is a view of the output's buffer (the
// output would be combined after the input was read), a combiner without a
// neutral element, and a body that reads its loops' indices.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: omp.parallel
// CHECK: return
func.func @left_alone(%dyn: memref<?x512xf32>, %small: memref<64x512xf32>,
                      %buffer: memref<2049x512xf32>, %x: memref<2048x512xf32>,
                      %out: memref<512xf32>, %iout: memref<512xindex>) {
  linalg.reduce ins(%dyn : memref<?x512xf32>) outs(%out : memref<512xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  linalg.reduce ins(%small : memref<64x512xf32>) outs(%out : memref<512xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  %rows = memref.subview %buffer[1, 0] [2048, 512] [1, 1] : memref<2049x512xf32> to memref<2048x512xf32, strided<[512, 1], offset: 512>>
  %first = memref.subview %buffer[0, 0] [1, 512] [1, 1] : memref<2049x512xf32> to memref<512xf32, strided<[1]>>
  linalg.reduce ins(%rows : memref<2048x512xf32, strided<[512, 1], offset: 512>>) outs(%first : memref<512xf32, strided<[1]>>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  linalg.reduce ins(%x : memref<2048x512xf32>) outs(%out : memref<512xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.subf %acc, %in : f32
      linalg.yield %s : f32
    }
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>],
                  iterator_types = ["reduction", "parallel"]}
      ins(%x : memref<2048x512xf32>) outs(%iout : memref<512xindex>) {
  ^bb0(%in: f32, %acc: index):
    %i = linalg.index 0 : index
    %s = arith.addi %acc, %i : index
    linalg.yield %s : index
  }
  return
}

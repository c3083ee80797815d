// RUN: nx-opt %s -split-input-file -nx-linalg-to-openmp="split-outer-reductions num-threads-function=threads" -cse | FileCheck %s --enable-var-scope
// RUN: nx-opt %s -split-input-file -nx-linalg-to-openmp="num-threads-function=threads" -cse | FileCheck %s --check-prefix=NO-SPLIT

// A reduction along the outermost loop over fewer than 64 rows of many
// columns shares its columns: 16 rows make only 4 blocks for workers, the
// columns 16 tiles of 32768. Each thread reduces every row of its tiles,
// read in strips of 128 KiB, in the serial order of each output element,
// with no partial results. split-outer-reductions is not needed for it.
// CHECK-LABEL: func.func @few_rows
// CHECK-SAME: (%[[X:.+]]: memref<16x524288xf32>, %[[OUT:.+]]: memref<524288xf32>)
// CHECK-NOT: memref.alloc
// CHECK: omp.parallel
// CHECK: omp.loop_nest (%[[COLUMN:.+]]) : index = (%{{.+}}) to (%{{.+}}) step (%[[STEP:.+]]) {
// CHECK: %[[XS:.+]] = memref.subview %[[X]][0, %[[COLUMN]]] [16, 32768] [1, 1]
// CHECK: %[[OS:.+]] = memref.subview %[[OUT]][%[[COLUMN]]] [32768] [1]
// CHECK: linalg.reduce ins(%[[XS]] : {{.+}}) outs(%[[OS]] : {{.+}}) dimensions = [0]
// NO-SPLIT-LABEL: func.func @few_rows
// NO-SPLIT: omp.parallel
func.func @few_rows(%x: memref<16x524288xf32>, %out: memref<524288xf32>) {
  linalg.reduce ins(%x : memref<16x524288xf32>) outs(%out : memref<524288xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return
}

// -----

// A sum over a batch of 8 NHWC images (2 blocks for workers): the first
// parallel loop (rows of the image) is shared, in tiles of 8 rows (32768
// points each).
// CHECK-LABEL: func.func @batch_of_images
// CHECK: omp.loop_nest (%[[ROW:.+]]) :
// CHECK: memref.subview %{{.+}}[0, %[[ROW]], 0, 0] [8, 8, 64, 64] [1, 1, 1, 1]
// CHECK: linalg.reduce {{.+}} dimensions = [0]
func.func private @threads() -> i32
func.func @batch_of_images(%x: memref<8x64x64x64xf32>, %out: memref<64x64x64xf32>) {
  linalg.reduce ins(%x : memref<8x64x64x64xf32>) outs(%out : memref<64x64x64xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return
}

// -----

// 63 rows (15 blocks) share their columns when there are 16 tiles of them;
// from 64 rows (16 blocks) on, workers share the rows, each with a row of
// partial results.
// CHECK-LABEL: func.func @boundary
// CHECK: omp.parallel
// CHECK-NOT: memref.alloc
// CHECK: dimensions = [0]
// CHECK: memref.alloc(%{{.+}}) {alignment = 64 : i64} : memref<?x524288xf32>
// CHECK: omp.parallel
func.func private @threads() -> i32
func.func @boundary(%few: memref<63x524288xf32>, %many: memref<64x524288xf32>,
                    %out: memref<524288xf32>) {
  linalg.reduce ins(%few : memref<63x524288xf32>) outs(%out : memref<524288xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  linalg.reduce ins(%many : memref<64x524288xf32>) outs(%out : memref<524288xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return
}

// -----

// Columns for one tile of 32768 points, fewer than the rows' 4 blocks: the
// rows go to workers instead. So do 32 rows of 262144 columns: 8 tiles for
// 8 blocks.
// CHECK-LABEL: func.func @few_columns
// CHECK: memref.alloc(%{{.+}}) {alignment = 64 : i64} : memref<?x32768xf32>
// CHECK: omp.parallel
// CHECK: memref.alloc(%{{.+}}) {alignment = 64 : i64} : memref<?x262144xf32>
// CHECK: omp.parallel
func.func private @threads() -> i32
func.func @few_columns(%x: memref<16x32768xf32>, %out: memref<32768xf32>,
                       %y: memref<32x262144xf32>, %wide: memref<262144xf32>) {
  linalg.reduce ins(%x : memref<16x32768xf32>) outs(%out : memref<32768xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  linalg.reduce ins(%y : memref<32x262144xf32>) outs(%wide : memref<262144xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return
}

// -----

// An argmax along the columns of 2048x2048: two results, which workers'
// rows of partial results do not take, so it shares its columns however
// many rows it has, in tiles of at least 1024 columns (strips of 4 KiB a
// row). Without it the op ran on one thread.
// CHECK-LABEL: func.func @column_argmax
// CHECK-SAME: (%[[X:.+]]: memref<2048x2048xf32>, %[[MAX:.+]]: memref<2048xf32>, %[[ARG:.+]]: memref<2048xi32>)
// CHECK-NOT: memref.alloc
// CHECK: omp.parallel
// CHECK: omp.loop_nest (%[[COLUMN:.+]]) : index = (%{{.+}}) to (%{{.+}}) step (%{{.+}}) {
// CHECK: %[[XS:.+]] = memref.subview %[[X]][0, %[[COLUMN]]] [2048, 1024] [1, 1]
// CHECK: %[[MS:.+]] = memref.subview %[[MAX]][%[[COLUMN]]] [1024] [1]
// CHECK: %[[AS:.+]] = memref.subview %[[ARG]][%[[COLUMN]]] [1024] [1]
// CHECK: linalg.generic {{.+}} ins(%[[XS]] : {{.+}}) outs(%[[MS]], %[[AS]] : {{.+}})
// NO-SPLIT-LABEL: func.func @column_argmax
// NO-SPLIT: omp.parallel
func.func @column_argmax(%x: memref<2048x2048xf32>, %max: memref<2048xf32>, %arg: memref<2048xi32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (j)>],
                  iterator_types = ["reduction", "parallel"]}
      ins(%x : memref<2048x2048xf32>) outs(%max, %arg : memref<2048xf32>, memref<2048xi32>) {
  ^bb0(%in: f32, %acc: f32, %idx: i32):
    %r = linalg.index 0 : index
    %ri = arith.index_cast %r : index to i32
    %gt = arith.cmpf ogt, %in, %acc : f32
    %nm = arith.select %gt, %in, %acc : f32
    %ni = arith.select %gt, %ri, %idx : i32
    linalg.yield %nm, %ni : f32, i32
  }
  return
}

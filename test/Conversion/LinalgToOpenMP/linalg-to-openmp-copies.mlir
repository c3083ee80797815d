// RUN: nx-opt %s -split-input-file -nx-linalg-to-openmp | FileCheck %s --enable-var-scope
// RUN: nx-opt %s -split-input-file -nx-linalg-to-openmp -mlir-pass-statistics 2>&1 | FileCheck %s --check-prefix=STATS

// A concatenation's operands, copied into subviews of the result by
// bufferization: each copy is a linalg.copy whose rows the team shares.

// CHECK-LABEL: func.func @concatenation
//  CHECK-SAME: (%[[X:.*]]: memref<512x256xf32>, %[[Y:.*]]: memref<512x256xf32>, %[[OUT:.*]]: memref<512x512xf32>)
//   CHECK-NOT:   memref.copy
//       CHECK:   %[[LEFT:.*]] = memref.subview %[[OUT]][0, 0] [512, 256] [1, 1]
//       CHECK:   omp.parallel {
//       CHECK:     omp.loop_nest (%[[I:.*]]) : index
//       CHECK:       %[[XS:.*]] = memref.subview %[[X]][%[[I]], 0]
//       CHECK:       %[[LS:.*]] = memref.subview %[[LEFT]][%[[I]], 0]
//       CHECK:       linalg.copy ins(%[[XS]] : {{.*}}) outs(%[[LS]] :
//       CHECK:   %[[RIGHT:.*]] = memref.subview %[[OUT]][0, 256] [512, 256] [1, 1]
//       CHECK:   omp.parallel {
//       CHECK:       linalg.copy
//   CHECK-NOT:   memref.copy
// STATS: 2 shared-copies
func.func @concatenation(%x: memref<512x256xf32>, %y: memref<512x256xf32>, %out: memref<512x512xf32>) {
  %left = memref.subview %out[0, 0] [512, 256] [1, 1] : memref<512x512xf32> to memref<512x256xf32, strided<[512, 1]>>
  memref.copy %x, %left : memref<512x256xf32> to memref<512x256xf32, strided<[512, 1]>>
  %right = memref.subview %out[0, 256] [512, 256] [1, 1] : memref<512x512xf32> to memref<512x256xf32, strided<[512, 1], offset: 256>>
  memref.copy %y, %right : memref<512x256xf32> to memref<512x256xf32, strided<[512, 1], offset: 256>>
  return
}

// -----

// A dynamic copy may be large: shared, with the team's if clause on its
// size. One below min-work, and one of a single element, stay memref.copy.

// CHECK-LABEL: func.func @dynamic_and_small
//       CHECK:   omp.parallel if(
//       CHECK:     linalg.copy
//       CHECK:   memref.copy %{{.*}}, %{{.*}} : memref<16x16xf32> to memref<16x16xf32>
//       CHECK:   memref.copy %{{.*}}, %{{.*}} : memref<f32> to memref<f32>
// STATS: 1 shared-copies
func.func @dynamic_and_small(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<16x16xf32>,
                             %d: memref<16x16xf32>, %e: memref<f32>, %f: memref<f32>) {
  memref.copy %a, %b : memref<?x?xf32> to memref<?x?xf32>
  memref.copy %c, %d : memref<16x16xf32> to memref<16x16xf32>
  memref.copy %e, %f : memref<f32> to memref<f32>
  return
}

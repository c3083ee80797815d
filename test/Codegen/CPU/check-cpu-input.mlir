// RUN: nx-opt %s -nx-check-cpu-input | FileCheck %s
// A module without OpenMP ops passes unchanged.

// CHECK-LABEL: func.func @serial
// CHECK: scf.for
func.func @serial(%m: memref<64xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  scf.for %i = %c0 to %c64 step %c1 {
    memref.store %v, %m[%i] : memref<64xf32>
  }
  return
}

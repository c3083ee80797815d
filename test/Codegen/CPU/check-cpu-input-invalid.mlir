// RUN: nx-opt %s -split-input-file -verify-diagnostics -nx-check-cpu-input
// A loop already parallelized with OpenMP is reported at its first OpenMP
// op, and nx-lower-to-cpu, whose first pass this is, stops there.
// RUN: not nx-opt %s -split-input-file -nx-lower-to-cpu 2>&1 | FileCheck %s --check-prefix=PIPELINE
// PIPELINE: error: 'omp.parallel' op is already parallelized with OpenMP

func.func @parallelized(%m: memref<64xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  // expected-error @+1 {{'omp.parallel' op is already parallelized with OpenMP: nx-lower-to-cpu parallelizes loops itself (nx-linalg-to-openmp) and takes the program before that}}
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%c64) step (%c1) {
        memref.store %v, %m[%i] : memref<64xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

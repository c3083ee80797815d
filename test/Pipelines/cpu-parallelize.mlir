// nx-cpu-parallelize, nx-lower-to-cpu's fourth phase: a large parallel
// loop nest shares its outermost loop among nxrt_compute_threads()
// threads; a small one, and everything with parallel=false, stays serial.
// RUN: nx-opt %s --nx-cpu-host-calls --nx-cpu-bufferize | nx-opt --nx-cpu-parallelize | FileCheck %s
// RUN: nx-opt %s --nx-cpu-host-calls --nx-cpu-bufferize \
// RUN:   | nx-opt --pass-pipeline='builtin.module(nx-cpu-parallelize{parallel=false})' \
// RUN:   | FileCheck %s --check-prefix=SERIAL

// CHECK-LABEL: func.func @large
// CHECK: %[[N:.*]] = call @nxrt_compute_threads() : () -> i32
// CHECK: omp.parallel num_threads(%[[N]] : i32)
// CHECK: omp.wsloop
// CHECK: linalg.generic
// CHECK: math.exp
// SERIAL-LABEL: func.func @large
// SERIAL-NOT: omp.
// SERIAL: return
func.func @large(%x: tensor<512x256xf32>) -> tensor<512x256xf32> {
  %y = math.exp %x : tensor<512x256xf32>
  return %y : tensor<512x256xf32>
}

// CHECK-LABEL: func.func @small
// CHECK-NOT: omp.
// CHECK: return
func.func @small(%x: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %y = math.exp %x : tensor<16x16xf32>
  return %y : tensor<16x16xf32>
}

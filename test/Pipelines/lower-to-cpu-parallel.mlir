// Large parallel loop nests fork a team of nxrt_compute_threads() OpenMP
// threads; host calls stay on the calling thread, outside every region.
// RUN: nx-opt %s --pass-pipeline='builtin.module(nx-lower-to-cpu)' | FileCheck %s --enable-var-scope
// RUN: nx-opt %s --pass-pipeline='builtin.module(nx-lower-to-cpu{parallel=false})' | FileCheck %s --enable-var-scope --check-prefix=SERIAL

nx.callback @scale : (tensor<4xf32>) -> tensor<4xf32>

// CHECK-LABEL: llvm.func @loop
// CHECK: llvm.call @nxrt_invoke
// CHECK: %[[N:.*]] = llvm.call @nxrt_compute_threads() : () -> i32
// CHECK: omp.parallel num_threads(%[[N]] : i32) {
// CHECK-NEXT: omp.wsloop {
// CHECK-NEXT: omp.loop_nest (%{{.*}}) : i64 =
// CHECK-NOT: llvm.call
// CHECK: omp.yield
// CHECK: omp.terminator
// CHECK: llvm.return
// SERIAL-LABEL: llvm.func @loop
// SERIAL-NOT: omp.
// SERIAL-NOT: nxrt_compute_threads
// SERIAL: llvm.return
func.func @loop(%x: tensor<4xf32>, %big: tensor<512x256xf32>)
    -> (tensor<4xf32>, tensor<512x256xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %small, %b = scf.for %k = %c0 to %c3 step %c1
      iter_args(%s = %x, %acc = %big) -> (tensor<4xf32>, tensor<512x256xf32>) {
    %s2 = nx.elixir_call @scale(%s) : (tensor<4xf32>) -> tensor<4xf32>
    %acc2 = math.exp %acc : tensor<512x256xf32>
    scf.yield %s2, %acc2 : tensor<4xf32>, tensor<512x256xf32>
  }
  return %small, %b : tensor<4xf32>, tensor<512x256xf32>
}

// Too small to fork: 16x16 elements.
// CHECK-LABEL: llvm.func @small
// CHECK-NOT: omp.
// CHECK: llvm.return
func.func @small(%x: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %e = math.exp %x : tensor<16x16xf32>
  return %e : tensor<16x16xf32>
}

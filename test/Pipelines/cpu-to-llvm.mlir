// nx-cpu-to-llvm, nx-lower-to-cpu's last phase: loops, vectors, buffers,
// host calls (convert-nx-to-llvm) and OpenMP to the LLVM dialect. Nothing of
// another dialect is left; the callback is an nxrt_invoke on the current
// run, the buffers come from libnxrt's allocator, and __nx_init exists.
// RUN: nx-opt %s --pass-pipeline='builtin.module(nx-cpu-host-calls,nx-cpu-bufferize,nx-cpu-library-calls,nx-cpu-parallelize,nx-cpu-codegen)' \
// RUN:   | nx-opt --nx-cpu-to-llvm | FileCheck %s

// CHECK-NOT: func.func
// CHECK-NOT: memref.
// CHECK-NOT: scf.
// CHECK-NOT: vector.
// CHECK-NOT: nx.
// CHECK-LABEL: llvm.func @main
// CHECK: llvm.call @nxrt_run_current()
// CHECK: llvm.call @_mlir_memref_to_llvm_alloc
// CHECK: omp.parallel
// CHECK: llvm.call @nxrt_invoke(
// CHECK-LABEL: llvm.func @__nx_init
// CHECK: llvm.call @nxrt_threads_prepare()
// CHECK: llvm.call @nxrt_heap_prepare(
// CHECK: llvm.call @nxrt_program_add_sites
nx.callback @scale : (tensor<4xf32>) -> tensor<4xf32>

func.func @main(%a: tensor<512x256xf32>, %x: tensor<4xf32>)
    -> (tensor<512x256xf32>, tensor<4xf32>) {
  %q = math.exp %a : tensor<512x256xf32>
  %y = nx.elixir_call @scale(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %q, %y : tensor<512x256xf32>, tensor<4xf32>
}

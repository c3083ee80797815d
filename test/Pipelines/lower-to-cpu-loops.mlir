// Loops allocate nothing per iteration: a loop-carried tensor is updated in
// place (nx-reuse-inputs-as-outputs), and the buffer a host call's result
// lands in is allocated once before the loop (buffer-loop-hoisting).
// RUN: nx-opt %s --pass-pipeline='builtin.module(nx-lower-to-cpu)' | FileCheck %s --enable-var-scope

nx.callback @add_one : (tensor<f32>) -> tensor<f32>

// CHECK-LABEL: llvm.func @add_in_compiled_code
// CHECK: llvm.call @_mlir_memref_to_llvm_alloc
// CHECK: llvm.br ^[[HEADER:bb[0-9]+]](
// CHECK: ^[[HEADER]](
// CHECK-NOT: _mlir_memref_to_llvm_alloc
// CHECK: llvm.return
func.func @add_in_compiled_code(%init: tensor<f32>, %n: index) -> tensor<f32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant dense<1.0> : tensor<f32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<f32>) {
    %next = arith.addf %acc, %one : tensor<f32>
    scf.yield %next : tensor<f32>
  }
  return %r : tensor<f32>
}

// CHECK-LABEL: llvm.func @add_by_the_host
// CHECK: llvm.call @_mlir_memref_to_llvm_alloc
// CHECK: llvm.call @_mlir_memref_to_llvm_alloc
// CHECK: llvm.br ^[[HEADER:bb[0-9]+]](
// CHECK: ^[[HEADER]](
// CHECK-NOT: _mlir_memref_to_llvm_alloc
// CHECK: llvm.call @nxrt_invoke(
// CHECK-NOT: _mlir_memref_to_llvm_alloc
// CHECK: llvm.return
func.func @add_by_the_host(%init: tensor<f32>, %n: index) -> tensor<f32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<f32>) {
    %res = nx.elixir_call @add_one(%acc) : (tensor<f32>) -> tensor<f32>
    %next = bufferization.materialize_in_destination %res in %acc : (tensor<f32>, tensor<f32>) -> tensor<f32>
    scf.yield %next : tensor<f32>
  }
  return %r : tensor<f32>
}

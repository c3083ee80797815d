// RUN: nx-opt %s -nx-strip-transfers | FileCheck %s --enable-var-scope
// The CPU pipeline strips them too: a device=cuda segmented program lowers.
// RUN: nx-opt %s -nx-segment-callbacks=device=cuda -nx-lower-to-cpu | FileCheck %s --check-prefix=CPU

// Every copy is replaced by its operand, wherever it is (loops included);
// everything else, the stages' nx.device included, is untouched.

nx.callback @cb : (tensor<4xf32>) -> tensor<4xf32>

// CHECK-LABEL: func.func @f(
// CHECK-SAME:      %[[X:.+]]: tensor<4xf32>)
// CHECK:         %[[A:.+]] = call @f_stage0(%[[X]])
// CHECK-NEXT:    %[[B:.+]] = nx.elixir_call @cb(%[[A]])
// CHECK-NEXT:    %[[C:.+]] = scf.for {{.+}} iter_args(%[[ACC:.+]] = %[[B]])
// CHECK-NEXT:      %[[D:.+]] = func.call @f_stage1(%[[ACC]], %[[A]])
// CHECK-NEXT:      scf.yield %[[D]]
// CHECK:         return %[[C]]
// CHECK-NOT:     nx.to_
// CHECK-LABEL: func.func private @f_stage0(
// CHECK-SAME:      attributes {nx.device = "cuda"}

// CPU: llvm.func @f(
// CPU: llvm.func @__nx_init(
// CPU-NOT: nx.to_
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> attributes {nx.host_orchestrator} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %0 = nx.to_device %x to "cuda" : tensor<4xf32>
  %1 = call @f_stage0(%0) : (tensor<4xf32>) -> tensor<4xf32>
  %2 = nx.to_host %1 from "cuda" : tensor<4xf32>
  %3 = nx.elixir_call @cb(%2) : (tensor<4xf32>) -> tensor<4xf32>
  %4 = scf.for %i = %c0 to %c2 step %c1 iter_args(%acc = %3) -> tensor<4xf32> {
    %5 = nx.to_device %acc to "cuda" : tensor<4xf32>
    %6 = func.call @f_stage1(%5, %1) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %7 = nx.to_host %6 from "cuda" : tensor<4xf32>
    scf.yield %7 : tensor<4xf32>
  }
  return %4 : tensor<4xf32>
}
func.func private @f_stage0(%arg0: tensor<4xf32>) -> tensor<4xf32> attributes {nx.device = "cuda"} {
  %0 = arith.addf %arg0, %arg0 : tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func private @f_stage1(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>) -> tensor<4xf32> attributes {nx.device = "cuda"} {
  %0 = arith.mulf %arg0, %arg1 : tensor<4xf32>
  return %0 : tensor<4xf32>
}

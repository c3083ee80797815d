// RUN: nx-opt %s | FileCheck %s --enable-var-scope
// RUN: nx-opt %s | nx-opt | FileCheck %s --enable-var-scope
// RUN: nx-opt %s -mlir-print-op-generic | nx-opt | FileCheck %s --enable-var-scope
// RUN: nx-opt %s -cse | FileCheck %s --check-prefix=CSE --enable-var-scope

// CHECK-LABEL: func.func @transfers(
// CHECK-SAME:      %[[X:.+]]: tensor<4xf32>, %[[I:.+]]: i1)
// CHECK-NEXT:    %[[D:.+]] = nx.to_device %[[X]] to "cuda" : tensor<4xf32>
// CHECK-NEXT:    %[[H:.+]] = nx.to_host %[[D]] from "cuda" : tensor<4xf32>
// CHECK-NEXT:    %[[S:.+]] = nx.to_host %[[I]] from "cuda" : i1
// CHECK-NEXT:    return %[[H]], %[[S]]
func.func @transfers(%x: tensor<4xf32>, %i: i1) -> (tensor<4xf32>, i1) {
  %d = nx.to_device %x to "cuda" : tensor<4xf32>
  %h = nx.to_host %d from "cuda" : tensor<4xf32>
  %s = nx.to_host %i from "cuda" : i1
  return %h, %s : tensor<4xf32>, i1
}

// Transfers are pure value copies: duplicates merge, unused ones go away.
// CSE-LABEL: func.func @duplicates(
// CSE-SAME:      %[[X:.+]]: tensor<4xf32>)
// CSE-NEXT:    %[[D:.+]] = nx.to_device %[[X]] to "cuda"
// CSE-NEXT:    return %[[D]], %[[D]]
func.func @duplicates(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %a = nx.to_device %x to "cuda" : tensor<4xf32>
  %b = nx.to_device %x to "cuda" : tensor<4xf32>
  %unused = nx.to_device %x to "tpu" : tensor<4xf32>
  return %a, %b : tensor<4xf32>, tensor<4xf32>
}

// The attributes nx-segment-callbacks writes.
// CHECK-LABEL: func.func @orchestrator(
// CHECK-SAME:      attributes {nx.host_orchestrator}
func.func @orchestrator() attributes {nx.host_orchestrator} {
  return
}

// CHECK-LABEL: func.func private @stage(
// CHECK-SAME:      attributes {nx.device = "cuda"}
func.func private @stage() attributes {nx.device = "cuda"} {
  return
}

// RUN: nx-opt %s -split-input-file -convert-nx-to-custom-call | FileCheck %s --enable-var-scope

// The handle is nxrt.h's encoding: "NXSH", version 1, 3 zero bytes, u32 LE
// length, name bytes. Here "s" (115).
// CHECK-LABEL: func.func @outfeed
// CHECK-SAME: (%[[X:.+]]: tensor<4xf32>, %[[N:.+]]: tensor<i64>)
// CHECK: %[[H:.+]] = arith.constant dense<[78, 88, 83, 72, 1, 0, 0, 0, 1, 0, 0, 0, 115]> : tensor<13xui8>
// CHECK: %{{.+}} = nx.custom_call @exla_beam_outfeed(%[[H]], %[[X]], %[[N]]) {api_version = 4 : i32, backend_config = {}, has_side_effect = true} : (tensor<13xui8>, tensor<4xf32>, tensor<i64>) -> tensor<ui8>
// CHECK-NOT: nx.outfeed
func.func @outfeed(%x: tensor<4xf32>, %n: tensor<i64>) {
  nx.outfeed %x, %n to "s" : tensor<4xf32>, tensor<i64>
  return
}

// -----

// Infeeds thread the 8-byte tag: the first takes 0, each next one the
// previous next-tag (result 0); the payload follows.
// CHECK-LABEL: func.func @infeeds
// CHECK: %[[H0:.+]] = arith.constant dense<[78, 88, 83, 72, 1, 0, 0, 0, 7, 0, 0, 0, 98, 97, 116, 99, 104, 101, 115]> : tensor<19xui8>
// CHECK: %[[T0:.+]] = arith.constant dense<0> : tensor<8xui8>
// CHECK: %[[A:.+]]:3 = nx.custom_call @exla_beam_infeed(%[[H0]], %[[T0]]) {api_version = 4 : i32, backend_config = {}, has_side_effect = true} : (tensor<19xui8>, tensor<8xui8>) -> (tensor<8xui8>, tensor<8x4xf32>, tensor<i64>)
// CHECK: %[[H1:.+]] = arith.constant dense<[78, 88, 83, 72, 1, 0, 0, 0, 7, 0, 0, 0, 98, 97, 116, 99, 104, 101, 115]> : tensor<19xui8>
// CHECK: %[[B:.+]]:2 = nx.custom_call @exla_beam_infeed(%[[H1]], %[[A]]#0) {api_version = 4 : i32, backend_config = {}, has_side_effect = true} : (tensor<19xui8>, tensor<8xui8>) -> (tensor<8xui8>, tensor<f32>)
// CHECK: return %[[A]]#1, %[[A]]#2, %[[B]]#1
func.func @infeeds() -> (tensor<8x4xf32>, tensor<i64>, tensor<f32>) {
  %x, %n = nx.infeed from "batches" : tensor<8x4xf32>, tensor<i64>
  %y = nx.infeed from "batches" : tensor<f32>
  return %x, %n, %y : tensor<8x4xf32>, tensor<i64>, tensor<f32>
}

// -----

// An outfeed of no tensors passes the stream handle only.
// CHECK-LABEL: func.func @empty_outfeed
// CHECK: %[[H:.+]] = arith.constant dense<{{.*}}> : tensor<{{[0-9]+}}xui8>
// CHECK: nx.custom_call @{{.+}}(%[[H]])
func.func @empty_outfeed() {
  nx.outfeed to "done"
  return
}

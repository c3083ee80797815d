// RUN: nx-opt %s -convert-nx-to-custom-call="stream-name=main" | FileCheck %s --enable-var-scope

// Without a stream attribute the stream-name option is used ("main").
// CHECK-LABEL: func.func @default_stream
// CHECK: %[[H:.+]] = arith.constant dense<[78, 88, 83, 72, 1, 0, 0, 0, 4, 0, 0, 0, 109, 97, 105, 110]> : tensor<16xui8>
// CHECK: nx.custom_call @exla_beam_outfeed(%[[H]], %{{.+}}) {api_version = 4 : i32, backend_config = {}, has_side_effect = true} : (tensor<16xui8>, tensor<2xf64>) -> tensor<ui8>
// CHECK: %[[T:.+]] = arith.constant dense<0> : tensor<8xui8>
// CHECK: nx.custom_call @exla_beam_infeed(%{{.+}}, %[[T]]) {api_version = 4 : i32, backend_config = {}, has_side_effect = true} : (tensor<16xui8>, tensor<8xui8>) -> (tensor<8xui8>, tensor<2xf64>)
// An explicit stream attribute wins over the option ("s").
// CHECK: arith.constant dense<[78, 88, 83, 72, 1, 0, 0, 0, 1, 0, 0, 0, 115]> : tensor<13xui8>
func.func @default_stream(%x: tensor<2xf64>) -> tensor<2xf64> {
  nx.outfeed %x : tensor<2xf64>
  %y = nx.infeed : tensor<2xf64>
  nx.outfeed %y to "s" : tensor<2xf64>
  return %y : tensor<2xf64>
}

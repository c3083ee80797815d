// nx-cpu-host-calls, nx-lower-to-cpu's first phase: callbacks get ids,
// entry points the C interface, and a block the runtime has a kernel for
// becomes a custom call to it (with lower-blocks=false, its default region).
// RUN: nx-opt %s --nx-cpu-host-calls | FileCheck %s
// RUN: nx-opt %s --pass-pipeline='builtin.module(nx-cpu-host-calls{lower-blocks=false})' | FileCheck %s --check-prefix=INLINE

// CHECK: module attributes {nx.callback_ids = {scale = 0 : i64}}
// CHECK: nx.callback @scale {{.*}} attributes {id = 0 : i64}
nx.callback @scale : (tensor<4xf32>) -> tensor<4xf32>

// CHECK-LABEL: func.func @main
// CHECK-SAME: llvm.emit_c_interface
// CHECK: nx.custom_call @qr_cpu_custom_call_f32(%arg0) {api_version = 4 : i32, backend_config = {mode = "reduced"}}
// CHECK: nx.elixir_call @scale
// INLINE-LABEL: func.func @main
// INLINE-NOT: nx.block
// INLINE-NOT: nx.custom_call
// INLINE: nx.elixir_call @scale
func.func @main(%m: tensor<4x3xf32>, %x: tensor<4xf32>)
    -> (tensor<4x3xf32>, tensor<3x3xf32>, tensor<4xf32>) {
  %q, %r = nx.block "Nx.Block.LinAlg.QR" {mode = "reduced"} (%m)
      : (tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<3x3xf32>) {
  ^bb0(%a: tensor<4x3xf32>):
    %zr = arith.constant dense<0.0> : tensor<3x3xf32>
    nx.yield %a, %zr : tensor<4x3xf32>, tensor<3x3xf32>
  }
  %y = nx.elixir_call @scale(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %q, %r, %y : tensor<4x3xf32>, tensor<3x3xf32>, tensor<4xf32>
}

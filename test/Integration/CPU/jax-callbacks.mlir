// A program shaped as JAX emits it (generic form with properties, callbacks
// as xla_ffi_python_cpu_callback with their index in mhlo.backend_config, an
// ordered callback threading a token) runs on nxrt once
// nx-import-stablehlo{raise-callbacks} has raised its callbacks; the host
// binds JAX's callback indices to names with jax-callback-names.
// RUN: nx-opt %s --allow-unregistered-dialect \
// RUN:   "-nx-import-stablehlo=raise-callbacks jax-callback-names=test.add_sub,nx.debug.print,nx.debug.print.i64,nx.debug.identity" -o %t.mlir
// RUN: nx-runner %t.mlir --entry=main --callbacks=%nx_test_callbacks \
// RUN:   --input='[1, 2, 3]:tensor<3xf32>' --input='[10, 20, 30]:tensor<3xf32>' --input='[5]:tensor<1xi64>' \
// RUN:   | FileCheck %s --enable-var-scope

// The ordered callbacks print in program order, then the results: the pure
// callback's sum and difference, scaled by the compute after it.
// CHECK: tensor<3xf32> = [11, 22, 33]
// CHECK-NEXT: tensor<1xi64> = [5]
// CHECK-NEXT: result #0: tensor<3xf32> = [22, 44, 66]
// CHECK-NEXT: result #1: tensor<3xf32> = [-9, -18, -27]
// CHECK-NOT: {{.}}

// JAX's entry function with ordered effects takes and returns the token;
// nx-lower-to-cpu drops it (nx-erase-tokens), so the host passes data only.
// The ordered callback with results runs in program order between the two
// prints.
// RUN: nx-runner %t.mlir --entry=with_token --callbacks=%nx_test_callbacks \
// RUN:   --input='[1, 2, 3]:tensor<3xf32>' --input='[5]:tensor<1xi64>' \
// RUN:   | FileCheck %s --enable-var-scope --check-prefix=TOKEN
// TOKEN: tensor<1xi64> = [5]
// TOKEN-NEXT: tensor<3xf32> = [1, 2, 3]
// TOKEN-NEXT: result #0: tensor<3xf32> = [1, 2, 3]
// TOKEN-NOT: {{.}}
func.func public @with_token(%t0: !stablehlo.token {jax.token = true}, %x: tensor<3xf32>, %n: tensor<1xi64>) -> (!stablehlo.token {jax.token = true}, tensor<3xf32>) {
  %t1 = "stablehlo.custom_call"(%t0, %n) <{api_version = 1 : i32, backend_config = "", call_target_name = "xla_ffi_python_cpu_callback", has_side_effect = true}> {mhlo.backend_config = {index = 2 : ui64}} : (!stablehlo.token, tensor<1xi64>) -> !stablehlo.token
  %t2, %y = "stablehlo.custom_call"(%t1, %x) <{api_version = 1 : i32, backend_config = "", call_target_name = "xla_ffi_python_cpu_callback", has_side_effect = true}> {mhlo.backend_config = {index = 3 : ui64}} : (!stablehlo.token, tensor<3xf32>) -> (!stablehlo.token, tensor<3xf32>)
  %t3 = "stablehlo.custom_call"(%t2, %y) <{api_version = 1 : i32, backend_config = "", call_target_name = "xla_ffi_python_cpu_callback", has_side_effect = true}> {mhlo.backend_config = {index = 1 : ui64}} : (!stablehlo.token, tensor<3xf32>) -> !stablehlo.token
  return %t3, %y : !stablehlo.token, tensor<3xf32>
}

func.func public @main(%x: tensor<3xf32>, %y: tensor<3xf32>, %n: tensor<1xi64>) -> (tensor<3xf32>, tensor<3xf32>) {
  %sum, %diff = "stablehlo.custom_call"(%x, %y) <{api_version = 1 : i32, backend_config = "", call_target_name = "xla_ffi_python_cpu_callback", has_side_effect = false, operand_layouts = [dense<0> : tensor<1xindex>, dense<0> : tensor<1xindex>], result_layouts = [dense<0> : tensor<1xindex>, dense<0> : tensor<1xindex>]}> {mhlo.backend_config = {index = 0 : ui64}} : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  %t0 = "stablehlo.create_token"() : () -> !stablehlo.token
  %t1 = "stablehlo.custom_call"(%t0, %sum) <{api_version = 1 : i32, backend_config = "", call_target_name = "xla_ffi_python_cpu_callback", has_side_effect = true, operand_layouts = [dense<> : tensor<0xindex>, dense<0> : tensor<1xindex>], result_layouts = [dense<> : tensor<0xindex>]}> {mhlo.backend_config = {index = 1 : ui64}} : (!stablehlo.token, tensor<3xf32>) -> !stablehlo.token
  %t2 = "stablehlo.custom_call"(%t1, %n) <{api_version = 1 : i32, backend_config = "", call_target_name = "xla_ffi_python_cpu_callback", has_side_effect = true, operand_layouts = [dense<> : tensor<0xindex>, dense<0> : tensor<1xindex>], result_layouts = [dense<> : tensor<0xindex>]}> {mhlo.backend_config = {index = 2 : ui64}} : (!stablehlo.token, tensor<1xi64>) -> !stablehlo.token
  %twice = arith.addf %sum, %sum : tensor<3xf32>
  return %twice, %diff : tensor<3xf32>, tensor<3xf32>
}

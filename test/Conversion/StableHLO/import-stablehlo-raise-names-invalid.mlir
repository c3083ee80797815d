// RUN: nx-opt %s --allow-unregistered-dialect "-nx-import-stablehlo=raise-callbacks jax-callback-names=first,,third" -verify-diagnostics

func.func @empty_name(%x: tensor<2xf32>) {
  // expected-error @+1 {{'nx.custom_call' op cannot be raised: jax-callback-names gives callback index 1 an empty name}}
  "stablehlo.custom_call"(%x) {backend_config = "", call_target_name = "xla_ffi_python_cpu_callback", has_side_effect = true, mhlo.backend_config = {index = 1 : ui64}} : (tensor<2xf32>) -> ()
  return
}

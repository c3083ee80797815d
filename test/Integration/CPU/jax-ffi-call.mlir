// A module as JAX prints jax.ffi.ffi_call("test_ffi.rms_norm", ...)(x,
// eps=np.float32(1e-5)) lowered for CPU: a generic stablehlo.custom_call
// with api_version = 4 and a dictionary backend_config. nx-import-stablehlo
// turns it into nx.custom_call, and the XLA FFI handler, registered as its
// library loads, runs unchanged. The result is checked against NumPy.
//
// RUN: nx-opt %s --allow-unregistered-dialect --nx-import-stablehlo -o %t.mlir
// RUN: FileCheck %s --check-prefix=IMPORTED < %t.mlir
// IMPORTED: nx.custom_call @test_ffi.rms_norm(%{{.*}}) {api_version = 4 : i32, backend_config = {eps = 9.99999974E-6 : f32}
// RUN: nx-runner %t.mlir --ffi-library=%nx_test_ffi_handlers \
// RUN:   --input='2x4xf32=1 2 3 4 -1 0 1 2' --output=%t.npy | FileCheck %s
// CHECK: result #0: tensor<2x4xf32>
// RUN: %numpy_python -c "import numpy as np; x = np.array([[1,2,3,4],[-1,0,1,2]], np.float32); \
// RUN:   y = x / np.sqrt((x * x).mean(-1, keepdims=True) + np.float32(1e-5)); \
// RUN:   assert np.allclose(np.load('%t.npy'), y, rtol=1e-6), np.load('%t.npy'); print('ok')" \
// RUN:   | FileCheck %s --check-prefix=NUMPY
// NUMPY: ok
// REQUIRES: numpy

module @jit_rms_norm attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x4xf32> {mhlo.layout_mode = "default"}) -> (tensor<2x4xf32> {jax.result_info = "result", mhlo.layout_mode = "default"}) {
    %0 = "stablehlo.custom_call"(%arg0) <{api_version = 4 : i32, backend_config = {eps = 9.99999974E-6 : f32}, call_target_name = "test_ffi.rms_norm", operand_layouts = [dense<[1, 0]> : tensor<2xindex>], result_layouts = [dense<[1, 0]> : tensor<2xindex>]}> {mhlo.frontend_attributes = {}} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    return %0 : tensor<2x4xf32>
  }
}

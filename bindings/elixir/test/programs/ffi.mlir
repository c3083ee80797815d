// XLA FFI handlers called from Elixir (ffi_test.exs): the test library
// test/Integration/CPU/lib/TestFfiHandlers.c, loaded with
// NxRuntime.load_ffi_library.

func.func @rms_norm(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %y = nx.custom_call @test_ffi.rms_norm(%x) {api_version = 4 : i32, backend_config = {eps = 1.0e-5 : f32}} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  return %y : tensor<2x4xf32>
}

func.func @negate(%x: tensor<2xf32>) -> tensor<2xf32> {
  %y = nx.custom_call @test_ffi.elixir_negate(%x) {api_version = 4 : i32, backend_config = {}} : (tensor<2xf32>) -> tensor<2xf32>
  return %y : tensor<2xf32>
}

func.func @fails(%x: tensor<2xf32>) -> tensor<2xf32> {
  %y = nx.custom_call @test_ffi.fail(%x) {api_version = 4 : i32, has_side_effect = true, backend_config = {}} : (tensor<2xf32>) -> tensor<2xf32>
  return %y : tensor<2xf32>
}

// The program test/Integration/AOT/ffi-host/host.c links, compiled ahead of
// time: an XLA FFI handler's call, with its attribute, and one that fails.
func.func @rms_norm(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %y = nx.custom_call @test_ffi.rms_norm(%x) {api_version = 4 : i32, backend_config = {eps = 1.0e-5 : f32}} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  return %y : tensor<2x4xf32>
}

func.func @fails(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %y = nx.custom_call @test_ffi.fail(%x) {api_version = 4 : i32, has_side_effect = true, backend_config = {}} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  return %y : tensor<2x4xf32>
}

// RUN: nx-opt %s -split-input-file --load-pass-plugin=%nx_libs/libNxTestBlockPlugin.so -convert-nx-to-custom-call -verify-diagnostics

func.func @unsupported_convert(%x: tensor<4xui8>) -> tensor<4xui8> {
  // expected-error @+1 {{'nx.block' op cannot convert input #0 from 'ui8' to 'f32' for custom call "test_to_f32"}}
  %r = nx.block "Test.Block.ToF32" {} (%x) : (tensor<4xui8>) -> tensor<4xui8> {
  ^bb0(%v: tensor<4xui8>):
    nx.yield %v : tensor<4xui8>
  }
  return %r : tensor<4xui8>
}

// -----

func.func @bad_arity(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'nx.block' op block lowering for "Test.Block.BadArity" gave 2 input element types, expected 1}}
  %r = nx.block "Test.Block.BadArity" {} (%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%v: tensor<4xf32>):
    nx.yield %v : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @not_a_tensor(%x: f32) -> f32 {
  // expected-error @+1 {{'nx.block' op cannot lower to custom call "test_to_f32": input #0 has type 'f32', expected a ranked tensor}}
  %r = nx.block "Test.Block.ToF32" {} (%x) : (f32) -> f32 {
  ^bb0(%v: f32):
    nx.yield %v : f32
  }
  return %r : f32
}

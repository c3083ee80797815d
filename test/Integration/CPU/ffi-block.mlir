// A native block kernel that is an XLA FFI handler: a block lowering
// registered by a plugin maps the kind Test.Block.RmsNorm to the handler
// test_ffi.rms_norm, and the custom call it becomes binds to the handler
// when the program runs. Without the handler library, the default region
// would have to run instead: the block's result differs from the handler's
// (the region adds eps after the square root), which shows which ran.
// Plugins cannot be loaded into instrumented tools.
// UNSUPPORTED: sanitizer
// RUN: nx-opt %s --load-pass-plugin=%nx_libs/libNxTestBlockPlugin.so -convert-nx-to-custom-call -o %t.mlir
// RUN: FileCheck %s --check-prefix=LOWERED < %t.mlir
// LOWERED: nx.custom_call @test_ffi.rms_norm(%{{.*}}) {api_version = 4 : i32, backend_config = {eps = 1.000000e+00 : f32}}
// RUN: nx-runner %t.mlir --ffi-library=%nx_test_ffi_handlers --input='1x4xf32=1 1 1 1' | FileCheck %s --check-prefix=HANDLER
// 1 / sqrt(1 + 1) = 0.7071...
// HANDLER: result #0: tensor<1x4xf32> = {{\[\[}}0.707106{{[0-9]*}}, 0.707106{{[0-9]*}}, 0.707106{{[0-9]*}}, 0.707106{{[0-9]*}}]]
// RUN: nx-runner %s --input='1x4xf32=1 1 1 1' | FileCheck %s --check-prefix=REGION
// 1 / (sqrt(1) + 1) = 0.5
// REGION: result #0: tensor<1x4xf32> = {{\[\[}}0.5, 0.5, 0.5, 0.5]]

func.func @main(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  %r = nx.block "Test.Block.RmsNorm" {eps = 1.0 : f32} (%x) : (tensor<1x4xf32>) -> tensor<1x4xf32> {
  ^bb0(%a: tensor<1x4xf32>):
    // x / (sqrt(mean(x^2)) + eps), a stand-in default implementation.
    %sq = arith.mulf %a, %a : tensor<1x4xf32>
    %init = arith.constant dense<0.0> : tensor<1xf32>
    %sum = linalg.reduce ins(%sq : tensor<1x4xf32>) outs(%init : tensor<1xf32>) dimensions = [1]
      (%in: f32, %acc: f32) {
        %s = arith.addf %in, %acc : f32
        linalg.yield %s : f32
      }
    %n = arith.constant dense<4.0> : tensor<1xf32>
    %mean = arith.divf %sum, %n : tensor<1xf32>
    %root = math.sqrt %mean : tensor<1xf32>
    %eps = arith.constant dense<1.0> : tensor<1xf32>
    %den = arith.addf %root, %eps : tensor<1xf32>
    %e = tensor.empty() : tensor<1x4xf32>
    %b = linalg.broadcast ins(%den : tensor<1xf32>) outs(%e : tensor<1x4xf32>) dimensions = [1]
    %y = arith.divf %a, %b : tensor<1x4xf32>
    nx.yield %y : tensor<1x4xf32>
  }
  return %r : tensor<1x4xf32>
}

// A plugin registers block lowerings into the registry shared through
// libNxBlockLowering.so, in nx-opt and in Debian's upstream mlir-opt.
// Upstream mlir-opt cannot load instrumented plugins.
// UNSUPPORTED: sanitizer
// RUN: nx-opt %s -split-input-file --load-pass-plugin=%nx_libs/libNxTestBlockPlugin.so -convert-nx-to-custom-call | FileCheck %s --enable-var-scope
// RUN: mlir-opt %s -split-input-file --load-dialect-plugin=%nx_plugin --load-pass-plugin=%nx_plugin --load-pass-plugin=%nx_libs/libNxTestBlockPlugin.so --pass-pipeline="builtin.module(convert-nx-to-custom-call)" | FileCheck %s --enable-var-scope
// RUN: mlir-opt %s -split-input-file --load-dialect-plugin=%nx_plugin --load-pass-plugin=%nx_plugin --load-pass-plugin=%nx_libs/libNxTestBlockPlugin.so --pass-pipeline="builtin.module(convert-nx-to-custom-call{platform=cuda})" | FileCheck %s --enable-var-scope --check-prefix=CUDA
// Without the plugin the block is inlined.
// RUN: nx-opt %s -split-input-file -convert-nx-to-custom-call | FileCheck %s --enable-var-scope --check-prefix=NOPLUGIN

// CHECK-LABEL: func.func @scale_f32
// CHECK-SAME: (%[[X:.+]]: tensor<4xf32>)
// CHECK: %[[R:.+]] = nx.custom_call @test_scale_f32(%[[X]]) {api_version = 4 : i32, backend_config = {factor = 3.000000e+00 : f32, plugin = "NxTestBlockPlugin"}} : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: return %[[R]]
// CUDA-LABEL: func.func @scale_f32
// CUDA: nx.custom_call @test_scale_cuda(%{{.+}}) {api_version = 4 : i32, backend_config = {factor = 3.000000e+00 : f32, plugin = "NxTestBlockPlugin"}} : (tensor<4xf32>) -> tensor<4xf32>
// NOPLUGIN-LABEL: func.func @scale_f32
// NOPLUGIN: arith.mulf
// NOPLUGIN-NOT: nx.custom_call
func.func @scale_f32(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = nx.block "Test.Block.Scale" {factor = 3.0 : f32} (%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%v: tensor<4xf32>):
    %m = arith.mulf %v, %v : tensor<4xf32>
    nx.yield %m : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @scale_bf16
// CHECK-SAME: (%[[X:.+]]: tensor<4xbf16>)
// CHECK: %[[E:.+]] = arith.extf %[[X]] : tensor<4xbf16> to tensor<4xf32>
// CHECK: %[[R:.+]] = nx.custom_call @test_scale_f32(%[[E]]) {api_version = 4 : i32, backend_config = {plugin = "NxTestBlockPlugin"}} : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: %[[T:.+]] = arith.truncf %[[R]] : tensor<4xf32> to tensor<4xbf16>
// CHECK: return %[[T]]
func.func @scale_bf16(%x: tensor<4xbf16>) -> tensor<4xbf16> {
  %r = nx.block "Test.Block.Scale" {} (%x) : (tensor<4xbf16>) -> tensor<4xbf16> {
  ^bb0(%v: tensor<4xbf16>):
    nx.yield %v : tensor<4xbf16>
  }
  return %r : tensor<4xbf16>
}

// -----

// Integer inputs: sitofp before, fptosi after.
// CHECK-LABEL: func.func @to_f32
// CHECK-SAME: (%[[X:.+]]: tensor<4xi32>, %[[Y:.+]]: tensor<4xf64>)
// CHECK: %[[A:.+]] = arith.sitofp %[[X]] : tensor<4xi32> to tensor<4xf32>
// CHECK: %[[B:.+]] = arith.truncf %[[Y]] : tensor<4xf64> to tensor<4xf32>
// CHECK: %[[R:.+]] = nx.custom_call @test_to_f32(%[[A]], %[[B]]) {api_version = 4 : i32, backend_config = {}} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK: %[[C:.+]] = arith.fptosi %[[R]] : tensor<4xf32> to tensor<4xi32>
// CHECK: return %[[C]]
func.func @to_f32(%x: tensor<4xi32>, %y: tensor<4xf64>) -> tensor<4xi32> {
  %r = nx.block "Test.Block.ToF32" {} (%x, %y) : (tensor<4xi32>, tensor<4xf64>) -> tensor<4xi32> {
  ^bb0(%v: tensor<4xi32>, %w: tensor<4xf64>):
    nx.yield %v : tensor<4xi32>
  }
  return %r : tensor<4xi32>
}

// RUN: nx-runner %s --entry=feeds_compute --callbacks=%nx_test_callbacks \
// RUN:   --input='[1, 2, 3, 4]:tensor<4xf32>' \
// RUN:   | FileCheck %s --enable-var-scope --check-prefix=FEEDS
// RUN: nx-runner %s --entry=multi_result --callbacks=%nx_test_callbacks \
// RUN:   --input='[1, 5, 3, 2]:tensor<4xf32>' --input='[10, 20, 30, 40]:tensor<4xf32>' \
// RUN:   | FileCheck %s --enable-var-scope --check-prefix=MULTI
// RUN: nx-runner %s --entry=static_args --callbacks=%nx_test_callbacks \
// RUN:   --input='[1, 2]:tensor<2xf64>' \
// RUN:   | FileCheck %s --enable-var-scope --check-prefix=STATIC
// The same program with the callbacks served by bridge dispatcher threads.
// RUN: nx-runner %s --entry=multi_result --callbacks=%nx_test_callbacks --dispatch=bridge \
// RUN:   --input='[1, 5, 3, 2]:tensor<4xf32>' --input='[10, 20, 30, 40]:tensor<4xf32>' \
// RUN:   | FileCheck %s --enable-var-scope --check-prefixes=MULTI,BRIDGE
// RUN: nx-runner %s --entry=static_args --callbacks=%nx_test_callbacks --dispatch=bridge \
// RUN:   --input='[1, 2]:tensor<2xf64>' \
// RUN:   | FileCheck %s --enable-var-scope --check-prefixes=STATIC,BRIDGE

nx.callback @test.scale : (tensor<4xf32>) -> tensor<4xf32>
nx.callback @test.scale64 : (tensor<2xf64>) -> tensor<2xf64>
nx.callback @test.add_sub : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
nx.callback @test.stats : (tensor<4xf32>) -> (tensor<f32>, tensor<f32>, tensor<i64>)
nx.callback @test.describe : (tensor<2xf64>) -> ()

// The host result feeds later device compute: (x * 3 + 1) + x, then the host
// again: ((x * 3 + 1) + x) * 0.5.
// FEEDS: result #0: tensor<4xf32> = [2.5, 4.5, 6.5, 8.5]
func.func @feeds_compute(%x: tensor<4xf32>) -> tensor<4xf32> {
  %s = nx.elixir_call @test.scale(%x) static_args {factor = 3.0 : f64, offset = 1 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  %sum = arith.addf %s, %x : tensor<4xf32>
  %h = nx.elixir_call @test.scale(%sum) static_args {factor = 0.5 : f64} : (tensor<4xf32>) -> tensor<4xf32>
  return %h : tensor<4xf32>
}

// Several callbacks, several results each, results of mixed types.
// MULTI: result #0: tensor<4xf32> = [11, 25, 33, 42]
// MULTI-NEXT: result #1: tensor<4xf32> = [-9, -15, -27, -38]
// MULTI-NEXT: result #2: tensor<f32> = 111
// MULTI-NEXT: result #3: tensor<f32> = 42
// MULTI-NEXT: result #4: tensor<i64> = 3
func.func @multi_result(%a: tensor<4xf32>, %b: tensor<4xf32>)
    -> (tensor<4xf32>, tensor<4xf32>, tensor<f32>, tensor<f32>, tensor<i64>) {
  %sum, %diff = nx.elixir_call @test.add_sub(%a, %b) : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  %total, %max, %argmax = nx.elixir_call @test.stats(%sum) : (tensor<4xf32>) -> (tensor<f32>, tensor<f32>, tensor<i64>)
  return %sum, %diff, %total, %max, %argmax : tensor<4xf32>, tensor<4xf32>, tensor<f32>, tensor<f32>, tensor<i64>
}

// static_args reach the callback whole, with their types (a dictionary
// attribute keeps its entries sorted by name).
// STATIC: describe @test.describe (6 static args)
// STATIC-NEXT:   count = 7 : i64
// STATIC-NEXT:   enabled = true
// STATIC-NEXT:   factor = 2.5 : f64
// STATIC-NEXT:   mode = "fast"
// STATIC-NEXT:   nested = {axis = -1 : i64, name = "inner"}
// STATIC-NEXT:   sizes = [1 : i64, 2 : i64, 3 : i64]
// STATIC-NEXT: result #0: tensor<2xf64> = [3.75, 5.75]
func.func @static_args(%x: tensor<2xf64>) -> tensor<2xf64> {
  nx.elixir_call @test.describe(%x) static_args {factor = 2.5 : f64, count = 7 : i64, mode = "fast", enabled = true, sizes = [1, 2, 3], nested = {axis = -1 : i64, name = "inner"}} : (tensor<2xf64>) -> ()
  %y = nx.elixir_call @test.scale64(%x) static_args {factor = 2.0 : f64, offset = 1 : i64} : (tensor<2xf64>) -> tensor<2xf64>
  %two = arith.constant dense<0.75> : tensor<2xf64>
  %z = arith.addf %y, %two : tensor<2xf64>
  return %z : tensor<2xf64>
}

// Both bridge runs make two callback calls, all through the dispatcher.
// BRIDGE: bridge: served 2 callback request(s)

// The same compiled program run from 8 threads at once, 25 times each, with
// host callbacks in the loop: every run must produce the first run's results
// (nx-runner compares them all and fails otherwise).
// RUN: nx-runner %s --callbacks=%nx_test_callbacks --threads=8 --repeat=25 \
// RUN:   --input='[[1, 2, 3, 4], [5, 6, 7, 8]]:tensor<2x4xf32>' --input='[0.5, 1, 2, 4]:tensor<4xf32>' \
// RUN:   | FileCheck %s --enable-var-scope
// RUN: nx-runner %s --callbacks=%nx_test_callbacks --threads=8 --repeat=25 --dispatch=bridge --dispatch-threads=3 \
// RUN:   --input='[[1, 2, 3, 4], [5, 6, 7, 8]]:tensor<2x4xf32>' --input='[0.5, 1, 2, 4]:tensor<4xf32>' \
// RUN:   | FileCheck %s --enable-var-scope --check-prefixes=CHECK,BRIDGE

nx.callback @test.scale : (tensor<4xf32>) -> tensor<4xf32>
nx.callback @test.add_sub : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
nx.callback @test.stats : (tensor<4xf32>) -> (tensor<f32>, tensor<f32>, tensor<i64>)
nx.callback @test.check_positive : (tensor<4xf32>) -> ()

// x = m[0] + m[1] = [6, 8, 10, 12]; s = 2x + 1 = [13, 17, 21, 25];
// (s + w, s - w) = ([13.5, 18, 23, 29], [12.5, 16, 19, 21]);
// stats(sum) = (83.5, 29, 3); r = sum * diff.
// CHECK: result #0: tensor<4xf32> = [168.75, 288, 437, 609]
// CHECK-NEXT: result #1: tensor<f32> = 83.5
// CHECK-NEXT: result #2: tensor<f32> = 29
// CHECK-NEXT: result #3: tensor<i64> = 3
// CHECK-NEXT: all 200 runs (8 threads x 25) produced identical results
// Four callback requests per run go through the bridge.
// BRIDGE-NEXT: bridge: served 800 callback request(s)
func.func @main(%m: tensor<2x4xf32>, %w: tensor<4xf32>)
    -> (tensor<4xf32>, tensor<f32>, tensor<f32>, tensor<i64>) {
  %r0 = tensor.extract_slice %m[0, 0] [1, 4] [1, 1] : tensor<2x4xf32> to tensor<4xf32>
  %r1 = tensor.extract_slice %m[1, 0] [1, 4] [1, 1] : tensor<2x4xf32> to tensor<4xf32>
  %x = arith.addf %r0, %r1 : tensor<4xf32>
  %s = nx.elixir_call @test.scale(%x) static_args {factor = 2.0 : f64, offset = 1 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  %sc = nx.io_callback @test.check_positive(%s) : tensor<4xf32>
  %sum, %diff = nx.elixir_call @test.add_sub(%sc, %w) : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  %total, %max, %argmax = nx.elixir_call @test.stats(%sum) : (tensor<4xf32>) -> (tensor<f32>, tensor<f32>, tensor<i64>)
  %r = arith.mulf %sum, %diff : tensor<4xf32>
  return %r, %total, %max, %argmax : tensor<4xf32>, tensor<f32>, tensor<f32>, tensor<i64>
}

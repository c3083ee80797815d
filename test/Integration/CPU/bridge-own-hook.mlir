// A callback library that binds most of its callbacks inline and one for
// bridge dispatch, with a bridge hook of its own that serves that one and
// refuses every other name. In bridge mode nx-runner routes the library's
// inline handlers through the bridge as well: its dispatcher threads serve
// them, and the hook still receives only the library's own callback. Both
// modes give the same results.
// RUN: nx-runner %s --entry=mixed --callbacks=%nx_test_own_hook \
// RUN:   --input='[1, 2, 3]:tensor<3xf32>' \
// RUN:   | FileCheck %s --enable-var-scope --check-prefixes=MIXED,MIXED-INLINE
// RUN: nx-runner %s --entry=mixed --callbacks=%nx_test_own_hook --dispatch=bridge \
// RUN:   --input='[1, 2, 3]:tensor<3xf32>' \
// RUN:   | FileCheck %s --enable-var-scope --check-prefixes=MIXED,MIXED-BRIDGE
//
// From four threads, with more than one dispatcher thread.
// RUN: nx-runner %s --entry=pipeline --callbacks=%nx_test_own_hook --dispatch=bridge \
// RUN:   --dispatch-threads=2 --threads=4 --repeat=5 --input='[1, 2, 3]:tensor<3xf32>' \
// RUN:   | FileCheck %s --enable-var-scope --check-prefix=PIPELINE

nx.callback @test.own.negate : (tensor<3xf32>) -> tensor<3xf32>
nx.callback @test.own.square : (tensor<3xf32>) -> tensor<3xf32>
nx.callback @test.own.remote : (tensor<3xf32>) -> tensor<3xf32>
nx.callback @test.own.hook_requests : (tensor<3xf32>) -> tensor<i64>

// -x, squared, + 100 by the hook; then how many requests the hook has had
// (only the one of @test.own.remote). Bridge mode served the other three.
// MIXED: result #0: tensor<3xf32> = [101, 104, 109]
// MIXED-NEXT: result #1: tensor<i64> = 1
// MIXED-INLINE-NOT: bridge:
// MIXED-BRIDGE-NEXT: bridge: served 3 callback request(s)
func.func @mixed(%x: tensor<3xf32>) -> (tensor<3xf32>, tensor<i64>) {
  %n = nx.elixir_call @test.own.negate(%x) : (tensor<3xf32>) -> tensor<3xf32>
  %s = nx.elixir_call @test.own.square(%n) : (tensor<3xf32>) -> tensor<3xf32>
  %r = nx.elixir_call @test.own.remote(%s) : (tensor<3xf32>) -> tensor<3xf32>
  %c = nx.elixir_call @test.own.hook_requests(%r) : (tensor<3xf32>) -> tensor<i64>
  return %r, %c : tensor<3xf32>, tensor<i64>
}

// Twenty runs, two routed calls each; the hook answers the other twenty.
// PIPELINE: result #0: tensor<3xf32> = [101, 104, 109]
// PIPELINE-NEXT: all 20 runs (4 threads x 5) produced identical results
// PIPELINE-NEXT: bridge: served 40 callback request(s)
func.func @pipeline(%x: tensor<3xf32>) -> tensor<3xf32> {
  %n = nx.elixir_call @test.own.negate(%x) : (tensor<3xf32>) -> tensor<3xf32>
  %s = nx.elixir_call @test.own.square(%n) : (tensor<3xf32>) -> tensor<3xf32>
  %r = nx.elixir_call @test.own.remote(%s) : (tensor<3xf32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}

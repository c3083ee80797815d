// Callbacks that take and return nothing, `() -> ()`, as elixir_call and
// io_callback, really reach the host: the failing one reports its failure.
//
// RUN: nx-runner %s --entry=both --input='[1, 2]:tensor<2xf32>' | FileCheck %s --check-prefix=OK
// RUN: not nx-runner %s --entry=fails --input='[1, 2]:tensor<2xf32>' 2>&1 | FileCheck %s --check-prefix=FAIL

nx.callback @nx.debug.print : () -> ()
nx.callback @nx.debug.identity : () -> ()
nx.callback @nx.debug.fail : () -> ()

// OK: result #0: tensor<2xf32> = [2, 4]
func.func @both(%x: tensor<2xf32>) -> tensor<2xf32> {
  nx.elixir_call @nx.debug.identity() : () -> ()
  nx.io_callback @nx.debug.print()
  %y = arith.addf %x, %x : tensor<2xf32>
  return %y : tensor<2xf32>
}

// FAIL: nx-runner: error: callback @nx.debug.fail at {{.*}}no-tensors.mlir:[[@LINE+2]]:3 failed: nothing to do
func.func @fails(%x: tensor<2xf32>) -> tensor<2xf32> {
  nx.elixir_call @nx.debug.fail() static_args {message = "nothing to do"} : () -> ()
  %y = arith.addf %x, %x : tensor<2xf32>
  return %y : tensor<2xf32>
}

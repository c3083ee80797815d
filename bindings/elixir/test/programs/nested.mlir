// Re-entrancy (concurrency_test.exs): @outer's callback runs @inner of the
// same program, whose own callback is served while @outer waits.

nx.callback @run_inner : (tensor<2xf32>) -> tensor<2xf32>
nx.callback @square : (tensor<2xf32>) -> tensor<2xf32>

func.func @outer(%x: tensor<2xf32>) -> tensor<2xf32> {
  %y = nx.elixir_call @run_inner(%x) : (tensor<2xf32>) -> tensor<2xf32>
  %z = arith.addf %y, %x : tensor<2xf32>
  return %z : tensor<2xf32>
}

func.func @inner(%x: tensor<2xf32>) -> tensor<2xf32> {
  %y = nx.elixir_call @square(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return %y : tensor<2xf32>
}

// Three levels (concurrency_test.exs): @level0's callback runs @level1,
// whose callback runs @level2, whose callback fails on a negative input.
nx.callback @run_level1 : (tensor<2xf32>) -> tensor<2xf32>
nx.callback @run_level2 : (tensor<2xf32>) -> tensor<2xf32>
nx.callback @check_positive : (tensor<2xf32>) -> tensor<2xf32>

func.func @level0(%x: tensor<2xf32>) -> tensor<2xf32> {
  %y = nx.elixir_call @run_level1(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return %y : tensor<2xf32>
}

func.func @level1(%x: tensor<2xf32>) -> tensor<2xf32> {
  %y = nx.elixir_call @run_level2(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return %y : tensor<2xf32>
}

func.func @level2(%x: tensor<2xf32>) -> tensor<2xf32> {
  %y = nx.elixir_call @check_positive(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return %y : tensor<2xf32>
}

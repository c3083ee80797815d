// Deadlines (deadlines_test.exs): a loop calling the host forever, stopped
// by the run deadline; a single call that may be slow, bounded by its
// callback's own timeout; a call that never returns.

nx.callback @spin : (tensor<2xf32>) -> tensor<2xf32>
nx.callback @slow : (tensor<2xf32>) -> tensor<2xf32>
nx.callback @stuck : (tensor<2xf32>) -> tensor<2xf32>

func.func @forever(%x: tensor<2xf32>) -> tensor<2xf32> {
  %true = arith.constant true
  %r = scf.while (%acc = %x) : (tensor<2xf32>) -> tensor<2xf32> {
    %y = nx.elixir_call @spin(%acc) : (tensor<2xf32>) -> tensor<2xf32>
    scf.condition(%true) %y : tensor<2xf32>
  } do {
  ^bb0(%acc: tensor<2xf32>):
    scf.yield %acc : tensor<2xf32>
  }
  return %r : tensor<2xf32>
}

func.func @slow_call(%x: tensor<2xf32>) -> tensor<2xf32> {
  %y = nx.elixir_call @slow(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return %y : tensor<2xf32>
}

func.func @stuck_call(%x: tensor<2xf32>) -> tensor<2xf32> {
  %y = nx.elixir_call @stuck(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return %y : tensor<2xf32>
}

// One host call that computes (elixir_call) and one that only looks at its
// values (io_callback), around compiled arithmetic.
nx.callback @scale : (tensor<4xf32>) -> tensor<4xf32>
nx.callback @log : (tensor<4xf32>) -> ()

func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %scaled = nx.elixir_call @scale(%x) static_args {factor = 3.0 : f64} : (tensor<4xf32>) -> tensor<4xf32>
  %one = arith.constant dense<1.0> : tensor<4xf32>
  %y = arith.addf %scaled, %one : tensor<4xf32>
  %logged = nx.io_callback @log(%y) static_args {label = "y"} : tensor<4xf32>
  return %logged : tensor<4xf32>
}

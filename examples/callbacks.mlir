// A small tensor program that talks to its host in every way nx supports.
// Run it with `./dev.sh example`, which uses nx-runner and the callbacks in
// examples/callbacks/callbacks.c:
//
//   * nx.elixir_call asks the host to normalise a vector and gets a new
//     tensor back (static_args select the norm);
//   * nx.io_callback logs values without copying them;
//   * nx.block names a computation (softplus) whose region is the portable
//     default; a backend may register a native kernel for the kind instead;
//   * nx.outfeed streams the result to the host stream "results".

nx.callback @normalize : (tensor<4xf32>) -> tensor<4xf32>
nx.callback @log_vector : (tensor<4xf32>) -> ()

func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  // x * 2 on the device, normalised by the host.
  %two = arith.constant dense<2.0> : tensor<4xf32>
  %doubled = arith.mulf %x, %two : tensor<4xf32>
  %normal = nx.elixir_call @normalize(%doubled) static_args {norm = "l2"} : (tensor<4xf32>) -> tensor<4xf32>
  %logged = nx.io_callback @log_vector(%normal) : tensor<4xf32>

  // softplus(v) = log(1 + exp(v)).
  %soft = nx.block "Example.Softplus" {} (%logged) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%v: tensor<4xf32>):
    %e = math.exp %v : tensor<4xf32>
    %l = math.log1p %e : tensor<4xf32>
    nx.yield %l : tensor<4xf32>
  }
  %shown = nx.io_callback @log_vector(%soft) : tensor<4xf32>
  nx.outfeed %shown to "results" : tensor<4xf32>
  return %shown : tensor<4xf32>
}

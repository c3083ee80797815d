// A small tensor program that talks to its host in every way nx supports:
// it asks the host to normalise a vector (elixir_call), logs intermediate
// values without copying them (io_callback), factorises a matrix through a
// named block whose default implementation a backend may replace with LAPACK,
// and streams a result to the host (outfeed).

nx.callback @normalize : (tensor<4xf32>) -> tensor<4xf32>
nx.callback @log_vector : (tensor<4xf32>) -> ()
nx.callback @log_matrix : (tensor<3x3xf32>) -> ()

func.func @main(%x: tensor<4xf32>, %m: tensor<3x3xf32>) -> (tensor<4xf32>, tensor<3x3xf32>) {
  // x * 2 on device, normalised by the host.
  %two = arith.constant dense<2.0> : tensor<4xf32>
  %doubled = arith.mulf %x, %two : tensor<4xf32>
  %normal = nx.elixir_call @normalize(%doubled) static_args {norm = "l2"} : (tensor<4xf32>) -> tensor<4xf32>
  %logged = nx.io_callback @log_vector(%normal) : tensor<4xf32>

  // Q of a QR factorisation; the region is the portable default (here a
  // placeholder identity on purpose: backends replace the block).
  %q, %r = nx.block "Nx.Block.LinAlg.QR" {mode = "reduced"} (%m) : (tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<3x3xf32>) {
  ^bb0(%a: tensor<3x3xf32>):
    nx.yield %a, %a : tensor<3x3xf32>, tensor<3x3xf32>
  }
  %q_logged = nx.io_callback ordered @log_matrix(%q) : tensor<3x3xf32>
  nx.outfeed %logged to "results" : tensor<4xf32>
  return %logged, %q_logged : tensor<4xf32>, tensor<3x3xf32>
}

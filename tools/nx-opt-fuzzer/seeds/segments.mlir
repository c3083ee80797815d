// Device code between callbacks, for nx-segment-callbacks on every device
// and what follows it in the CPU lowering.
// fuzz-pipeline: nx-segment-callbacks{device=cuda},nx-strip-transfers,nx-lower-to-cpu
// fuzz-pipeline: nx-segment-callbacks{device=cuda},nx-lower-to-cpu
// fuzz-pipeline: nx-segment-callbacks{device=rocm include-io=false},nx-lower-to-cpu
// fuzz-pipeline: nx-segment-callbacks{device=cuda include-io=false}
// fuzz-pipeline: nx-segment-callbacks,nx-segment-callbacks{device=tpu}
// fuzz-pipeline: nx-segment-callbacks{device=cuda},nx-split-functions{max-ops=2}

nx.callback @cb : (tensor<4xf32>) -> tensor<4xf32>
nx.callback @log : (tensor<4xf32>) -> ()
func.func @chain(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = arith.addf %x, %x : tensor<4xf32>
  %b = nx.elixir_call @cb(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %c = arith.mulf %b, %a : tensor<4xf32>
  %l = nx.io_callback ordered @log(%c) : tensor<4xf32>
  %d = math.exp %l : tensor<4xf32>
  return %d : tensor<4xf32>
}
func.func @chain_stage(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = func.call @chain(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

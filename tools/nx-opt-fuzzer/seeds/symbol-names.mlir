// Quoted and odd symbol names; the symbol mutation makes them empty,
// duplicate or reserved.
// fuzz-pipeline: nx-assign-callback-ids,convert-nx-to-custom-call,nx-export-stablehlo
// fuzz-pipeline: nx-lower-to-cpu
// fuzz-pipeline: nx-lower-to-cpu{max-function-ops=4}
// fuzz-pipeline: nx-segment-callbacks
// fuzz-pipeline: nx-split-functions{max-ops=2}
// fuzz-pipeline: nx-hooks-to-io-callback
// fuzz-pipeline: nx-prepare-entry-points

nx.callback @"a b" : (tensor<4xf32>) -> tensor<4xf32>
nx.callback @"x" : () -> ()
func.func @"main fn"(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = nx.elixir_call @"a b"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  nx.io_callback @"x"()
  return %0 : tensor<4xf32>
}

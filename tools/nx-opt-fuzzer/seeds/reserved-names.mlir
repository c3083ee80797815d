// User symbols named like, but not quite as, those the compiler makes:
// __nx_init / __nx_sites / __nx_site_<k> (convert-nx-to-llvm),
// <fn>_part<k> (nx-split-functions), <fn>_stage<k> (nx-segment-callbacks),
// hook_<flag> (nx-hooks-to-io-callback). The symbol mutation takes the
// last step.
// fuzz-pipeline: nx-lower-to-cpu
// fuzz-pipeline: nx-lower-to-cpu{max-function-ops=4}
// fuzz-pipeline: nx-segment-callbacks{device=cuda},nx-strip-transfers,nx-lower-to-cpu
// fuzz-pipeline: nx-segment-callbacks
// fuzz-pipeline: nx-split-functions{max-ops=2}

nx.callback @log : (tensor<4xf32>) -> ()
nx.callback @scale : (tensor<4xf32>) -> tensor<4xf32>
func.func @__nx_site(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = arith.addf %x, %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = arith.mulf %x, %x : tensor<4xf32>
  %1 = nx.elixir_call @scale(%0) : (tensor<4xf32>) -> tensor<4xf32>
  %2 = arith.addf %1, %0 : tensor<4xf32>
  %5 = nx.io_callback @log(%2) : tensor<4xf32>
  %3 = func.call @__nx_site(%5) : (tensor<4xf32>) -> tensor<4xf32>
  %4 = func.call @main_part(%3) : (tensor<4xf32>) -> tensor<4xf32>
  return %4 : tensor<4xf32>
}
func.func private @main_part(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = arith.negf %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func private @main_stage(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// -----

module {
  nx.callback @cb : (tensor<4xf32>) -> ()
  func.func @__nx_sites_user(%x: memref<4xf32>) {
    nx.invoke io_callback @cb(%x) outs() {has_side_effect} : (memref<4xf32>) -> ()
    return
  }
  func.func @__nx_init_user() {
    return
  }
}

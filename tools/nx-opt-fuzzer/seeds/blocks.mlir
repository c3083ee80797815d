// Blocks the CPU lowering turns into LAPACK custom calls (lower-blocks, the
// default) next to enough ops for nx-split-functions to cut.
// fuzz-pipeline: nx-lower-to-cpu{max-function-ops=5}
// fuzz-pipeline: nx-lower-to-cpu{lower-blocks=false max-function-ops=4}
// fuzz-pipeline: nx-lower-to-cpu
// fuzz-pipeline: nx-assign-callback-ids,convert-nx-to-custom-call{blocks-only=true}

func.func @qr(%a: tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<3x3xf32>) {
  %b = arith.addf %a, %a : tensor<3x3xf32>
  %c = arith.mulf %b, %a : tensor<3x3xf32>
  %q, %r = nx.block "Nx.Block.LinAlg.QR" {mode = "reduced"} (%c) : (tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<3x3xf32>) {
  ^bb0(%m: tensor<3x3xf32>):
    %n = arith.negf %m : tensor<3x3xf32>
    nx.yield %m, %n : tensor<3x3xf32>, tensor<3x3xf32>
  }
  %d = arith.subf %q, %r : tensor<3x3xf32>
  %e = arith.addf %d, %c : tensor<3x3xf32>
  return %e, %r : tensor<3x3xf32>, tensor<3x3xf32>
}

// Infeed -> compute -> outfeed through named streams (streams_test.exs).

func.func @main() -> tensor<3xf32> {
  %x, %n = nx.infeed from "in" : tensor<3xf32>, tensor<i64>
  %nf = arith.sitofp %n : tensor<i64> to tensor<f32>
  %s = tensor.extract %nf[] : tensor<f32>
  %splat = tensor.splat %s : tensor<3xf32>
  %y = arith.mulf %x, %splat : tensor<3xf32>
  nx.outfeed %y, %n to "out" : tensor<3xf32>, tensor<i64>
  return %y : tensor<3xf32>
}

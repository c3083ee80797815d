// The program of bench/round_trip.exs: `n` trips through the host, each
// an nx.elixir_call that returns its argument plus one.
nx.callback @tick : (tensor<i64>) -> tensor<i64>

func.func @loop(%n: tensor<i64>) -> tensor<i64> {
  %zero = arith.constant dense<0> : tensor<i64>
  %r = scf.while (%i = %zero) : (tensor<i64>) -> tensor<i64> {
    %more = arith.cmpi slt, %i, %n : tensor<i64>
    %b = tensor.extract %more[] : tensor<i1>
    scf.condition(%b) %i : tensor<i64>
  } do {
  ^bb0(%i: tensor<i64>):
    %next = nx.elixir_call @tick(%i) : (tensor<i64>) -> tensor<i64>
    scf.yield %next : tensor<i64>
  }
  return %r : tensor<i64>
}

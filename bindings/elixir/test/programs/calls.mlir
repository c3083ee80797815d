// elixir_call shapes the ExUnit suite checks (calls_test.exs): one result,
// tuple results feeding device compute, several program results, static
// args, and callbacks inside scf.while, scf.for and scf.if.

nx.callback @add_offset : (tensor<5xi32>) -> tensor<5xf32>
nx.callback @split : (tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
nx.callback @add_sub : (tensor<3xi32>, tensor<3xi32>) -> (tensor<3xi32>, tensor<3xi32>)
nx.callback @increment : (tensor<i64>) -> tensor<i64>
nx.callback @double : (tensor<2xf32>) -> tensor<2xf32>
nx.callback @on_true : (tensor<2xf32>) -> tensor<2xf32>
nx.callback @on_false : (tensor<2xf32>) -> tensor<2xf32>

func.func @offset(%x: tensor<5xi32>) -> tensor<5xf32> {
  %y = nx.elixir_call @add_offset(%x) static_args {offset = 10.0 : f64, label = "offset", sizes = [1, 2]} : (tensor<5xi32>) -> tensor<5xf32>
  return %y : tensor<5xf32>
}

// The two results of one call are added on the device.
func.func @split_and_sum(%x: tensor<3xf32>) -> tensor<3xf32> {
  %a, %b = nx.elixir_call @split(%x) : (tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  %s = arith.addf %a, %b : tensor<3xf32>
  return %s : tensor<3xf32>
}

func.func @sum_and_difference(%x: tensor<3xi32>, %y: tensor<3xi32>) -> (tensor<3xi32>, tensor<3xi32>) {
  %s, %d = nx.elixir_call @add_sub(%x, %y) : (tensor<3xi32>, tensor<3xi32>) -> (tensor<3xi32>, tensor<3xi32>)
  return %s, %d : tensor<3xi32>, tensor<3xi32>
}

// while x < 10: x = increment(x)
func.func @while_loop(%start: tensor<i64>) -> tensor<i64> {
  %limit = arith.constant dense<10> : tensor<i64>
  %r = scf.while (%i = %start) : (tensor<i64>) -> tensor<i64> {
    %more = arith.cmpi slt, %i, %limit : tensor<i64>
    %b = tensor.extract %more[] : tensor<i1>
    scf.condition(%b) %i : tensor<i64>
  } do {
  ^bb0(%i: tensor<i64>):
    %n = nx.elixir_call @increment(%i) : (tensor<i64>) -> tensor<i64>
    scf.yield %n : tensor<i64>
  }
  return %r : tensor<i64>
}

// Four trips through the host: x * 2^4.
func.func @for_loop(%x: tensor<2xf32>) -> tensor<2xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %x) -> tensor<2xf32> {
    %y = nx.elixir_call @double(%acc) : (tensor<2xf32>) -> tensor<2xf32>
    scf.yield %y : tensor<2xf32>
  }
  return %r : tensor<2xf32>
}

// Only the taken branch calls the host.
func.func @conditional(%flag: tensor<i32>, %x: tensor<2xf32>) -> tensor<2xf32> {
  %zero = arith.constant dense<0> : tensor<i32>
  %p = arith.cmpi sgt, %flag, %zero : tensor<i32>
  %b = tensor.extract %p[] : tensor<i1>
  %r = scf.if %b -> tensor<2xf32> {
    %t = nx.elixir_call @on_true(%x) : (tensor<2xf32>) -> tensor<2xf32>
    scf.yield %t : tensor<2xf32>
  } else {
    %f = nx.elixir_call @on_false(%x) : (tensor<2xf32>) -> tensor<2xf32>
    scf.yield %f : tensor<2xf32>
  }
  return %r : tensor<2xf32>
}

// io_callback hooks (hooks_test.exs): `ordered` hooks on independent values
// fire in program order; an optional hook left unbound does nothing.

nx.callback @hook.first : (tensor<2xf32>) -> ()
nx.callback @hook.second : (tensor<i64>) -> ()
nx.callback @hook.unbound : (tensor<2xf32>) -> ()

func.func @ordered(%a: tensor<2xf32>, %b: tensor<i64>) -> tensor<2xf32> {
  %b1 = nx.io_callback ordered @hook.second(%b) static_args {step = 1 : i64} : tensor<i64>
  %a1 = nx.io_callback ordered @hook.first(%a) static_args {step = 2 : i64} : tensor<2xf32>
  %b2 = nx.io_callback ordered @hook.second(%b1) static_args {step = 3 : i64} : tensor<i64>
  %a2 = nx.io_callback ordered @hook.first(%a1) static_args {step = 4 : i64} : tensor<2xf32>
  %r = arith.addf %a2, %a : tensor<2xf32>
  return %r : tensor<2xf32>
}

func.func @optional(%x: tensor<2xf32>) -> tensor<2xf32> {
  %y = nx.io_callback optional @hook.unbound(%x) : tensor<2xf32>
  %z = arith.addf %y, %y : tensor<2xf32>
  return %z : tensor<2xf32>
}

// Raising is the inverse of lowering: nx callbacks and streams lowered to
// custom calls, exported, imported with raise-callbacks come back as the
// same ops (callback declarations first), for both callback ABIs and both
// id encodings of the older one.
// RUN: nx-opt %s -nx-assign-callback-ids > %t.nx.mlir
// RUN: for abi in "exla" "exla-legacy" "exla-legacy callback-id-encoding=operand"; do \
// RUN:   nx-opt %t.nx.mlir --allow-unregistered-dialect "-convert-nx-to-custom-call=callback-abi=$abi" \
// RUN:     -nx-export-stablehlo -nx-import-stablehlo=raise-callbacks -canonicalize | diff %t.nx.mlir - || exit 1; \
// RUN: done
// RUN: FileCheck %s --enable-var-scope < %t.nx.mlir

// CHECK-LABEL: func.func @program
nx.callback @log : (tensor<2xf32>, tensor<i64>) -> () attributes {id = 0 : i64}
nx.callback @scale : (tensor<2xf32>) -> tensor<2xf32> attributes {id = 1 : i64}
nx.callback @step : (tensor<2xf32>) -> tensor<i64> attributes {id = 2 : i64}
func.func @program(%x: tensor<2xf32>, %n: tensor<i64>) -> (tensor<2xf32>, tensor<i64>) {
  %0 = nx.elixir_call pure @scale(%x) : (tensor<2xf32>) -> tensor<2xf32>
  %1 = nx.elixir_call @scale(%0) static_args {k = 2 : i64} : (tensor<2xf32>) -> tensor<2xf32>
  %2:2 = nx.io_callback ordered @log(%1, %n) static_args {label = "x"} : tensor<2xf32>, tensor<i64>
  %3 = nx.elixir_call ordered @step(%2#0) : (tensor<2xf32>) -> tensor<i64>
  %4:2 = nx.io_callback optional @log(%2#0, %3) : tensor<2xf32>, tensor<i64>
  return %4#0, %4#1 : tensor<2xf32>, tensor<i64>
}

// Streams: the handle names the stream; the infeeds' tag chain goes.
// CHECK-LABEL: func.func @streams
// CHECK: nx.outfeed
func.func @streams(%x: tensor<4xf32>, %n: tensor<i64>) -> (tensor<8x4xf32>, tensor<i64>, tensor<f32>) {
  nx.outfeed %x, %n to "s" : tensor<4xf32>, tensor<i64>
  %a, %b = nx.infeed from "batches" : tensor<8x4xf32>, tensor<i64>
  %c = nx.infeed from "batches" : tensor<f32>
  nx.outfeed to "done"
  return %a, %b, %c : tensor<8x4xf32>, tensor<i64>, tensor<f32>
}

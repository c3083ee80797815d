// RUN: nx-runner %s --entry=chain --input='[1, 2, 3]:tensor<3xf32>' \
// RUN:   | FileCheck %s --enable-var-scope --check-prefix=CHAIN
// RUN: nx-runner %s --entry=ordered --input='[1, 2]:tensor<2xi32>' --input='[7]:tensor<1xi64>' \
// RUN:   | FileCheck %s --enable-var-scope --check-prefix=ORDERED
// RUN: nx-runner %s --entry=ordered --input='[1, 2]:tensor<2xi32>' --input='[7]:tensor<1xi64>' \
// RUN:   --dispatch=bridge | FileCheck %s --enable-var-scope --check-prefix=ORDERED
// RUN: nx-runner %s --entry=checked --callbacks=%nx_test_callbacks \
// RUN:   --input='[0.5, 2, 4]:tensor<3xf32>' \
// RUN:   | FileCheck %s --enable-var-scope --check-prefix=CHECKED

nx.callback @nx.debug.print : (tensor<3xf32>) -> ()
nx.callback @nx.debug.print.i32 : (tensor<2xi32>) -> ()
nx.callback @nx.debug.print.i64 : (tensor<1xi64>) -> ()
nx.callback @test.check_positive : (tensor<3xf32>) -> ()

// Chained io_callbacks print in data-dependency order, and each one passes
// its operand through unchanged to the compute that follows.
// CHAIN: io-callback.mlir:[[@LINE+8]]:{{[0-9]+}}: tensor<3xf32> = [1, 2, 3]
// CHAIN-NEXT: io-callback.mlir:[[@LINE+9]]:{{[0-9]+}}: tensor<3xf32> = [2, 4, 6]
// CHAIN-NEXT: io-callback.mlir:[[@LINE+10]]:{{[0-9]+}}: tensor<3xf32> = [3, 6, 9]
// CHAIN-NEXT: result #0: tensor<3xf32> = [3, 6, 9]
// CHAIN-NEXT: result #1: tensor<3xf32> = [1, 2, 3]
// CHAIN-NOT: {{.}}
func.func @chain(%x: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %two = arith.constant dense<2.0> : tensor<3xf32>
  %a = nx.io_callback @nx.debug.print(%x) : tensor<3xf32>
  %b = arith.mulf %a, %two : tensor<3xf32>
  %c = nx.io_callback @nx.debug.print(%b) : tensor<3xf32>
  %d = arith.addf %c, %a : tensor<3xf32>
  %e = nx.io_callback @nx.debug.print(%d) : tensor<3xf32>
  %copy = arith.addf %a, %a : tensor<3xf32>
  %half = arith.constant dense<0.5> : tensor<3xf32>
  %x2 = arith.mulf %copy, %half : tensor<3xf32>
  return %e, %x2 : tensor<3xf32>, tensor<3xf32>
}

// `ordered` io_callbacks on independent values keep program order, even
// though no data dependency links them.
// ORDERED: io-callback.mlir:[[@LINE+6]]:{{[0-9]+}}: tensor<1xi64> = [7]
// ORDERED-NEXT: io-callback.mlir:[[@LINE+6]]:{{[0-9]+}}: tensor<2xi32> = [1, 2]
// ORDERED-NEXT: io-callback.mlir:[[@LINE+6]]:{{[0-9]+}}: tensor<1xi64> = [7]
// ORDERED-NEXT: io-callback.mlir:[[@LINE+6]]:{{[0-9]+}}: tensor<2xi32> = [1, 2]
// ORDERED-NEXT: result #0: tensor<2xi32> = [2, 4]
func.func @ordered(%a: tensor<2xi32>, %b: tensor<1xi64>) -> tensor<2xi32> {
  %b1 = nx.io_callback ordered @nx.debug.print.i64(%b) : tensor<1xi64>
  %a1 = nx.io_callback ordered @nx.debug.print.i32(%a) : tensor<2xi32>
  %b2 = nx.io_callback ordered @nx.debug.print.i64(%b1) : tensor<1xi64>
  %a2 = nx.io_callback ordered @nx.debug.print.i32(%a1) : tensor<2xi32>
  %r = arith.addi %a2, %a : tensor<2xi32>
  return %r : tensor<2xi32>
}

// An io_callback from a callback library whose result is unused is still
// executed (it is never eliminated).
// CHECKED: result #0: tensor<3xf32> = [1, 4, 8]
func.func @checked(%x: tensor<3xf32>) -> tensor<3xf32> {
  %unused = nx.io_callback @test.check_positive(%x) : tensor<3xf32>
  %y = arith.addf %x, %x : tensor<3xf32>
  return %y : tensor<3xf32>
}

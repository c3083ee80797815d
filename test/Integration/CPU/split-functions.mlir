// Programs compiled whole and compiled as pieces of at most 6 ops
// (nx-lower-to-cpu's max-function-ops; the default splits only functions
// of over 2,048 ops) behave identically: callbacks run in the same order
// with the same values, loops carrying host results work, and a failing
// callback in a piece still names its own op.
//
// RUN: nx-runner %s --entry=mixed --max-function-ops=0 --callbacks=%nx_test_callbacks \
// RUN:   --input='[1, 2, 3, 4]:tensor<4xf32>' | FileCheck %s --enable-var-scope --check-prefix=MIXED
// RUN: nx-runner %s --entry=mixed --max-function-ops=6 --callbacks=%nx_test_callbacks \
// RUN:   --input='[1, 2, 3, 4]:tensor<4xf32>' | FileCheck %s --enable-var-scope --check-prefix=MIXED
// RUN: nx-runner %s --entry=mixed --max-function-ops=6 --callbacks=%nx_test_callbacks \
// RUN:   --dispatch=bridge --threads=4 --repeat=2 --quiet \
// RUN:   --input='[1, 2, 3, 4]:tensor<4xf32>' | FileCheck %s --enable-var-scope --check-prefix=THREADS
// RUN: not nx-runner %s --entry=failing --max-function-ops=6 \
// RUN:   --input='[1, 2, 3, 4]:tensor<4xf32>' 2>&1 | FileCheck %s --enable-var-scope --check-prefix=FAIL
// A bad piece size fails the compile with the pass's message, not a dump.
// RUN: not nx-runner %s --entry=failing --max-function-ops=1 \
// RUN:   --input='[1, 2, 3, 4]:tensor<4xf32>' 2>&1 | FileCheck %s --enable-var-scope --check-prefix=BADOPT
// The split really happens: the lowered module has the pieces.
// RUN: nx-runner %s --entry=mixed --max-function-ops=6 --print-lowered \
// RUN:   --callbacks=%nx_test_callbacks | FileCheck %s --enable-var-scope --check-prefix=LOWERED

nx.callback @nx.debug.print : (tensor<4xf32>) -> ()
nx.callback @nx.debug.fail : (tensor<4xf32>) -> ()
nx.callback @test.scale : (tensor<4xf32>) -> tensor<4xf32>

// MIXED:      split-functions.mlir:[[@LINE+27]]:{{[0-9]+}}: tensor<4xf32> = [1, 2, 3, 4]
// MIXED-NEXT: split-functions.mlir:[[@LINE+30]]:{{[0-9]+}}: tensor<4xf32> = [8, 15, 22, 29]
// MIXED-NEXT: split-functions.mlir:[[@LINE+37]]:{{[0-9]+}}: tensor<4xf32> = [4.5, 8.5, 12.5, 16.5]
// MIXED-NEXT: split-functions.mlir:[[@LINE+36]]:{{[0-9]+}}: tensor<4xf32> = [2.75, 5.25, 7.75, 10.25]
// MIXED-NEXT: split-functions.mlir:[[@LINE+35]]:{{[0-9]+}}: tensor<4xf32> = [1.875, 3.625, 5.375, 7.125]
// MIXED-NEXT: split-functions.mlir:[[@LINE+37]]:{{[0-9]+}}: tensor<4xf32> = [1.875, 3.625, 5.375, 7.125]
// MIXED-NEXT: result #0: tensor<4xf32> = [3.515625, 13.140625, 28.890625, 50.765625]
// MIXED-NEXT: result #1: tensor<4xf32> = [2, 4, 6, 8]
// MIXED-NOT:  {{.}}

// Eight runs, each printing six values, none failing.
// THREADS-COUNT-48: split-functions.mlir:{{[0-9]+}}:{{[0-9]+}}: tensor<4xf32>
// THREADS-NOT:      error

// BADOPT:     nx-runner: error: nx-lower-to-cpu failed:
// BADOPT-NEXT: error: nx-split-functions expects 'max-ops' to be at least 2, got 1
// BADOPT-NOT: builtin.module

// LOWERED: llvm.func @mixed(
// LOWERED: llvm.func @mixed_part0(
// LOWERED: llvm.func @mixed_part1(

// x -> print x; a = 2x; e = 3a + 1; b = e + x; print b; three times
// acc = acc / 2 + x / 2, printing each; print the result r; return (r * r, a).
func.func @mixed(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %two = arith.constant dense<2.0> : tensor<4xf32>
  %half = arith.constant dense<0.5> : tensor<4xf32>
  %px = nx.io_callback @nx.debug.print(%x) : tensor<4xf32>
  %a = arith.mulf %px, %two : tensor<4xf32>
  %e = nx.elixir_call @test.scale(%a) static_args {factor = 3.0 : f64, offset = 1 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  %b0 = arith.addf %e, %x : tensor<4xf32>
  %b = nx.io_callback @nx.debug.print(%b0) : tensor<4xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %hx = arith.mulf %x, %half : tensor<4xf32>
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %b) -> tensor<4xf32> {
    %s = nx.elixir_call @test.scale(%acc) static_args {factor = 0.5 : f64} : (tensor<4xf32>) -> tensor<4xf32>
    %t = arith.addf %s, %hx : tensor<4xf32>
    %p = nx.io_callback @nx.debug.print(%t) : tensor<4xf32>
    scf.yield %p : tensor<4xf32>
  }
  %pr = nx.io_callback @nx.debug.print(%r) : tensor<4xf32>
  %sq = arith.mulf %pr, %pr : tensor<4xf32>
  return %sq, %a : tensor<4xf32>, tensor<4xf32>
}

// FAIL: nx-runner: error: callback @nx.debug.fail at {{.*}}split-functions.mlir:[[@LINE+5]]:3 failed: failure in a piece
func.func @failing(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = arith.addf %x, %x : tensor<4xf32>
  %b = arith.mulf %a, %x : tensor<4xf32>
  %c = arith.subf %b, %x : tensor<4xf32>
  nx.elixir_call @nx.debug.fail(%c) static_args {message = "failure in a piece"} : (tensor<4xf32>) -> ()
  %d = arith.addf %c, %c : tensor<4xf32>
  return %d : tensor<4xf32>
}

// A function of nothing but call sites - the glue of a callback-heavy
// program, which the JIT generates without optimization - runs its sites in
// order, each resolved through __nx_init's site table to its own name,
// location and attributes, and stops at the first failure, naming the
// failing op.
// RUN: nx-runner %s --entry=chain --input='[1, 2]:tensor<2xf32>' \
// RUN:   | FileCheck %s --check-prefix=CHAIN
// RUN: not nx-runner %s --entry=stops --input='[1, 2]:tensor<2xf32>' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=STOPS

nx.callback @nx.debug.print : (tensor<2xf32>) -> ()
nx.callback @nx.debug.fail : (tensor<2xf32>) -> ()

// CHAIN: tensor<2xf32> = [1, 2]
// CHAIN-NEXT: tensor<2xf32> = [2, 4]
// CHAIN-NEXT: tensor<2xf32> = [4, 8]
// CHAIN-NEXT: tensor<2xf32> = [8, 16]
// CHAIN-NEXT: tensor<2xf32> = [16, 32]
// CHAIN-NEXT: tensor<2xf32> = [32, 64]
// CHAIN-NEXT: tensor<2xf32> = [64, 128]
// CHAIN-NEXT: tensor<2xf32> = [128, 256]
// CHAIN-NEXT: tensor<2xf32> = [256, 512]
// CHAIN-NEXT: tensor<2xf32> = [512, 1024]
// CHAIN-NEXT: tensor<2xf32> = [1024, 2048]
// CHAIN-NEXT: tensor<2xf32> = [2048, 4096]
// CHAIN-NEXT: result #0: tensor<2xf32> = [4096, 8192]
func.func @chain(%x0: tensor<2xf32>) -> tensor<2xf32> {
  %two = arith.constant dense<2.0> : tensor<2xf32>
  %p0 = nx.io_callback @nx.debug.print(%x0) : tensor<2xf32>
  %x1 = arith.mulf %p0, %two : tensor<2xf32>
  %p1 = nx.io_callback @nx.debug.print(%x1) : tensor<2xf32>
  %x2 = arith.mulf %p1, %two : tensor<2xf32>
  %p2 = nx.io_callback @nx.debug.print(%x2) : tensor<2xf32>
  %x3 = arith.mulf %p2, %two : tensor<2xf32>
  %p3 = nx.io_callback @nx.debug.print(%x3) : tensor<2xf32>
  %x4 = arith.mulf %p3, %two : tensor<2xf32>
  %p4 = nx.io_callback @nx.debug.print(%x4) : tensor<2xf32>
  %x5 = arith.mulf %p4, %two : tensor<2xf32>
  %p5 = nx.io_callback @nx.debug.print(%x5) : tensor<2xf32>
  %x6 = arith.mulf %p5, %two : tensor<2xf32>
  %p6 = nx.io_callback @nx.debug.print(%x6) : tensor<2xf32>
  %x7 = arith.mulf %p6, %two : tensor<2xf32>
  %p7 = nx.io_callback @nx.debug.print(%x7) : tensor<2xf32>
  %x8 = arith.mulf %p7, %two : tensor<2xf32>
  %p8 = nx.io_callback @nx.debug.print(%x8) : tensor<2xf32>
  %x9 = arith.mulf %p8, %two : tensor<2xf32>
  %p9 = nx.io_callback @nx.debug.print(%x9) : tensor<2xf32>
  %x10 = arith.mulf %p9, %two : tensor<2xf32>
  %p10 = nx.io_callback @nx.debug.print(%x10) : tensor<2xf32>
  %x11 = arith.mulf %p10, %two : tensor<2xf32>
  %p11 = nx.io_callback @nx.debug.print(%x11) : tensor<2xf32>
  %x12 = arith.mulf %p11, %two : tensor<2xf32>
  return %x12 : tensor<2xf32>
}

// The sixth of eleven host calls fails: five values are printed, then the
// run stops with the failing op's location and message.
// STOPS: tensor<2xf32> = [1, 2]
// STOPS-NEXT: tensor<2xf32> = [2, 4]
// STOPS-NEXT: tensor<2xf32> = [4, 8]
// STOPS-NEXT: tensor<2xf32> = [8, 16]
// STOPS-NEXT: tensor<2xf32> = [16, 32]
// STOPS-NEXT: nx-runner: error: callback @nx.debug.fail at {{.*}}call-site-chain.mlir:[[@LINE+14]]:8 failed: the sixth call
// STOPS-NOT: tensor<2xf32>
func.func @stops(%x0: tensor<2xf32>) -> tensor<2xf32> {
  %two = arith.constant dense<2.0> : tensor<2xf32>
  %p0 = nx.io_callback @nx.debug.print(%x0) : tensor<2xf32>
  %x1 = arith.mulf %p0, %two : tensor<2xf32>
  %p1 = nx.io_callback @nx.debug.print(%x1) : tensor<2xf32>
  %x2 = arith.mulf %p1, %two : tensor<2xf32>
  %p2 = nx.io_callback @nx.debug.print(%x2) : tensor<2xf32>
  %x3 = arith.mulf %p2, %two : tensor<2xf32>
  %p3 = nx.io_callback @nx.debug.print(%x3) : tensor<2xf32>
  %x4 = arith.mulf %p3, %two : tensor<2xf32>
  %p4 = nx.io_callback @nx.debug.print(%x4) : tensor<2xf32>
  %x5 = arith.mulf %p4, %two : tensor<2xf32>
  %f = nx.io_callback @nx.debug.fail(%x5) static_args {message = "the sixth call"} : tensor<2xf32>
  %p5 = nx.io_callback @nx.debug.print(%f) : tensor<2xf32>
  %x6 = arith.mulf %p5, %two : tensor<2xf32>
  %p6 = nx.io_callback @nx.debug.print(%x6) : tensor<2xf32>
  %x7 = arith.mulf %p6, %two : tensor<2xf32>
  %p7 = nx.io_callback @nx.debug.print(%x7) : tensor<2xf32>
  %x8 = arith.mulf %p7, %two : tensor<2xf32>
  %p8 = nx.io_callback @nx.debug.print(%x8) : tensor<2xf32>
  %x9 = arith.mulf %p8, %two : tensor<2xf32>
  %p9 = nx.io_callback @nx.debug.print(%x9) : tensor<2xf32>
  %x10 = arith.mulf %p9, %two : tensor<2xf32>
  return %x10 : tensor<2xf32>
}

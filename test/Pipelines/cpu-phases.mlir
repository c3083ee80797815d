// nx-lower-to-cpu is its six phases in order: run as one pipeline of
// phases, or each phase by its own nx-opt on the last one's output, they
// give exactly what nx-lower-to-cpu gives, with any flags.
// RUN: nx-opt %s --nx-lower-to-cpu -o %t.whole.mlir
// RUN: nx-opt %s --pass-pipeline='builtin.module(nx-cpu-host-calls,nx-cpu-bufferize,nx-cpu-library-calls,nx-cpu-parallelize,nx-cpu-codegen,nx-cpu-to-llvm)' -o %t.chain.mlir
// RUN: diff %t.whole.mlir %t.chain.mlir
// RUN: nx-opt %s --nx-cpu-host-calls --mlir-print-debuginfo \
// RUN:   | nx-opt --nx-cpu-bufferize --mlir-print-debuginfo \
// RUN:   | nx-opt --nx-cpu-library-calls --mlir-print-debuginfo \
// RUN:   | nx-opt --nx-cpu-parallelize --mlir-print-debuginfo \
// RUN:   | nx-opt --nx-cpu-codegen --mlir-print-debuginfo \
// RUN:   | nx-opt --nx-cpu-to-llvm -o %t.separate.mlir
// RUN: diff %t.whole.mlir %t.separate.mlir
//
// The phases read nx-lower-to-cpu's flags.
// RUN: nx-opt %s --pass-pipeline='builtin.module(nx-lower-to-cpu{blas=false parallel=false vectorize=false libm-math=true})' -o %t.flags.whole.mlir
// RUN: nx-opt %s --pass-pipeline='builtin.module(nx-cpu-host-calls{blas=false parallel=false vectorize=false libm-math=true},nx-cpu-bufferize{blas=false parallel=false vectorize=false libm-math=true},nx-cpu-library-calls{blas=false parallel=false vectorize=false libm-math=true},nx-cpu-parallelize{blas=false parallel=false vectorize=false libm-math=true},nx-cpu-codegen{blas=false parallel=false vectorize=false libm-math=true},nx-cpu-to-llvm{blas=false parallel=false vectorize=false libm-math=true})' -o %t.flags.chain.mlir
// RUN: diff %t.flags.whole.mlir %t.flags.chain.mlir
// RUN: not diff -q %t.whole.mlir %t.flags.whole.mlir

nx.callback @scale : (tensor<4xf32>) -> tensor<4xf32>

func.func @main(%a: tensor<256x256xf32>, %b: tensor<256x256xf32>,
                %x: tensor<4xf32>) -> (tensor<256x256xf32>, tensor<4xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<256x256xf32>)
      -> tensor<256x256xf32>
  %p = linalg.matmul ins(%a, %b : tensor<256x256xf32>, tensor<256x256xf32>)
                     outs(%z : tensor<256x256xf32>) -> tensor<256x256xf32>
  %q = math.exp %p : tensor<256x256xf32>
  %y = nx.elixir_call @scale(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %q, %y : tensor<256x256xf32>, tensor<4xf32>
}

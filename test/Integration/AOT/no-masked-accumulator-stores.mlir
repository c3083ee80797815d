// Maxima and minima over an outer or a middle axis keep their accumulators
// in memory: each step loads them, takes the NaN-propagating maximum with
// a row of the input and stores them back. x86 without AVX-512 lowers that
// maximum as MAXPS, a NaN test of its first operand and a blend; with the
// accumulator first, LLVM folds the blend and the store into a masked store
// (VMASKMOVPS), which AMD's AVX2 CPUs microcode (the maxima took 2.5x as
// long on a Zen 3). nx-vectorize-linalg puts the input first: the objects
// for AVX2 CPUs of AMD and Intel have no masked store.
// RUN: nx-compile %s -o %t.zen3.o --mcpu=znver3
// RUN: llvm-objdump -d %t.zen3.o | FileCheck %s
// RUN: nx-compile %s -o %t.hsw.o --mcpu=haswell
// RUN: llvm-objdump -d %t.hsw.o | FileCheck %s
// RUN: nx-compile %s -o %t.strict.o --mcpu=znver3 --strict-reductions
// RUN: llvm-objdump -d %t.strict.o | FileCheck %s

// CHECK-NOT: vmaskmov
// CHECK: vmaxps
// CHECK-NOT: vmaskmov
// CHECK: vminps
// CHECK-NOT: vmaskmov

func.func @middle_maxima(%x: tensor<64x256x256xf32>) -> tensor<64x256xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<64x256xf32>
  %z = linalg.fill ins(%ninf : f32) outs(%e : tensor<64x256xf32>) -> tensor<64x256xf32>
  %s = linalg.reduce ins(%x : tensor<64x256x256xf32>) outs(%z : tensor<64x256xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %t = arith.maximumf %in, %acc : f32
      linalg.yield %t : f32
    }
  return %s : tensor<64x256xf32>
}

func.func @column_minima(%x: tensor<2048x2048xf32>) -> tensor<2048xf32> {
  %inf = arith.constant 0x7F800000 : f32
  %e = tensor.empty() : tensor<2048xf32>
  %z = linalg.fill ins(%inf : f32) outs(%e : tensor<2048xf32>) -> tensor<2048xf32>
  %s = linalg.reduce ins(%x : tensor<2048x2048xf32>) outs(%z : tensor<2048xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %t = arith.minimumf %in, %acc : f32
      linalg.yield %t : f32
    }
  return %s : tensor<2048xf32>
}

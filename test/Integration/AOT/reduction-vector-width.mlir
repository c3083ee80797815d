// nx-compile chooses the vector width of a sum from the instruction sets of
// the CPU it compiles for, never from its model: 512 bits with AVX-512, on
// AMD Zen 4 as on Intel's Skylake-AVX512, and 256 with AVX2 (Haswell); an
// elementwise op gets the same width.
// RUN: nx-compile %s -o %t.zen4.o --mcpu=znver4 --print-lowered | FileCheck %s --check-prefix=ZEN4
// RUN: nx-compile %s -o %t.skx.o --mcpu=skylake-avx512 --print-lowered | FileCheck %s --check-prefix=SKX
// RUN: nx-compile %s -o %t.hsw.o --mcpu=haswell --print-lowered | FileCheck %s --check-prefix=HSW

// ZEN4-LABEL: llvm.func @row_sums
// ZEN4: llvm.fadd {{.*}} : vector<16xf32>
// SKX-LABEL: llvm.func @row_sums
// SKX: llvm.fadd {{.*}} : vector<16xf32>
// HSW-LABEL: llvm.func @row_sums
// HSW: llvm.fadd {{.*}} : vector<8xf32>
// HSW-NOT: vector<16xf32>
// HSW: llvm.return
func.func @row_sums(%x: tensor<64x1024xf32>) -> tensor<64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %s = linalg.reduce ins(%x : tensor<64x1024xf32>) outs(%z : tensor<64xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %t = arith.addf %in, %acc : f32
      linalg.yield %t : f32
    }
  return %s : tensor<64xf32>
}

// ZEN4-LABEL: llvm.func @exponentials
// ZEN4: vector<16xf32>
// SKX-LABEL: llvm.func @exponentials
// SKX: vector<16xf32>
func.func @exponentials(%x: tensor<64x1024xf32>) -> tensor<64x1024xf32> {
  %y = math.exp %x : tensor<64x1024xf32>
  return %y : tensor<64x1024xf32>
}

// bf16 arithmetic compiled for CPUs without AVX-512 BF16 links and runs:
// LLVM would round f32 to bf16 by calling the compiler runtime's
// __truncsfbf2, which Debian bookworm's libgcc lacks (nx-expand-bf16).
// Rounding is to nearest, ties to even (1 + 2^-8 becomes 1, 1 + 3 * 2^-8
// becomes 1 + 2^-6, 257 becomes 256), NaN stays NaN, a sum past bf16's
// largest value is inf, and -0 + -0 is -0: the same at x86-64-v3 (run
// here), on this host through the JIT, and linked at x86-64-v4.
// DEFINE: %{inputs} = --input='[1.00390625, 1.01171875, nan, inf, -0.0, 3.0e38, 1.0, 256.0]:tensor<8xf32>' --input='[0, 0, 0, 0, -0.0, 3.0e38, 0.00390625, 1.0]:tensor<8xf32>'
// RUN: nx-compile %s --mcpu=x86-64-v3 -o %t.v3.so
// RUN: nxrt-run %t.v3.so --entry=round_and_add %{inputs} | FileCheck %s
// RUN: nx-runner %s --entry=round_and_add %{inputs} | FileCheck %s
// RUN: nx-compile %s --mcpu=x86-64-v4 -o %t.v4.so
// CHECK: result #0: tensor<8xf32> = [1, 1.015625, nan, inf, -0, inf, 1, 256]

#id = affine_map<(i) -> (i)>

func.func @round_and_add(%x: tensor<8xf32>, %y: tensor<8xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%x, %y : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %a16 = arith.truncf %a : f32 to bf16
    %b16 = arith.truncf %b : f32 to bf16
    %s = arith.addf %a16, %b16 : bf16
    %w = arith.extf %s : bf16 to f32
    linalg.yield %w : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// f32 to bf16 on CPUs without AVX-512 BF16 (nx-expand-bf16), against
// rounding to nearest with ties to even computed by NumPy on the bits: the
// special values (ties, the largest finite f32, subnormals, infinities, NaNs
// whose payload lies in the dropped half or whose rounding would carry into
// the sign) and 65512 random bit patterns. Every NaN must stay a NaN;
// every other value must round exactly. Compiled for x86-64-v3, where the
// truncation is vectorized eight lanes at a time, and through the JIT for
// this host.
// REQUIRES: numpy
// RUN: %numpy_python %S/Inputs/bf16_rounding.py make %t.in.npy
// RUN: nx-compile %s --mcpu=x86-64-v3 -o %t.v3.so
// RUN: nxrt-run %t.v3.so --entry=to_bf16 --input=@%t.in.npy --quiet --output=%t.v3.npy
// RUN: %numpy_python %S/Inputs/bf16_rounding.py check %t.in.npy %t.v3.npy | FileCheck %s
// RUN: nx-runner %s --entry=to_bf16 --input=@%t.in.npy --quiet --output=%t.jit.npy
// RUN: %numpy_python %S/Inputs/bf16_rounding.py check %t.in.npy %t.jit.npy | FileCheck %s
// CHECK: 65536 values: 0 rounded wrong, 0 NaNs lost

#id = affine_map<(i) -> (i)>

func.func @to_bf16(%x: tensor<65536xf32>) -> tensor<65536xi16> {
  %e = tensor.empty() : tensor<65536xi16>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<65536xf32>) outs(%e : tensor<65536xi16>) {
  ^bb0(%a: f32, %o: i16):
    %b = arith.truncf %a : f32 to bf16
    %bits = arith.bitcast %b : bf16 to i16
    linalg.yield %bits : i16
  } -> tensor<65536xi16>
  return %r : tensor<65536xi16>
}

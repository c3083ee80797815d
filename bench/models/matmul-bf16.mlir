// A product of bf16 operands: 512x512 by 512x512, its f32 operands rounded
// to bf16, multiplied and summed in f32 (on oneDNN's bf16 kernels where the
// CPU has them, else widened to f32 for libnxrt's f32 GEMM).
#id = affine_map<(i, j) -> (i, j)>

func.func @matmul_bf16(%a: tensor<512x512xf32>, %b: tensor<512x512xf32>) -> tensor<512x512xf32> {
  %e16 = tensor.empty() : tensor<512x512xbf16>
  %a16 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<512x512xf32>) outs(%e16 : tensor<512x512xbf16>) {
  ^bb0(%v: f32, %o: bf16):
    %t = arith.truncf %v : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<512x512xbf16>
  %b16 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%b : tensor<512x512xf32>) outs(%e16 : tensor<512x512xbf16>) {
  ^bb0(%v: f32, %o: bf16):
    %t = arith.truncf %v : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<512x512xbf16>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<512x512xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<512x512xf32>) -> tensor<512x512xf32>
  %p = linalg.matmul ins(%a16, %b16 : tensor<512x512xbf16>, tensor<512x512xbf16>)
                     outs(%z : tensor<512x512xf32>) -> tensor<512x512xf32>
  return %p : tensor<512x512xf32>
}

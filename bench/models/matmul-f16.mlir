// A product of halves: 512x512 by 512x512, its f32 operands rounded to f16,
// multiplied and summed in f32 (libnxrt widens them to f32 for its f32
// GEMM).
#id = affine_map<(i, j) -> (i, j)>

func.func @matmul_f16(%a: tensor<512x512xf32>, %b: tensor<512x512xf32>) -> tensor<512x512xf32> {
  %e16 = tensor.empty() : tensor<512x512xf16>
  %a16 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<512x512xf32>) outs(%e16 : tensor<512x512xf16>) {
  ^bb0(%v: f32, %o: f16):
    %t = arith.truncf %v : f32 to f16
    linalg.yield %t : f16
  } -> tensor<512x512xf16>
  %b16 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%b : tensor<512x512xf32>) outs(%e16 : tensor<512x512xf16>) {
  ^bb0(%v: f32, %o: f16):
    %t = arith.truncf %v : f32 to f16
    linalg.yield %t : f16
  } -> tensor<512x512xf16>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<512x512xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<512x512xf32>) -> tensor<512x512xf32>
  %p = linalg.matmul ins(%a16, %b16 : tensor<512x512xf16>, tensor<512x512xf16>)
                     outs(%z : tensor<512x512xf32>) -> tensor<512x512xf32>
  return %p : tensor<512x512xf32>
}

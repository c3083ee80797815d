// A product of i8 operands: 512x512 by 512x512, its f32 operands
// truncated to i8 (as a quantized layer's are), multiplied and summed in
// i32, the result returned as f32.
#id = affine_map<(i, j) -> (i, j)>

func.func @matmul_i8(%a: tensor<512x512xf32>, %b: tensor<512x512xf32>) -> tensor<512x512xf32> {
  %e8 = tensor.empty() : tensor<512x512xi8>
  %a8 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<512x512xf32>) outs(%e8 : tensor<512x512xi8>) {
  ^bb0(%v: f32, %o: i8):
    %t = arith.fptosi %v : f32 to i8
    linalg.yield %t : i8
  } -> tensor<512x512xi8>
  %b8 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%b : tensor<512x512xf32>) outs(%e8 : tensor<512x512xi8>) {
  ^bb0(%v: f32, %o: i8):
    %t = arith.fptosi %v : f32 to i8
    linalg.yield %t : i8
  } -> tensor<512x512xi8>
  %zero = arith.constant 0 : i32
  %e32 = tensor.empty() : tensor<512x512xi32>
  %z = linalg.fill ins(%zero : i32) outs(%e32 : tensor<512x512xi32>) -> tensor<512x512xi32>
  %p = linalg.matmul ins(%a8, %b8 : tensor<512x512xi8>, tensor<512x512xi8>)
                     outs(%z : tensor<512x512xi32>) -> tensor<512x512xi32>
  %ef = tensor.empty() : tensor<512x512xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%p : tensor<512x512xi32>) outs(%ef : tensor<512x512xf32>) {
  ^bb0(%v: i32, %o: f32):
    %t = arith.sitofp %v : i32 to f32
    linalg.yield %t : f32
  } -> tensor<512x512xf32>
  return %r : tensor<512x512xf32>
}

// One op class: causal (masked) attention, as a decoder writes it. 16 heads
// of 128 tokens and width 64 (batch 4 x 4 heads):
//   p = softmax(mask(q k^T / 8)), o = p v
// where mask sets the score of every key after its query to -inf, built
// from linalg.index as a front end's iota + compare + select is. The scores
// are a batch_matmul reading k transposed; the softmax subtracts the row's
// maximum over the unmasked scores (the diagonal is never masked).
#qmap = affine_map<(b, m, n, k) -> (b, m, k)>
#ktmap = affine_map<(b, m, n, k) -> (b, n, k)>
#smap = affine_map<(b, m, n, k) -> (b, m, n)>
#id3 = affine_map<(b, i, j) -> (b, i, j)>
#row3 = affine_map<(b, i, j) -> (b, i)>
func.func @masked_attention(%q: tensor<16x128x64xf32>, %k: tensor<16x128x64xf32>,
                            %v: tensor<16x128x64xf32>) -> tensor<16x128x64xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.125 : f32
  %es = tensor.empty() : tensor<16x128x128xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<16x128x128xf32>) -> tensor<16x128x128xf32>
  %s = linalg.batch_matmul indexing_maps = [#qmap, #ktmap, #smap]
      ins(%q, %k : tensor<16x128x64xf32>, tensor<16x128x64xf32>)
      outs(%zs : tensor<16x128x128xf32>) -> tensor<16x128x128xf32>
  // Scaled and masked: keys after the query get -inf.
  %masked = linalg.generic {indexing_maps = [#id3, #id3],
                            iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<16x128x128xf32>) outs(%es : tensor<16x128x128xf32>) {
  ^bb0(%sv: f32, %out: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %future = arith.cmpi ugt, %j, %i : index
    %scaled = arith.mulf %sv, %scale : f32
    %m = arith.select %future, %ninf, %scaled : f32
    linalg.yield %m : f32
  } -> tensor<16x128x128xf32>
  %er = tensor.empty() : tensor<16x128xf32>
  %max0 = linalg.fill ins(%ninf : f32) outs(%er : tensor<16x128xf32>) -> tensor<16x128xf32>
  %max = linalg.reduce ins(%masked : tensor<16x128x128xf32>) outs(%max0 : tensor<16x128xf32>) dimensions = [2]
    (%in: f32, %acc: f32) {
      %t = arith.maximumf %in, %acc : f32
      linalg.yield %t : f32
    }
  %p0 = linalg.generic {indexing_maps = [#id3, #row3, #id3],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%masked, %max : tensor<16x128x128xf32>, tensor<16x128xf32>)
      outs(%es : tensor<16x128x128xf32>) {
  ^bb0(%sv: f32, %mv: f32, %out: f32):
    %d = arith.subf %sv, %mv : f32
    %ex = math.exp %d : f32
    linalg.yield %ex : f32
  } -> tensor<16x128x128xf32>
  %sum0 = linalg.fill ins(%zero : f32) outs(%er : tensor<16x128xf32>) -> tensor<16x128xf32>
  %sum = linalg.reduce ins(%p0 : tensor<16x128x128xf32>) outs(%sum0 : tensor<16x128xf32>) dimensions = [2]
    (%in: f32, %acc: f32) {
      %t = arith.addf %in, %acc : f32
      linalg.yield %t : f32
    }
  %p = linalg.generic {indexing_maps = [#id3, #row3, #id3],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%p0, %sum : tensor<16x128x128xf32>, tensor<16x128xf32>)
      outs(%es : tensor<16x128x128xf32>) {
  ^bb0(%pe: f32, %se: f32, %out: f32):
    %r = arith.divf %pe, %se : f32
    linalg.yield %r : f32
  } -> tensor<16x128x128xf32>
  %eo = tensor.empty() : tensor<16x128x64xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<16x128x64xf32>) -> tensor<16x128x64xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<16x128x128xf32>, tensor<16x128x64xf32>)
                           outs(%zo : tensor<16x128x64xf32>) -> tensor<16x128x64xf32>
  return %o : tensor<16x128x64xf32>
}

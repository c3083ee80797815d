// transformer.mlir with the callbacks a user adds while developing a
// model: an nx.io_callback after the attention and after the MLP that logs
// the residual stream (a passthrough: the host reads the buffer in place),
// and an nx.elixir_call in the middle that hands the attention's output to
// the host, which clips it to +-limit and returns a new tensor (the limit
// is far outside the values, so the result equals transformer.mlir's).

#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (j)>
#row = affine_map<(i, j) -> (i)>
#id3 = affine_map<(b, i, j) -> (b, i, j)>
#row3 = affine_map<(b, i, j) -> (b, i)>
#qmap = affine_map<(b, m, n, k) -> (b, m, k)>
#ktmap = affine_map<(b, m, n, k) -> (b, n, k)>
#smap = affine_map<(b, m, n, k) -> (b, m, n)>

// (x - mean) / sqrt(var + 1e-5) * g + b over the rows of x.
nx.callback @log_residual : (tensor<512x256xf32>) -> ()
nx.callback @clip : (tensor<512x256xf32>) -> tensor<512x256xf32>

func.func private @layernorm(%x: tensor<512x256xf32>, %g: tensor<256xf32>,
                             %b: tensor<256xf32>) -> tensor<512x256xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 256.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %er = tensor.empty() : tensor<512xf32>
  %z = linalg.fill ins(%zero : f32) outs(%er : tensor<512xf32>) -> tensor<512xf32>
  %sum = linalg.reduce ins(%x : tensor<512x256xf32>) outs(%z : tensor<512xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %t = arith.addf %in, %acc : f32
      linalg.yield %t : f32
    }
  %e = tensor.empty() : tensor<512x256xf32>
  %xc = linalg.generic {indexing_maps = [#id, #row, #id],
                        iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum : tensor<512x256xf32>, tensor<512xf32>)
      outs(%e : tensor<512x256xf32>) {
  ^bb0(%v: f32, %s: f32, %out: f32):
    %mean = arith.divf %s, %n : f32
    %c = arith.subf %v, %mean : f32
    linalg.yield %c : f32
  } -> tensor<512x256xf32>
  %var = linalg.generic {indexing_maps = [#id, #row],
                         iterator_types = ["parallel", "reduction"]}
      ins(%xc : tensor<512x256xf32>) outs(%z : tensor<512xf32>) {
  ^bb0(%c: f32, %acc: f32):
    %sq = arith.mulf %c, %c : f32
    %t = arith.addf %sq, %acc : f32
    linalg.yield %t : f32
  } -> tensor<512xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #col, #col, #id],
                       iterator_types = ["parallel", "parallel"]}
      ins(%xc, %var, %g, %b : tensor<512x256xf32>, tensor<512xf32>, tensor<256xf32>, tensor<256xf32>)
      outs(%e : tensor<512x256xf32>) {
  ^bb0(%c: f32, %v: f32, %gv: f32, %bv: f32, %out: f32):
    %mv = arith.divf %v, %n : f32
    %ve = arith.addf %mv, %eps : f32
    %r = math.rsqrt %ve : f32
    %s = arith.mulf %c, %r : f32
    %sg = arith.mulf %s, %gv : f32
    %o = arith.addf %sg, %bv : f32
    linalg.yield %o : f32
  } -> tensor<512x256xf32>
  return %y : tensor<512x256xf32>
}

// x w + b.
func.func private @dense(%x: tensor<512x256xf32>, %w: tensor<256x256xf32>,
                         %b: tensor<256xf32>) -> tensor<512x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<512x256xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<512x256xf32>) -> tensor<512x256xf32>
  %m = linalg.matmul ins(%x, %w : tensor<512x256xf32>, tensor<256x256xf32>)
                     outs(%z : tensor<512x256xf32>) -> tensor<512x256xf32>
  %y = linalg.generic {indexing_maps = [#id, #col, #id],
                       iterator_types = ["parallel", "parallel"]}
      ins(%m, %b : tensor<512x256xf32>, tensor<256xf32>)
      outs(%e : tensor<512x256xf32>) {
  ^bb0(%v: f32, %bv: f32, %out: f32):
    %s = arith.addf %v, %bv : f32
    linalg.yield %s : f32
  } -> tensor<512x256xf32>
  return %y : tensor<512x256xf32>
}

// 512x256 (4 batches of 128 tokens) to 16x128x64 (4 batches x 4 heads).
func.func private @split_heads(%x: tensor<512x256xf32>) -> tensor<16x128x64xf32> {
  %x4 = tensor.expand_shape %x [[0, 1], [2, 3]] output_shape [4, 128, 4, 64]
      : tensor<512x256xf32> into tensor<4x128x4x64xf32>
  %e = tensor.empty() : tensor<4x4x128x64xf32>
  %t = linalg.transpose ins(%x4 : tensor<4x128x4x64xf32>)
                        outs(%e : tensor<4x4x128x64xf32>) permutation = [0, 2, 1, 3]
  %h = tensor.collapse_shape %t [[0, 1], [2], [3]]
      : tensor<4x4x128x64xf32> into tensor<16x128x64xf32>
  return %h : tensor<16x128x64xf32>
}

func.func private @merge_heads(%x: tensor<16x128x64xf32>) -> tensor<512x256xf32> {
  %x4 = tensor.expand_shape %x [[0, 1], [2], [3]] output_shape [4, 4, 128, 64]
      : tensor<16x128x64xf32> into tensor<4x4x128x64xf32>
  %e = tensor.empty() : tensor<4x128x4x64xf32>
  %t = linalg.transpose ins(%x4 : tensor<4x4x128x64xf32>)
                        outs(%e : tensor<4x128x4x64xf32>) permutation = [0, 2, 1, 3]
  %m = tensor.collapse_shape %t [[0, 1], [2, 3]]
      : tensor<4x128x4x64xf32> into tensor<512x256xf32>
  return %m : tensor<512x256xf32>
}

func.func @transformer_callbacks(%x: tensor<4x128x256xf32>,
                       %ln1_g: tensor<256xf32>, %ln1_b: tensor<256xf32>,
                       %wq: tensor<256x256xf32>, %bq: tensor<256xf32>,
                       %wk: tensor<256x256xf32>, %bk: tensor<256xf32>,
                       %wv: tensor<256x256xf32>, %bv: tensor<256xf32>,
                       %wo: tensor<256x256xf32>, %bo: tensor<256xf32>,
                       %ln2_g: tensor<256xf32>, %ln2_b: tensor<256xf32>,
                       %w1: tensor<256x1024xf32>, %b1: tensor<1024xf32>,
                       %w2: tensor<1024x256xf32>, %b2: tensor<256xf32>)
    -> tensor<4x128x256xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.125 : f32
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %rsqrt2 = arith.constant 0.707106781 : f32

  %x2 = tensor.collapse_shape %x [[0, 1], [2]]
      : tensor<4x128x256xf32> into tensor<512x256xf32>

  // Attention.
  %a = func.call @layernorm(%x2, %ln1_g, %ln1_b)
      : (tensor<512x256xf32>, tensor<256xf32>, tensor<256xf32>) -> tensor<512x256xf32>
  %q2 = func.call @dense(%a, %wq, %bq)
      : (tensor<512x256xf32>, tensor<256x256xf32>, tensor<256xf32>) -> tensor<512x256xf32>
  %k2 = func.call @dense(%a, %wk, %bk)
      : (tensor<512x256xf32>, tensor<256x256xf32>, tensor<256xf32>) -> tensor<512x256xf32>
  %v2 = func.call @dense(%a, %wv, %bv)
      : (tensor<512x256xf32>, tensor<256x256xf32>, tensor<256xf32>) -> tensor<512x256xf32>
  %q = func.call @split_heads(%q2) : (tensor<512x256xf32>) -> tensor<16x128x64xf32>
  %k = func.call @split_heads(%k2) : (tensor<512x256xf32>) -> tensor<16x128x64xf32>
  %v = func.call @split_heads(%v2) : (tensor<512x256xf32>) -> tensor<16x128x64xf32>

  %es = tensor.empty() : tensor<16x128x128xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<16x128x128xf32>) -> tensor<16x128x128xf32>
  %s = linalg.batch_matmul indexing_maps = [#qmap, #ktmap, #smap]
      ins(%q, %k : tensor<16x128x64xf32>, tensor<16x128x64xf32>)
      outs(%zs : tensor<16x128x128xf32>) -> tensor<16x128x128xf32>
  %er = tensor.empty() : tensor<16x128xf32>
  %max0 = linalg.fill ins(%ninf : f32) outs(%er : tensor<16x128xf32>) -> tensor<16x128xf32>
  %max = linalg.reduce ins(%s : tensor<16x128x128xf32>) outs(%max0 : tensor<16x128xf32>) dimensions = [2]
    (%in: f32, %acc: f32) {
      %t = arith.maximumf %in, %acc : f32
      linalg.yield %t : f32
    }
  %p0 = linalg.generic {indexing_maps = [#id3, #row3, #id3],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %max : tensor<16x128x128xf32>, tensor<16x128xf32>)
      outs(%es : tensor<16x128x128xf32>) {
  ^bb0(%sv: f32, %m: f32, %out: f32):
    %d = arith.subf %sv, %m : f32
    %ds = arith.mulf %d, %scale : f32
    %ex = math.exp %ds : f32
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
  %om = func.call @merge_heads(%o) : (tensor<16x128x64xf32>) -> tensor<512x256xf32>
  %proj = func.call @dense(%om, %wo, %bo)
      : (tensor<512x256xf32>, tensor<256x256xf32>, tensor<256xf32>) -> tensor<512x256xf32>
  %e2 = tensor.empty() : tensor<512x256xf32>
  %x1 = linalg.generic {indexing_maps = [#id, #id, #id],
                        iterator_types = ["parallel", "parallel"]}
      ins(%x2, %proj : tensor<512x256xf32>, tensor<512x256xf32>)
      outs(%e2 : tensor<512x256xf32>) {
  ^bb0(%xv: f32, %pv: f32, %out: f32):
    %r = arith.addf %xv, %pv : f32
    linalg.yield %r : f32
  } -> tensor<512x256xf32>
  %x1_logged = nx.io_callback @log_residual(%x1) : tensor<512x256xf32>
  %x1_clipped = nx.elixir_call @clip(%x1_logged) static_args {limit = 100.0 : f32} : (tensor<512x256xf32>) -> tensor<512x256xf32>

  // MLP.
  %n2 = func.call @layernorm(%x1_clipped, %ln2_g, %ln2_b)
      : (tensor<512x256xf32>, tensor<256xf32>, tensor<256xf32>) -> tensor<512x256xf32>
  %eh = tensor.empty() : tensor<512x1024xf32>
  %zh = linalg.fill ins(%zero : f32) outs(%eh : tensor<512x1024xf32>) -> tensor<512x1024xf32>
  %mh = linalg.matmul ins(%n2, %w1 : tensor<512x256xf32>, tensor<256x1024xf32>)
                      outs(%zh : tensor<512x1024xf32>) -> tensor<512x1024xf32>
  %h = linalg.generic {indexing_maps = [#id, #col, #id],
                       iterator_types = ["parallel", "parallel"]}
      ins(%mh, %b1 : tensor<512x1024xf32>, tensor<1024xf32>)
      outs(%eh : tensor<512x1024xf32>) {
  ^bb0(%mv: f32, %bb: f32, %out: f32):
    // GELU: 0.5 t (1 + erf(t / sqrt(2))).
    %t = arith.addf %mv, %bb : f32
    %ts = arith.mulf %t, %rsqrt2 : f32
    %er1 = math.erf %ts : f32
    %e1 = arith.addf %er1, %one : f32
    %th = arith.mulf %t, %half : f32
    %g = arith.mulf %th, %e1 : f32
    linalg.yield %g : f32
  } -> tensor<512x1024xf32>
  %ze = linalg.fill ins(%zero : f32) outs(%e2 : tensor<512x256xf32>) -> tensor<512x256xf32>
  %my = linalg.matmul ins(%h, %w2 : tensor<512x1024xf32>, tensor<1024x256xf32>)
                      outs(%ze : tensor<512x256xf32>) -> tensor<512x256xf32>
  %y2 = linalg.generic {indexing_maps = [#id, #col, #id, #id],
                        iterator_types = ["parallel", "parallel"]}
      ins(%x1_clipped, %b2, %my : tensor<512x256xf32>, tensor<256xf32>, tensor<512x256xf32>)
      outs(%e2 : tensor<512x256xf32>) {
  ^bb0(%xv: f32, %bb: f32, %mv: f32, %out: f32):
    %s1 = arith.addf %xv, %bb : f32
    %r = arith.addf %s1, %mv : f32
    linalg.yield %r : f32
  } -> tensor<512x256xf32>
  %y2_logged = nx.io_callback @log_residual(%y2) : tensor<512x256xf32>
  %y = tensor.expand_shape %y2_logged [[0, 1], [2]] output_shape [4, 128, 256]
      : tensor<512x256xf32> into tensor<4x128x256xf32>
  return %y : tensor<4x128x256xf32>
}

// cnn.mlir with the callbacks a user adds while developing a model: an
// nx.io_callback after each block that logs its activations (a
// passthrough: the host reads the buffer in place), and an nx.elixir_call
// in the middle that hands the first block's output to the host, which
// clips it to +-limit and returns a new tensor (the limit is far outside
// the values, so the result equals cnn.mlir's).

#nhwc = affine_map<(n, h, w, c) -> (n, h, w, c)>
#chan = affine_map<(n, h, w, c) -> (c)>
#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (j)>
#row = affine_map<(i, j) -> (i)>

nx.callback @log_block1 : (tensor<8x16x16x32xf32>) -> ()
nx.callback @log_block2 : (tensor<8x8x8x64xf32>) -> ()
nx.callback @log_logits : (tensor<8x10xf32>) -> ()
nx.callback @clip : (tensor<8x16x16x32xf32>) -> tensor<8x16x16x32xf32>

func.func @cnn_callbacks(%x: tensor<8x32x32x3xf32>,
               %w1: tensor<3x3x3x32xf32>, %b1: tensor<32xf32>,
               %w2: tensor<3x3x32x64xf32>, %b2: tensor<64xf32>,
               %w3: tensor<4096x10xf32>, %b3: tensor<10xf32>)
    -> tensor<8x10xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32

  // Block 1.
  %xp = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<8x32x32x3xf32> to tensor<8x34x34x3xf32>
  %e1 = tensor.empty() : tensor<8x32x32x32xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8x32x32x32xf32>) -> tensor<8x32x32x32xf32>
  %c1 = linalg.conv_2d_nhwc_hwcf
      {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%xp, %w1 : tensor<8x34x34x3xf32>, tensor<3x3x3x32xf32>)
      outs(%z1 : tensor<8x32x32x32xf32>) -> tensor<8x32x32x32xf32>
  %r1 = linalg.generic {indexing_maps = [#nhwc, #chan, #nhwc],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c1, %b1 : tensor<8x32x32x32xf32>, tensor<32xf32>)
      outs(%e1 : tensor<8x32x32x32xf32>) {
  ^bb0(%v: f32, %b: f32, %out: f32):
    %s = arith.addf %v, %b : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<8x32x32x32xf32>
  %window = tensor.empty() : tensor<2x2xf32>
  %pe1 = tensor.empty() : tensor<8x16x16x32xf32>
  %pf1 = linalg.fill ins(%ninf : f32) outs(%pe1 : tensor<8x16x16x32xf32>) -> tensor<8x16x16x32xf32>
  %p1 = linalg.pooling_nhwc_max
      {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%r1, %window : tensor<8x32x32x32xf32>, tensor<2x2xf32>)
      outs(%pf1 : tensor<8x16x16x32xf32>) -> tensor<8x16x16x32xf32>
  %p1_logged = nx.io_callback @log_block1(%p1) : tensor<8x16x16x32xf32>
  %p1_clipped = nx.elixir_call @clip(%p1_logged) static_args {limit = 100.0 : f32} : (tensor<8x16x16x32xf32>) -> tensor<8x16x16x32xf32>

  // Block 2.
  %hp = tensor.pad %p1_clipped low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<8x16x16x32xf32> to tensor<8x18x18x32xf32>
  %e2 = tensor.empty() : tensor<8x16x16x64xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<8x16x16x64xf32>) -> tensor<8x16x16x64xf32>
  %c2 = linalg.conv_2d_nhwc_hwcf
      {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%hp, %w2 : tensor<8x18x18x32xf32>, tensor<3x3x32x64xf32>)
      outs(%z2 : tensor<8x16x16x64xf32>) -> tensor<8x16x16x64xf32>
  %r2 = linalg.generic {indexing_maps = [#nhwc, #chan, #nhwc],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c2, %b2 : tensor<8x16x16x64xf32>, tensor<64xf32>)
      outs(%e2 : tensor<8x16x16x64xf32>) {
  ^bb0(%v: f32, %b: f32, %out: f32):
    %s = arith.addf %v, %b : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<8x16x16x64xf32>
  %pe2 = tensor.empty() : tensor<8x8x8x64xf32>
  %pf2 = linalg.fill ins(%ninf : f32) outs(%pe2 : tensor<8x8x8x64xf32>) -> tensor<8x8x8x64xf32>
  %p2 = linalg.pooling_nhwc_max
      {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%r2, %window : tensor<8x16x16x64xf32>, tensor<2x2xf32>)
      outs(%pf2 : tensor<8x8x8x64xf32>) -> tensor<8x8x8x64xf32>
  %p2_logged = nx.io_callback @log_block2(%p2) : tensor<8x8x8x64xf32>

  // Dense layer and softmax.
  %flat = tensor.collapse_shape %p2_logged [[0], [1, 2, 3]]
      : tensor<8x8x8x64xf32> into tensor<8x4096xf32>
  %e3 = tensor.empty() : tensor<8x10xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<8x10xf32>) -> tensor<8x10xf32>
  %m3 = linalg.matmul ins(%flat, %w3 : tensor<8x4096xf32>, tensor<4096x10xf32>)
                      outs(%z3 : tensor<8x10xf32>) -> tensor<8x10xf32>
  %logits = linalg.generic {indexing_maps = [#id, #col, #id],
                            iterator_types = ["parallel", "parallel"]}
      ins(%m3, %b3 : tensor<8x10xf32>, tensor<10xf32>)
      outs(%e3 : tensor<8x10xf32>) {
  ^bb0(%m: f32, %b: f32, %out: f32):
    %s = arith.addf %m, %b : f32
    linalg.yield %s : f32
  } -> tensor<8x10xf32>
  %logits_logged = nx.io_callback @log_logits(%logits) : tensor<8x10xf32>
  %er = tensor.empty() : tensor<8xf32>
  %max0 = linalg.fill ins(%ninf : f32) outs(%er : tensor<8xf32>) -> tensor<8xf32>
  %max = linalg.reduce ins(%logits_logged : tensor<8x10xf32>) outs(%max0 : tensor<8xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %t = arith.maximumf %in, %acc : f32
      linalg.yield %t : f32
    }
  %exp = linalg.generic {indexing_maps = [#id, #row, #id],
                         iterator_types = ["parallel", "parallel"]}
      ins(%logits_logged, %max : tensor<8x10xf32>, tensor<8xf32>)
      outs(%e3 : tensor<8x10xf32>) {
  ^bb0(%l: f32, %m: f32, %out: f32):
    %d = arith.subf %l, %m : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<8x10xf32>
  %sum0 = linalg.fill ins(%zero : f32) outs(%er : tensor<8xf32>) -> tensor<8xf32>
  %sum = linalg.reduce ins(%exp : tensor<8x10xf32>) outs(%sum0 : tensor<8xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %t = arith.addf %in, %acc : f32
      linalg.yield %t : f32
    }
  %y = linalg.generic {indexing_maps = [#id, #row, #id],
                       iterator_types = ["parallel", "parallel"]}
      ins(%exp, %sum : tensor<8x10xf32>, tensor<8xf32>)
      outs(%e3 : tensor<8x10xf32>) {
  ^bb0(%e: f32, %s: f32, %out: f32):
    %q = arith.divf %e, %s : f32
    linalg.yield %q : f32
  } -> tensor<8x10xf32>
  return %y : tensor<8x10xf32>
}

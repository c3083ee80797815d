// mlp.mlir with the callbacks a user adds while developing a model: an
// nx.io_callback after each layer that logs its activations (a
// passthrough: the host reads the buffer in place), and an nx.elixir_call
// in the middle that hands the first layer's activations to the host,
// which clips them to +-limit and returns a new tensor (the limit is far
// outside the values, so the result equals mlp.mlir's).

#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (j)>
#row = affine_map<(i, j) -> (i)>

nx.callback @log_hidden : (tensor<256x512xf32>) -> ()
nx.callback @log_logits : (tensor<256x10xf32>) -> ()
nx.callback @clip : (tensor<256x512xf32>) -> tensor<256x512xf32>

func.func @mlp_callbacks(%x: tensor<256x784xf32>,
               %w1: tensor<784x512xf32>, %b1: tensor<512xf32>,
               %w2: tensor<512x512xf32>, %b2: tensor<512xf32>,
               %w3: tensor<512x10xf32>, %b3: tensor<10xf32>)
    -> tensor<256x10xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32

  %e1 = tensor.empty() : tensor<256x512xf32>
  %c1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<256x512xf32>) -> tensor<256x512xf32>
  %m1 = linalg.matmul ins(%x, %w1 : tensor<256x784xf32>, tensor<784x512xf32>)
                      outs(%c1 : tensor<256x512xf32>) -> tensor<256x512xf32>
  %h1 = linalg.generic {indexing_maps = [#id, #col, #id],
                        iterator_types = ["parallel", "parallel"]}
      ins(%m1, %b1 : tensor<256x512xf32>, tensor<512xf32>)
      outs(%e1 : tensor<256x512xf32>) {
  ^bb0(%m: f32, %b: f32, %out: f32):
    %s = arith.addf %m, %b : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<256x512xf32>
  %h1_logged = nx.io_callback @log_hidden(%h1) : tensor<256x512xf32>
  %h1_clipped = nx.elixir_call @clip(%h1_logged) static_args {limit = 100.0 : f32} : (tensor<256x512xf32>) -> tensor<256x512xf32>

  %c2 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<256x512xf32>) -> tensor<256x512xf32>
  %m2 = linalg.matmul ins(%h1_clipped, %w2 : tensor<256x512xf32>, tensor<512x512xf32>)
                      outs(%c2 : tensor<256x512xf32>) -> tensor<256x512xf32>
  %h2 = linalg.generic {indexing_maps = [#id, #col, #id],
                        iterator_types = ["parallel", "parallel"]}
      ins(%m2, %b2 : tensor<256x512xf32>, tensor<512xf32>)
      outs(%e1 : tensor<256x512xf32>) {
  ^bb0(%m: f32, %b: f32, %out: f32):
    %s = arith.addf %m, %b : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<256x512xf32>
  %h2_logged = nx.io_callback @log_hidden(%h2) : tensor<256x512xf32>

  %e3 = tensor.empty() : tensor<256x10xf32>
  %c3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<256x10xf32>) -> tensor<256x10xf32>
  %m3 = linalg.matmul ins(%h2_logged, %w3 : tensor<256x512xf32>, tensor<512x10xf32>)
                      outs(%c3 : tensor<256x10xf32>) -> tensor<256x10xf32>
  %logits = linalg.generic {indexing_maps = [#id, #col, #id],
                            iterator_types = ["parallel", "parallel"]}
      ins(%m3, %b3 : tensor<256x10xf32>, tensor<10xf32>)
      outs(%e3 : tensor<256x10xf32>) {
  ^bb0(%m: f32, %b: f32, %out: f32):
    %s = arith.addf %m, %b : f32
    linalg.yield %s : f32
  } -> tensor<256x10xf32>
  %logits_logged = nx.io_callback @log_logits(%logits) : tensor<256x10xf32>

  // Softmax over each row: subtract the row's maximum, exponentiate,
  // divide by the row's sum.
  %er = tensor.empty() : tensor<256xf32>
  %max0 = linalg.fill ins(%ninf : f32) outs(%er : tensor<256xf32>) -> tensor<256xf32>
  %max = linalg.reduce ins(%logits_logged : tensor<256x10xf32>) outs(%max0 : tensor<256xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %t = arith.maximumf %in, %acc : f32
      linalg.yield %t : f32
    }
  %exp = linalg.generic {indexing_maps = [#id, #row, #id],
                         iterator_types = ["parallel", "parallel"]}
      ins(%logits_logged, %max : tensor<256x10xf32>, tensor<256xf32>)
      outs(%e3 : tensor<256x10xf32>) {
  ^bb0(%l: f32, %m: f32, %out: f32):
    %d = arith.subf %l, %m : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<256x10xf32>
  %sum0 = linalg.fill ins(%zero : f32) outs(%er : tensor<256xf32>) -> tensor<256xf32>
  %sum = linalg.reduce ins(%exp : tensor<256x10xf32>) outs(%sum0 : tensor<256xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %t = arith.addf %in, %acc : f32
      linalg.yield %t : f32
    }
  %y = linalg.generic {indexing_maps = [#id, #row, #id],
                       iterator_types = ["parallel", "parallel"]}
      ins(%exp, %sum : tensor<256x10xf32>, tensor<256xf32>)
      outs(%e3 : tensor<256x10xf32>) {
  ^bb0(%e: f32, %s: f32, %out: f32):
    %q = arith.divf %e, %s : f32
    linalg.yield %q : f32
  } -> tensor<256x10xf32>
  return %y : tensor<256x10xf32>
}

// One op: the position of each row's maximum in a 2048x2048 matrix (the
// first, where several are equal), as a generic of two results: the running
// maximum and its position (linalg.index). nx-split-index-reductions keeps
// a (maximum, position) pair per vector lane.
func.func @argmax(%x: tensor<2048x2048xf32>) -> tensor<2048xi32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<2048xf32>
  %ei = tensor.empty() : tensor<2048xi32>
  %m = linalg.fill ins(%ninf : f32) outs(%e : tensor<2048xf32>) -> tensor<2048xf32>
  %i = linalg.fill ins(%zero : i32) outs(%ei : tensor<2048xi32>) -> tensor<2048xi32>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>],
                         iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<2048x2048xf32>) outs(%m, %i : tensor<2048xf32>, tensor<2048xi32>) {
  ^bb0(%in: f32, %max: f32, %position: i32):
    %j = linalg.index 1 : index
    %jj = arith.index_cast %j : index to i32
    %greater = arith.cmpf ogt, %in, %max : f32
    %newMax = arith.select %greater, %in, %max : f32
    %newPosition = arith.select %greater, %jj, %position : i32
    linalg.yield %newMax, %newPosition : f32, i32
  } -> (tensor<2048xf32>, tensor<2048xi32>)
  return %r#1 : tensor<2048xi32>
}

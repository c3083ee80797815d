// Math functions on scalars and vectors; the type mutation puts them on
// tensors (tensor<16x16xf32>) and other element types.
// fuzz-pipeline: nx-approximate-math
// fuzz-pipeline: func.func(nx-approximate-math)
// fuzz-pipeline: nx-lower-to-cpu
// fuzz-pipeline: nx-lower-to-cpu{vectorize=false parallel=false blas=false libm-math=true strict-reductions=true max-function-ops=0}
// fuzz-pipeline: convert-to-llvm

func.func @scalar(%x: f32) -> f32 {
  %0 = math.exp %x : f32
  %1 = math.log1p %0 : f32
  %2 = math.tanh %1 : f32
  %3 = math.erf %2 : f32
  return %3 : f32
}

// -----

func.func @vector(%x: vector<16xf32>) -> vector<16xf32> {
  %0 = math.exp %x : vector<16xf32>
  %1 = math.sin %0 : vector<16xf32>
  %2 = math.atan %1 : vector<16xf32>
  return %2 : vector<16xf32>
}

// -----

func.func @half(%x: f16, %y: bf16) -> (f16, bf16) {
  %0 = math.exp %x : f16
  %1 = math.log %y : bf16
  return %0, %1 : f16, bf16
}

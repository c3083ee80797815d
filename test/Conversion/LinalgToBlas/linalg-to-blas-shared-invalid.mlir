// RUN: nx-opt %s -split-input-file -nx-linalg-to-blas="num-threads-function=threads" -verify-diagnostics

// The team-size function's name is taken by something else: the product
// cannot ask it for its team size.
// expected-error @+1 {{'func.func' op is named by num-threads-function; expected a func.func of type '() -> i32'}}
func.func private @threads() -> i64

func.func @large(%a: memref<128x128xf32>, %b: memref<128x128xf32>, %c: memref<128x128xf32>) {
  linalg.matmul ins(%a, %b : memref<128x128xf32>, memref<128x128xf32>) outs(%c : memref<128x128xf32>)
  return
}

// -----

// The declaration check runs for the shared products' parts too.
// expected-error @+1 {{'func.func' op uses the name 'nxrt_gemm_part_f64', which libnxrt's contractions have}}
func.func private @nxrt_gemm_part_f64()

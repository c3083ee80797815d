// Every pass that tiles linalg ops into subviews at static offsets first
// rejects an op whose known sizes put an access out of bounds: its tiles'
// subviews would not verify.
// RUN: nx-opt %s -split-input-file -verify-diagnostics -nx-linalg-to-openmp
// RUN: nx-opt %s -split-input-file -verify-diagnostics -nx-linalg-to-blas
// RUN: nx-opt %s -split-input-file -verify-diagnostics -nx-vectorize-linalg
// RUN: nx-opt %s -split-input-file -verify-diagnostics -nx-convolutions-to-gemm
// RUN: nx-opt %s -split-input-file -verify-diagnostics -nx-tile-transposes=tile-size=2

func.func @window_past_the_input(%in: memref<?x6x6x3xf32>, %filter: memref<3x3x3x4xf32>,
                                 %out: memref<?x4x4x4xf32>) {
  // expected-error @+1 {{'linalg.conv_2d_nhwc_hwcf' op accesses operand #0 at index 259 along dimension 1, past its size 6}}
  linalg.conv_2d_nhwc_hwcf {dilations = dense<128> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%in, %filter : memref<?x6x6x3xf32>, memref<3x3x3x4xf32>) outs(%out : memref<?x4x4x4xf32>)
  return
}

// -----

func.func @product_of_mismatched_sizes(%a: memref<64x8xf32>, %b: memref<16x32xf32>,
                                       %c: memref<64x32xf32>) {
  %bb = memref.cast %b : memref<16x32xf32> to memref<?x32xf32>
  // expected-error @+1 {{'linalg.matmul' op has loop 2 run 8 times by operand #0 but 16 times by operand #1}}
  linalg.matmul ins(%a, %bb : memref<64x8xf32>, memref<?x32xf32>) outs(%c : memref<64x32xf32>)
  return
}

// -----

func.func @transpose_of_mismatched_sizes(%x: memref<64x32xf32>) {
  %alloc = memref.alloc() : memref<32x48xf32>
  %y = memref.cast %alloc : memref<32x48xf32> to memref<32x?xf32>
  // expected-error @+1 {{'linalg.generic' op has loop 1 run 64 times by operand #0 but 48 times by operand #1}}
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<64x32xf32>) outs(%y : memref<32x?xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  }
  return
}

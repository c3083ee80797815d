// RUN: nx-opt %s -split-input-file -nx-check-static-bounds -verify-diagnostics

// A cast hides the input's height from linalg's verifier; canonicalization
// would fold it and make the op invalid. Rows 0..7 of 6 are read.
func.func @dilated_window_past_a_cast(%in: tensor<1x6x6x3xf32>, %filter: tensor<3x3x3x4xf32>,
                                      %out: tensor<?x4x4x4xf32>) -> tensor<?x4x4x4xf32> {
  %i = tensor.cast %in : tensor<1x6x6x3xf32> to tensor<?x?x?x3xf32>
  // expected-error @+1 {{'linalg.conv_2d_nhwc_hwcf' op accesses operand #0 at index 7 along dimension 1, past its size 6}}
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%i, %filter : tensor<?x?x?x3xf32>, tensor<3x3x3x4xf32>) outs(%out : tensor<?x4x4x4xf32>) -> tensor<?x4x4x4xf32>
  return %r : tensor<?x4x4x4xf32>
}

// -----

// A dynamic batch hides the static window from linalg's verifier.
func.func @window_past_the_input(%in: memref<?x6x6x3xf32>, %filter: memref<3x3x3x4xf32>,
                                 %out: memref<?x4x4x4xf32>) {
  // expected-error @+1 {{'linalg.conv_2d_nhwc_hwcf' op accesses operand #0 at index 259 along dimension 1, past its size 6}}
  linalg.conv_2d_nhwc_hwcf {dilations = dense<128> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%in, %filter : memref<?x6x6x3xf32>, memref<3x3x3x4xf32>) outs(%out : memref<?x4x4x4xf32>)
  return
}

// -----

// A dilation of 2^64 - 1 reads the i64 -1: the window walks backwards.
func.func @window_before_the_input(%in: memref<?x6x6x3xf32>, %filter: memref<3x3x3x4xf32>,
                                   %out: memref<?x4x4x4xf32>) {
  // expected-error @+1 {{'linalg.conv_2d_nhwc_hwcf' op accesses operand #0 at index -2 along dimension 1, before its start}}
  linalg.conv_2d_nhwc_hwcf {dilations = dense<18446744073709551615> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%in, %filter : memref<?x6x6x3xf32>, memref<3x3x3x4xf32>) outs(%out : memref<?x4x4x4xf32>)
  return
}

// -----

func.func @index_overflows(%in: memref<?x6x6x3xf32>, %filter: memref<3x3x3x4xf32>,
                           %out: memref<?x4x4x4xf32>) {
  // expected-error @+1 {{'linalg.conv_2d_nhwc_hwcf' op indexes dimension 1 of operand #0 with d1 * 9223372036854775807 + d4, which overflows int64}}
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<9223372036854775807> : tensor<2xi64>}
    ins(%in, %filter : memref<?x6x6x3xf32>, memref<3x3x3x4xf32>) outs(%out : memref<?x4x4x4xf32>)
  return
}

// -----

// tensor.empty of a constant size: canonicalization makes it static.
func.func @loop_run_twice_differently(%a: tensor<8xf32>) -> tensor<?xf32> {
  %c6 = arith.constant 6 : index
  %e = tensor.empty(%c6) : tensor<?xf32>
  // expected-error @+1 {{'linalg.generic' op has loop 0 run 8 times by operand #0 but 6 times by operand #1}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%a : tensor<8xf32>) outs(%e : tensor<?xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  } -> tensor<?xf32>
  return %r : tensor<?xf32>
}

// -----

// The init of a destination-style producer carries the size.
func.func @size_through_a_producer(%a: tensor<4xf32>, %b: tensor<5xf32>) -> tensor<?xf32> {
  %zero = arith.constant 0.0 : f32
  %c = tensor.cast %b : tensor<5xf32> to tensor<?xf32>
  %f = linalg.fill ins(%zero : f32) outs(%c : tensor<?xf32>) -> tensor<?xf32>
  // expected-error @+1 {{'linalg.add' op has loop 0 run 4 times by operand #0 but 5 times by operand #2}}
  %r = linalg.add ins(%a, %a : tensor<4xf32>, tensor<4xf32>) outs(%f : tensor<?xf32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}

// -----

// Bufferization would build a memref.expand_shape that rejects the shape.
func.func @expand_shape_contradicts_its_type(%a: tensor<64x32xf32>) -> tensor<4x16x32xf32> {
  // expected-error @+1 {{'tensor.expand_shape' op has output shape -1 at dimension 1 but its type has 16}}
  %r = tensor.expand_shape %a [[0, 1], [2]] output_shape [4, -1, 32]
      : tensor<64x32xf32> into tensor<4x16x32xf32>
  return %r : tensor<4x16x32xf32>
}

// -----

func.func @expand_shape_dynamic_for_a_static_size(%a: tensor<64xf32>, %n: index) -> tensor<4x16xf32> {
  // expected-error @+1 {{'tensor.expand_shape' op has output shape ? at dimension 1 but its type has 16}}
  %r = tensor.expand_shape %a [[0, 1]] output_shape [4, %n] : tensor<64xf32> into tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

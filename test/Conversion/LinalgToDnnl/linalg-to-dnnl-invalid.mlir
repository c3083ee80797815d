// RUN: nx-opt %s -split-input-file -nx-linalg-to-dnnl -verify-diagnostics

// expected-error @+1 {{'func.func' op uses the name 'nxrt_conv2d_f32', which libnxrt's convolutions have; expected their declaration '!llvm.func<void (i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, ptr, i64, i64, i64, i64, ptr, i64, i64, i64, i64, i64, ptr, i64, ptr, i64, i64, i64, i64)>'}}
func.func private @nxrt_conv2d_f32(memref<4x4xf32>)

// -----

// expected-error @+1 {{'llvm.func' op uses the name 'nxrt_conv2d_f32', which libnxrt's convolutions have}}
llvm.func @nxrt_conv2d_f32(i64)

// -----

// A filter that reaches past the input's size, known only behind a cast:
// the call would read past the buffer.
func.func @out_of_bounds(%in: memref<1x4x4x2xf32>, %filter: memref<3x3x2x2xf32>, %out: memref<1x3x3x2xf32>) {
  %dynamic = memref.cast %in : memref<1x4x4x2xf32> to memref<?x?x?x?xf32>
  // expected-error @+1 {{'linalg.conv_2d_nhwc_hwcf' op accesses operand #0 at index 4 along dimension 1, past its size 4}}
  linalg.conv_2d_nhwc_hwcf ins(%dynamic, %filter : memref<?x?x?x?xf32>, memref<3x3x2x2xf32>) outs(%out : memref<1x3x3x2xf32>)
  return
}

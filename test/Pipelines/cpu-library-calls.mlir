// nx-cpu-library-calls, nx-lower-to-cpu's third phase: a product runs on
// libnxrt's GEMM, shared out among the compute team's threads, and a 2-D
// convolution on oneDNN. With parallel=false the product is one call; with
// dnnl=false the convolution is an im2col copy and a product.
// RUN: nx-opt %s --nx-cpu-host-calls --nx-cpu-bufferize | nx-opt --nx-cpu-library-calls | FileCheck %s
// RUN: nx-opt %s --nx-cpu-host-calls --nx-cpu-bufferize \
// RUN:   | nx-opt --pass-pipeline='builtin.module(nx-cpu-library-calls{parallel=false dnnl=false})' \
// RUN:   | FileCheck %s --check-prefix=SERIAL

// CHECK-LABEL: func.func @main
// CHECK: %[[N:.*]] = call @nxrt_compute_threads() : () -> i32
// CHECK: omp.parallel num_threads(%[[N]] : i32)
// CHECK: llvm.call @nxrt_gemm_part_f32(
// CHECK-NOT: linalg.matmul
// CHECK: llvm.call @nxrt_conv2d_f32(
// CHECK-NOT: linalg.conv_2d
// SERIAL-LABEL: func.func @main
// SERIAL-NOT: omp.
// SERIAL: llvm.call @nxrt_gemm_f32(
// SERIAL: linalg.generic
// SERIAL: llvm.call @nxrt_gemm_f32(
// SERIAL-NOT: nxrt_conv2d_f32
func.func @main(%a: tensor<256x256xf32>, %b: tensor<256x256xf32>,
                %img: tensor<1x16x16x8xf32>, %f: tensor<3x3x8x8xf32>)
    -> (tensor<256x256xf32>, tensor<1x14x14x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<256x256xf32>)
      -> tensor<256x256xf32>
  %p = linalg.matmul ins(%a, %b : tensor<256x256xf32>, tensor<256x256xf32>)
                     outs(%z : tensor<256x256xf32>) -> tensor<256x256xf32>
  %ce = tensor.empty() : tensor<1x14x14x8xf32>
  %cz = linalg.fill ins(%zero : f32) outs(%ce : tensor<1x14x14x8xf32>)
      -> tensor<1x14x14x8xf32>
  %c = linalg.conv_2d_nhwc_hwcf
      ins(%img, %f : tensor<1x16x16x8xf32>, tensor<3x3x8x8xf32>)
      outs(%cz : tensor<1x14x14x8xf32>) -> tensor<1x14x14x8xf32>
  return %p, %c : tensor<256x256xf32>, tensor<1x14x14x8xf32>
}

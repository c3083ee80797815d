// 2-D convolutions run on oneDNN (f32, the default: nx-linalg-to-dnnl)
// and as im2col + matrix products on the optimized BLAS (--dnnl=false, and
// f64: nx-convolutions-to-gemm, then nx-linalg-to-blas), and give
// exactly what the loops give (--blas=false): every entry's printed result
// is compared byte for byte. The inputs are small integers (-3..3), so every
// partial sum is exact in f32 and f64 whatever the summation order, and the
// comparison needs no tolerance. Covered: each layout the pass takes (NHWC
// with HWCF and FHWC filters, NCHW with FCHW), stride 2, dilation 2,
// tensor.pad before the convolution, 1x1 convolutions (no patch matrix;
// with stride 2 one), batches, f32 and f64, and blocks of output rows or of
// whole images (more patch rows than the default row-block of 512).
//
// RUN: nx-runner %s --dnnl=false --entry=nhwc_hwcf_f32 > %t.nhwc_hwcf_f32.blas
// RUN: nx-runner %s --entry=nhwc_hwcf_f32 > %t.nhwc_hwcf_f32.default
// RUN: nx-runner %s --blas=false --entry=nhwc_hwcf_f32 > %t.nhwc_hwcf_f32.loops
// RUN: diff %t.nhwc_hwcf_f32.blas %t.nhwc_hwcf_f32.loops
// RUN: diff %t.nhwc_hwcf_f32.default %t.nhwc_hwcf_f32.loops
// RUN: nx-runner %s --dnnl=false --entry=nhwc_hwcf_stride2_f32 > %t.nhwc_hwcf_stride2_f32.blas
// RUN: nx-runner %s --entry=nhwc_hwcf_stride2_f32 > %t.nhwc_hwcf_stride2_f32.default
// RUN: nx-runner %s --blas=false --entry=nhwc_hwcf_stride2_f32 > %t.nhwc_hwcf_stride2_f32.loops
// RUN: diff %t.nhwc_hwcf_stride2_f32.blas %t.nhwc_hwcf_stride2_f32.loops
// RUN: diff %t.nhwc_hwcf_stride2_f32.default %t.nhwc_hwcf_stride2_f32.loops
// RUN: nx-runner %s --dnnl=false --entry=nhwc_hwcf_dilation2_f64 > %t.nhwc_hwcf_dilation2_f64.blas
// RUN: nx-runner %s --entry=nhwc_hwcf_dilation2_f64 > %t.nhwc_hwcf_dilation2_f64.default
// RUN: nx-runner %s --blas=false --entry=nhwc_hwcf_dilation2_f64 > %t.nhwc_hwcf_dilation2_f64.loops
// RUN: diff %t.nhwc_hwcf_dilation2_f64.blas %t.nhwc_hwcf_dilation2_f64.loops
// RUN: diff %t.nhwc_hwcf_dilation2_f64.default %t.nhwc_hwcf_dilation2_f64.loops
// RUN: nx-runner %s --dnnl=false --entry=nhwc_hwcf_padded_f32 > %t.nhwc_hwcf_padded_f32.blas
// RUN: nx-runner %s --entry=nhwc_hwcf_padded_f32 > %t.nhwc_hwcf_padded_f32.default
// RUN: nx-runner %s --blas=false --entry=nhwc_hwcf_padded_f32 > %t.nhwc_hwcf_padded_f32.loops
// RUN: diff %t.nhwc_hwcf_padded_f32.blas %t.nhwc_hwcf_padded_f32.loops
// RUN: diff %t.nhwc_hwcf_padded_f32.default %t.nhwc_hwcf_padded_f32.loops
// RUN: nx-runner %s --dnnl=false --entry=nhwc_hwcf_1x1_f32 > %t.nhwc_hwcf_1x1_f32.blas
// RUN: nx-runner %s --entry=nhwc_hwcf_1x1_f32 > %t.nhwc_hwcf_1x1_f32.default
// RUN: nx-runner %s --blas=false --entry=nhwc_hwcf_1x1_f32 > %t.nhwc_hwcf_1x1_f32.loops
// RUN: diff %t.nhwc_hwcf_1x1_f32.blas %t.nhwc_hwcf_1x1_f32.loops
// RUN: diff %t.nhwc_hwcf_1x1_f32.default %t.nhwc_hwcf_1x1_f32.loops
// RUN: nx-runner %s --dnnl=false --entry=nhwc_hwcf_1x1_stride2_f64 > %t.nhwc_hwcf_1x1_stride2_f64.blas
// RUN: nx-runner %s --entry=nhwc_hwcf_1x1_stride2_f64 > %t.nhwc_hwcf_1x1_stride2_f64.default
// RUN: nx-runner %s --blas=false --entry=nhwc_hwcf_1x1_stride2_f64 > %t.nhwc_hwcf_1x1_stride2_f64.loops
// RUN: diff %t.nhwc_hwcf_1x1_stride2_f64.blas %t.nhwc_hwcf_1x1_stride2_f64.loops
// RUN: diff %t.nhwc_hwcf_1x1_stride2_f64.default %t.nhwc_hwcf_1x1_stride2_f64.loops
// RUN: nx-runner %s --dnnl=false --entry=nhwc_hwcf_row_blocks_f32 > %t.nhwc_hwcf_row_blocks_f32.blas
// RUN: nx-runner %s --entry=nhwc_hwcf_row_blocks_f32 > %t.nhwc_hwcf_row_blocks_f32.default
// RUN: nx-runner %s --blas=false --entry=nhwc_hwcf_row_blocks_f32 > %t.nhwc_hwcf_row_blocks_f32.loops
// RUN: diff %t.nhwc_hwcf_row_blocks_f32.blas %t.nhwc_hwcf_row_blocks_f32.loops
// RUN: diff %t.nhwc_hwcf_row_blocks_f32.default %t.nhwc_hwcf_row_blocks_f32.loops
// RUN: nx-runner %s --dnnl=false --entry=nhwc_hwcf_image_blocks_f64 > %t.nhwc_hwcf_image_blocks_f64.blas
// RUN: nx-runner %s --entry=nhwc_hwcf_image_blocks_f64 > %t.nhwc_hwcf_image_blocks_f64.default
// RUN: nx-runner %s --blas=false --entry=nhwc_hwcf_image_blocks_f64 > %t.nhwc_hwcf_image_blocks_f64.loops
// RUN: diff %t.nhwc_hwcf_image_blocks_f64.blas %t.nhwc_hwcf_image_blocks_f64.loops
// RUN: diff %t.nhwc_hwcf_image_blocks_f64.default %t.nhwc_hwcf_image_blocks_f64.loops
// RUN: nx-runner %s --dnnl=false --entry=nhwc_fhwc_f64 > %t.nhwc_fhwc_f64.blas
// RUN: nx-runner %s --entry=nhwc_fhwc_f64 > %t.nhwc_fhwc_f64.default
// RUN: nx-runner %s --blas=false --entry=nhwc_fhwc_f64 > %t.nhwc_fhwc_f64.loops
// RUN: diff %t.nhwc_fhwc_f64.blas %t.nhwc_fhwc_f64.loops
// RUN: diff %t.nhwc_fhwc_f64.default %t.nhwc_fhwc_f64.loops
// RUN: nx-runner %s --dnnl=false --entry=nhwc_fhwc_padded_stride2_f32 > %t.nhwc_fhwc_padded_stride2_f32.blas
// RUN: nx-runner %s --entry=nhwc_fhwc_padded_stride2_f32 > %t.nhwc_fhwc_padded_stride2_f32.default
// RUN: nx-runner %s --blas=false --entry=nhwc_fhwc_padded_stride2_f32 > %t.nhwc_fhwc_padded_stride2_f32.loops
// RUN: diff %t.nhwc_fhwc_padded_stride2_f32.blas %t.nhwc_fhwc_padded_stride2_f32.loops
// RUN: diff %t.nhwc_fhwc_padded_stride2_f32.default %t.nhwc_fhwc_padded_stride2_f32.loops
// RUN: nx-runner %s --dnnl=false --entry=nchw_fchw_stride2_f32 > %t.nchw_fchw_stride2_f32.blas
// RUN: nx-runner %s --entry=nchw_fchw_stride2_f32 > %t.nchw_fchw_stride2_f32.default
// RUN: nx-runner %s --blas=false --entry=nchw_fchw_stride2_f32 > %t.nchw_fchw_stride2_f32.loops
// RUN: diff %t.nchw_fchw_stride2_f32.blas %t.nchw_fchw_stride2_f32.loops
// RUN: diff %t.nchw_fchw_stride2_f32.default %t.nchw_fchw_stride2_f32.loops
// RUN: nx-runner %s --dnnl=false --entry=nchw_fchw_dilation2_f64 > %t.nchw_fchw_dilation2_f64.blas
// RUN: nx-runner %s --entry=nchw_fchw_dilation2_f64 > %t.nchw_fchw_dilation2_f64.default
// RUN: nx-runner %s --blas=false --entry=nchw_fchw_dilation2_f64 > %t.nchw_fchw_dilation2_f64.loops
// RUN: diff %t.nchw_fchw_dilation2_f64.blas %t.nchw_fchw_dilation2_f64.loops
// RUN: diff %t.nchw_fchw_dilation2_f64.default %t.nchw_fchw_dilation2_f64.loops
// RUN: nx-runner %s --dnnl=false --entry=nchw_fchw_row_blocks_f32 > %t.nchw_fchw_row_blocks_f32.blas
// RUN: nx-runner %s --entry=nchw_fchw_row_blocks_f32 > %t.nchw_fchw_row_blocks_f32.default
// RUN: nx-runner %s --blas=false --entry=nchw_fchw_row_blocks_f32 > %t.nchw_fchw_row_blocks_f32.loops
// RUN: diff %t.nchw_fchw_row_blocks_f32.blas %t.nchw_fchw_row_blocks_f32.loops
// RUN: diff %t.nchw_fchw_row_blocks_f32.default %t.nchw_fchw_row_blocks_f32.loops
// RUN: nx-runner %s --dnnl=false --entry=nchw_fchw_1x1_f64 > %t.nchw_fchw_1x1_f64.blas
// RUN: nx-runner %s --entry=nchw_fchw_1x1_f64 > %t.nchw_fchw_1x1_f64.default
// RUN: nx-runner %s --blas=false --entry=nchw_fchw_1x1_f64 > %t.nchw_fchw_1x1_f64.loops
// RUN: diff %t.nchw_fchw_1x1_f64.blas %t.nchw_fchw_1x1_f64.loops
// RUN: diff %t.nchw_fchw_1x1_f64.default %t.nchw_fchw_1x1_f64.loops
// RUN: nx-runner %s --compute-threads=1 --entry=nhwc_hwcf_row_blocks_f32 | diff - %t.nhwc_hwcf_row_blocks_f32.loops
// RUN: nx-runner %s --compute-threads=2 --entry=nchw_fchw_row_blocks_f32 | diff - %t.nchw_fchw_row_blocks_f32.loops
// The results are the convolutions' (one spot-checked value), and the
// lowered program calls BLAS and has no convolution left.
// RUN: FileCheck %s --input-file=%t.nhwc_hwcf_1x1_f32.blas --check-prefix=POINTWISE
// POINTWISE: result #0: tensor<2x4x4x6xf32> = {{\[}}{{\[}}{{\[}}[16, 20, 10, -14, -3, -6], [-20, 3, 12, 7, -12, 4],
// RUN: nx-runner %s --dnnl=false --print-lowered | FileCheck %s --check-prefix=LOWERED
// LOWERED-DAG: llvm.call @nxrt_gemm_f32(
// LOWERED-DAG: llvm.call @nxrt_gemm_f64(
// LOWERED-NOT: conv_2d
// RUN: nx-runner %s --print-lowered | FileCheck %s --check-prefix=DNNL
// DNNL-DAG: llvm.call @nxrt_conv2d_f32(
// DNNL-DAG: llvm.call @nxrt_gemm_f64(
// DNNL-NOT: conv_2d

func.func @nhwc_hwcf_f32() -> tensor<2x5x5x4xf32> {
  %x_e = tensor.empty() : tensor<2x7x7x3xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%x_e : tensor<2x7x7x3xf32>) {
  ^bb0(%o: f32):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %i3 = linalg.index 3 : index
    %m = arith.constant 5 : index
    %s0 = arith.muli %i0, %m : index
    %s1 = arith.addi %s0, %i1 : index
    %s2 = arith.muli %s1, %m : index
    %s3 = arith.addi %s2, %i2 : index
    %s4 = arith.muli %s3, %m : index
    %s5 = arith.addi %s4, %i3 : index
    %seven = arith.constant 7 : index
    %r = arith.remui %s5, %seven : index
    %ri = arith.index_cast %r : index to i64
    %f = arith.sitofp %ri : i64 to f32
    %three = arith.constant 3.0 : f32
    %v = arith.subf %f, %three : f32
    linalg.yield %v : f32
  } -> tensor<2x7x7x3xf32>
  %w_e = tensor.empty() : tensor<3x3x3x4xf32>
  %w = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%w_e : tensor<3x3x3x4xf32>) {
  ^bb0(%o: f32):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %i3 = linalg.index 3 : index
    %m = arith.constant 3 : index
    %s0 = arith.muli %i0, %m : index
    %s1 = arith.addi %s0, %i1 : index
    %s2 = arith.muli %s1, %m : index
    %s3 = arith.addi %s2, %i2 : index
    %s4 = arith.muli %s3, %m : index
    %s5 = arith.addi %s4, %i3 : index
    %seven = arith.constant 7 : index
    %r = arith.remui %s5, %seven : index
    %ri = arith.index_cast %r : index to i64
    %f = arith.sitofp %ri : i64 to f32
    %three = arith.constant 3.0 : f32
    %v = arith.subf %f, %three : f32
    linalg.yield %v : f32
  } -> tensor<3x3x3x4xf32>
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<2x5x5x4xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<2x5x5x4xf32>) -> tensor<2x5x5x4xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : tensor<2x7x7x3xf32>, tensor<3x3x3x4xf32>) outs(%acc : tensor<2x5x5x4xf32>) -> tensor<2x5x5x4xf32>
  return %r : tensor<2x5x5x4xf32>
}

func.func @nhwc_hwcf_stride2_f32() -> tensor<1x4x4x5xf32> {
  %x_e = tensor.empty() : tensor<1x9x9x4xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%x_e : tensor<1x9x9x4xf32>) {
  ^bb0(%o: f32):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %i3 = linalg.index 3 : index
    %m = arith.constant 5 : index
    %s0 = arith.muli %i0, %m : index
    %s1 = arith.addi %s0, %i1 : index
    %s2 = arith.muli %s1, %m : index
    %s3 = arith.addi %s2, %i2 : index
    %s4 = arith.muli %s3, %m : index
    %s5 = arith.addi %s4, %i3 : index
    %seven = arith.constant 7 : index
    %r = arith.remui %s5, %seven : index
    %ri = arith.index_cast %r : index to i64
    %f = arith.sitofp %ri : i64 to f32
    %three = arith.constant 3.0 : f32
    %v = arith.subf %f, %three : f32
    linalg.yield %v : f32
  } -> tensor<1x9x9x4xf32>
  %w_e = tensor.empty() : tensor<3x3x4x5xf32>
  %w = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%w_e : tensor<3x3x4x5xf32>) {
  ^bb0(%o: f32):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %i3 = linalg.index 3 : index
    %m = arith.constant 3 : index
    %s0 = arith.muli %i0, %m : index
    %s1 = arith.addi %s0, %i1 : index
    %s2 = arith.muli %s1, %m : index
    %s3 = arith.addi %s2, %i2 : index
    %s4 = arith.muli %s3, %m : index
    %s5 = arith.addi %s4, %i3 : index
    %seven = arith.constant 7 : index
    %r = arith.remui %s5, %seven : index
    %ri = arith.index_cast %r : index to i64
    %f = arith.sitofp %ri : i64 to f32
    %three = arith.constant 3.0 : f32
    %v = arith.subf %f, %three : f32
    linalg.yield %v : f32
  } -> tensor<3x3x4x5xf32>
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<1x4x4x5xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<1x4x4x5xf32>) -> tensor<1x4x4x5xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%x, %w : tensor<1x9x9x4xf32>, tensor<3x3x4x5xf32>) outs(%acc : tensor<1x4x4x5xf32>) -> tensor<1x4x4x5xf32>
  return %r : tensor<1x4x4x5xf32>
}

func.func @nhwc_hwcf_dilation2_f64() -> tensor<1x5x6x4xf64> {
  %x_e = tensor.empty() : tensor<1x9x8x3xf64>
  %x = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%x_e : tensor<1x9x8x3xf64>) {
  ^bb0(%o: f64):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %i3 = linalg.index 3 : index
    %m = arith.constant 5 : index
    %s0 = arith.muli %i0, %m : index
    %s1 = arith.addi %s0, %i1 : index
    %s2 = arith.muli %s1, %m : index
    %s3 = arith.addi %s2, %i2 : index
    %s4 = arith.muli %s3, %m : index
    %s5 = arith.addi %s4, %i3 : index
    %seven = arith.constant 7 : index
    %r = arith.remui %s5, %seven : index
    %ri = arith.index_cast %r : index to i64
    %f = arith.sitofp %ri : i64 to f64
    %three = arith.constant 3.0 : f64
    %v = arith.subf %f, %three : f64
    linalg.yield %v : f64
  } -> tensor<1x9x8x3xf64>
  %w_e = tensor.empty() : tensor<3x2x3x4xf64>
  %w = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%w_e : tensor<3x2x3x4xf64>) {
  ^bb0(%o: f64):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %i3 = linalg.index 3 : index
    %m = arith.constant 3 : index
    %s0 = arith.muli %i0, %m : index
    %s1 = arith.addi %s0, %i1 : index
    %s2 = arith.muli %s1, %m : index
    %s3 = arith.addi %s2, %i2 : index
    %s4 = arith.muli %s3, %m : index
    %s5 = arith.addi %s4, %i3 : index
    %seven = arith.constant 7 : index
    %r = arith.remui %s5, %seven : index
    %ri = arith.index_cast %r : index to i64
    %f = arith.sitofp %ri : i64 to f64
    %three = arith.constant 3.0 : f64
    %v = arith.subf %f, %three : f64
    linalg.yield %v : f64
  } -> tensor<3x2x3x4xf64>
  %zero = arith.constant 0.0 : f64
  %init = tensor.empty() : tensor<1x5x6x4xf64>
  %acc = linalg.fill ins(%zero : f64) outs(%init : tensor<1x5x6x4xf64>) -> tensor<1x5x6x4xf64>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : tensor<1x9x8x3xf64>, tensor<3x2x3x4xf64>) outs(%acc : tensor<1x5x6x4xf64>) -> tensor<1x5x6x4xf64>
  return %r : tensor<1x5x6x4xf64>
}

func.func @nhwc_hwcf_padded_f32() -> tensor<1x6x6x4xf32> {
  %x_e = tensor.empty() : tensor<1x6x6x3xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%x_e : tensor<1x6x6x3xf32>) {
  ^bb0(%o: f32):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %i3 = linalg.index 3 : index
    %m = arith.constant 5 : index
    %s0 = arith.muli %i0, %m : index
    %s1 = arith.addi %s0, %i1 : index
    %s2 = arith.muli %s1, %m : index
    %s3 = arith.addi %s2, %i2 : index
    %s4 = arith.muli %s3, %m : index
    %s5 = arith.addi %s4, %i3 : index
    %seven = arith.constant 7 : index
    %r = arith.remui %s5, %seven : index
    %ri = arith.index_cast %r : index to i64
    %f = arith.sitofp %ri : i64 to f32
    %three = arith.constant 3.0 : f32
    %v = arith.subf %f, %three : f32
    linalg.yield %v : f32
  } -> tensor<1x6x6x3xf32>
  %w_e = tensor.empty() : tensor<3x3x3x4xf32>
  %w = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%w_e : tensor<3x3x3x4xf32>) {
  ^bb0(%o: f32):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %i3 = linalg.index 3 : index
    %m = arith.constant 3 : index
    %s0 = arith.muli %i0, %m : index
    %s1 = arith.addi %s0, %i1 : index
    %s2 = arith.muli %s1, %m : index
    %s3 = arith.addi %s2, %i2 : index
    %s4 = arith.muli %s3, %m : index
    %s5 = arith.addi %s4, %i3 : index
    %seven = arith.constant 7 : index
    %r = arith.remui %s5, %seven : index
    %ri = arith.index_cast %r : index to i64
    %f = arith.sitofp %ri : i64 to f32
    %three = arith.constant 3.0 : f32
    %v = arith.subf %f, %three : f32
    linalg.yield %v : f32
  } -> tensor<3x3x3x4xf32>
  %zero = arith.constant 0.0 : f32
  %padded = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<1x6x6x3xf32> to tensor<1x8x8x3xf32>
  %init = tensor.empty() : tensor<1x6x6x4xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%padded, %w : tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) outs(%acc : tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32>
  return %r : tensor<1x6x6x4xf32>
}

func.func @nhwc_hwcf_1x1_f32() -> tensor<2x4x4x6xf32> {
  %x_e = tensor.empty() : tensor<2x4x4x8xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%x_e : tensor<2x4x4x8xf32>) {
  ^bb0(%o: f32):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %i3 = linalg.index 3 : index
    %m = arith.constant 5 : index
    %s0 = arith.muli %i0, %m : index
    %s1 = arith.addi %s0, %i1 : index
    %s2 = arith.muli %s1, %m : index
    %s3 = arith.addi %s2, %i2 : index
    %s4 = arith.muli %s3, %m : index
    %s5 = arith.addi %s4, %i3 : index
    %seven = arith.constant 7 : index
    %r = arith.remui %s5, %seven : index
    %ri = arith.index_cast %r : index to i64
    %f = arith.sitofp %ri : i64 to f32
    %three = arith.constant 3.0 : f32
    %v = arith.subf %f, %three : f32
    linalg.yield %v : f32
  } -> tensor<2x4x4x8xf32>
  %w_e = tensor.empty() : tensor<1x1x8x6xf32>
  %w = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%w_e : tensor<1x1x8x6xf32>) {
  ^bb0(%o: f32):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %i3 = linalg.index 3 : index
    %m = arith.constant 3 : index
    %s0 = arith.muli %i0, %m : index
    %s1 = arith.addi %s0, %i1 : index
    %s2 = arith.muli %s1, %m : index
    %s3 = arith.addi %s2, %i2 : index
    %s4 = arith.muli %s3, %m : index
    %s5 = arith.addi %s4, %i3 : index
    %seven = arith.constant 7 : index
    %r = arith.remui %s5, %seven : index
    %ri = arith.index_cast %r : index to i64
    %f = arith.sitofp %ri : i64 to f32
    %three = arith.constant 3.0 : f32
    %v = arith.subf %f, %three : f32
    linalg.yield %v : f32
  } -> tensor<1x1x8x6xf32>
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<2x4x4x6xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<2x4x4x6xf32>) -> tensor<2x4x4x6xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : tensor<2x4x4x8xf32>, tensor<1x1x8x6xf32>) outs(%acc : tensor<2x4x4x6xf32>) -> tensor<2x4x4x6xf32>
  return %r : tensor<2x4x4x6xf32>
}

func.func @nhwc_hwcf_1x1_stride2_f64() -> tensor<1x4x4x3xf64> {
  %x_e = tensor.empty() : tensor<1x7x7x4xf64>
  %x = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%x_e : tensor<1x7x7x4xf64>) {
  ^bb0(%o: f64):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %i3 = linalg.index 3 : index
    %m = arith.constant 5 : index
    %s0 = arith.muli %i0, %m : index
    %s1 = arith.addi %s0, %i1 : index
    %s2 = arith.muli %s1, %m : index
    %s3 = arith.addi %s2, %i2 : index
    %s4 = arith.muli %s3, %m : index
    %s5 = arith.addi %s4, %i3 : index
    %seven = arith.constant 7 : index
    %r = arith.remui %s5, %seven : index
    %ri = arith.index_cast %r : index to i64
    %f = arith.sitofp %ri : i64 to f64
    %three = arith.constant 3.0 : f64
    %v = arith.subf %f, %three : f64
    linalg.yield %v : f64
  } -> tensor<1x7x7x4xf64>
  %w_e = tensor.empty() : tensor<1x1x4x3xf64>
  %w = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%w_e : tensor<1x1x4x3xf64>) {
  ^bb0(%o: f64):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %i3 = linalg.index 3 : index
    %m = arith.constant 3 : index
    %s0 = arith.muli %i0, %m : index
    %s1 = arith.addi %s0, %i1 : index
    %s2 = arith.muli %s1, %m : index
    %s3 = arith.addi %s2, %i2 : index
    %s4 = arith.muli %s3, %m : index
    %s5 = arith.addi %s4, %i3 : index
    %seven = arith.constant 7 : index
    %r = arith.remui %s5, %seven : index
    %ri = arith.index_cast %r : index to i64
    %f = arith.sitofp %ri : i64 to f64
    %three = arith.constant 3.0 : f64
    %v = arith.subf %f, %three : f64
    linalg.yield %v : f64
  } -> tensor<1x1x4x3xf64>
  %zero = arith.constant 0.0 : f64
  %init = tensor.empty() : tensor<1x4x4x3xf64>
  %acc = linalg.fill ins(%zero : f64) outs(%init : tensor<1x4x4x3xf64>) -> tensor<1x4x4x3xf64>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%x, %w : tensor<1x7x7x4xf64>, tensor<1x1x4x3xf64>) outs(%acc : tensor<1x4x4x3xf64>) -> tensor<1x4x4x3xf64>
  return %r : tensor<1x4x4x3xf64>
}

func.func @nhwc_hwcf_row_blocks_f32() -> tensor<1x28x28x3xf32> {
  %x_e = tensor.empty() : tensor<1x30x30x2xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%x_e : tensor<1x30x30x2xf32>) {
  ^bb0(%o: f32):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %i3 = linalg.index 3 : index
    %m = arith.constant 5 : index
    %s0 = arith.muli %i0, %m : index
    %s1 = arith.addi %s0, %i1 : index
    %s2 = arith.muli %s1, %m : index
    %s3 = arith.addi %s2, %i2 : index
    %s4 = arith.muli %s3, %m : index
    %s5 = arith.addi %s4, %i3 : index
    %seven = arith.constant 7 : index
    %r = arith.remui %s5, %seven : index
    %ri = arith.index_cast %r : index to i64
    %f = arith.sitofp %ri : i64 to f32
    %three = arith.constant 3.0 : f32
    %v = arith.subf %f, %three : f32
    linalg.yield %v : f32
  } -> tensor<1x30x30x2xf32>
  %w_e = tensor.empty() : tensor<3x3x2x3xf32>
  %w = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%w_e : tensor<3x3x2x3xf32>) {
  ^bb0(%o: f32):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %i3 = linalg.index 3 : index
    %m = arith.constant 3 : index
    %s0 = arith.muli %i0, %m : index
    %s1 = arith.addi %s0, %i1 : index
    %s2 = arith.muli %s1, %m : index
    %s3 = arith.addi %s2, %i2 : index
    %s4 = arith.muli %s3, %m : index
    %s5 = arith.addi %s4, %i3 : index
    %seven = arith.constant 7 : index
    %r = arith.remui %s5, %seven : index
    %ri = arith.index_cast %r : index to i64
    %f = arith.sitofp %ri : i64 to f32
    %three = arith.constant 3.0 : f32
    %v = arith.subf %f, %three : f32
    linalg.yield %v : f32
  } -> tensor<3x3x2x3xf32>
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<1x28x28x3xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<1x28x28x3xf32>) -> tensor<1x28x28x3xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : tensor<1x30x30x2xf32>, tensor<3x3x2x3xf32>) outs(%acc : tensor<1x28x28x3xf32>) -> tensor<1x28x28x3xf32>
  return %r : tensor<1x28x28x3xf32>
}

func.func @nhwc_hwcf_image_blocks_f64() -> tensor<24x5x5x2xf64> {
  %x_e = tensor.empty() : tensor<24x7x7x2xf64>
  %x = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%x_e : tensor<24x7x7x2xf64>) {
  ^bb0(%o: f64):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %i3 = linalg.index 3 : index
    %m = arith.constant 5 : index
    %s0 = arith.muli %i0, %m : index
    %s1 = arith.addi %s0, %i1 : index
    %s2 = arith.muli %s1, %m : index
    %s3 = arith.addi %s2, %i2 : index
    %s4 = arith.muli %s3, %m : index
    %s5 = arith.addi %s4, %i3 : index
    %seven = arith.constant 7 : index
    %r = arith.remui %s5, %seven : index
    %ri = arith.index_cast %r : index to i64
    %f = arith.sitofp %ri : i64 to f64
    %three = arith.constant 3.0 : f64
    %v = arith.subf %f, %three : f64
    linalg.yield %v : f64
  } -> tensor<24x7x7x2xf64>
  %w_e = tensor.empty() : tensor<3x3x2x2xf64>
  %w = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%w_e : tensor<3x3x2x2xf64>) {
  ^bb0(%o: f64):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %i3 = linalg.index 3 : index
    %m = arith.constant 3 : index
    %s0 = arith.muli %i0, %m : index
    %s1 = arith.addi %s0, %i1 : index
    %s2 = arith.muli %s1, %m : index
    %s3 = arith.addi %s2, %i2 : index
    %s4 = arith.muli %s3, %m : index
    %s5 = arith.addi %s4, %i3 : index
    %seven = arith.constant 7 : index
    %r = arith.remui %s5, %seven : index
    %ri = arith.index_cast %r : index to i64
    %f = arith.sitofp %ri : i64 to f64
    %three = arith.constant 3.0 : f64
    %v = arith.subf %f, %three : f64
    linalg.yield %v : f64
  } -> tensor<3x3x2x2xf64>
  %zero = arith.constant 0.0 : f64
  %init = tensor.empty() : tensor<24x5x5x2xf64>
  %acc = linalg.fill ins(%zero : f64) outs(%init : tensor<24x5x5x2xf64>) -> tensor<24x5x5x2xf64>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : tensor<24x7x7x2xf64>, tensor<3x3x2x2xf64>) outs(%acc : tensor<24x5x5x2xf64>) -> tensor<24x5x5x2xf64>
  return %r : tensor<24x5x5x2xf64>
}

func.func @nhwc_fhwc_f64() -> tensor<2x4x4x4xf64> {
  %x_e = tensor.empty() : tensor<2x6x6x3xf64>
  %x = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%x_e : tensor<2x6x6x3xf64>) {
  ^bb0(%o: f64):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %i3 = linalg.index 3 : index
    %m = arith.constant 5 : index
    %s0 = arith.muli %i0, %m : index
    %s1 = arith.addi %s0, %i1 : index
    %s2 = arith.muli %s1, %m : index
    %s3 = arith.addi %s2, %i2 : index
    %s4 = arith.muli %s3, %m : index
    %s5 = arith.addi %s4, %i3 : index
    %seven = arith.constant 7 : index
    %r = arith.remui %s5, %seven : index
    %ri = arith.index_cast %r : index to i64
    %f = arith.sitofp %ri : i64 to f64
    %three = arith.constant 3.0 : f64
    %v = arith.subf %f, %three : f64
    linalg.yield %v : f64
  } -> tensor<2x6x6x3xf64>
  %w_e = tensor.empty() : tensor<4x3x3x3xf64>
  %w = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%w_e : tensor<4x3x3x3xf64>) {
  ^bb0(%o: f64):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %i3 = linalg.index 3 : index
    %m = arith.constant 3 : index
    %s0 = arith.muli %i0, %m : index
    %s1 = arith.addi %s0, %i1 : index
    %s2 = arith.muli %s1, %m : index
    %s3 = arith.addi %s2, %i2 : index
    %s4 = arith.muli %s3, %m : index
    %s5 = arith.addi %s4, %i3 : index
    %seven = arith.constant 7 : index
    %r = arith.remui %s5, %seven : index
    %ri = arith.index_cast %r : index to i64
    %f = arith.sitofp %ri : i64 to f64
    %three = arith.constant 3.0 : f64
    %v = arith.subf %f, %three : f64
    linalg.yield %v : f64
  } -> tensor<4x3x3x3xf64>
  %zero = arith.constant 0.0 : f64
  %init = tensor.empty() : tensor<2x4x4x4xf64>
  %acc = linalg.fill ins(%zero : f64) outs(%init : tensor<2x4x4x4xf64>) -> tensor<2x4x4x4xf64>
  %r = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : tensor<2x6x6x3xf64>, tensor<4x3x3x3xf64>) outs(%acc : tensor<2x4x4x4xf64>) -> tensor<2x4x4x4xf64>
  return %r : tensor<2x4x4x4xf64>
}

func.func @nhwc_fhwc_padded_stride2_f32() -> tensor<2x4x4x4xf32> {
  %x_e = tensor.empty() : tensor<2x7x7x3xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%x_e : tensor<2x7x7x3xf32>) {
  ^bb0(%o: f32):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %i3 = linalg.index 3 : index
    %m = arith.constant 5 : index
    %s0 = arith.muli %i0, %m : index
    %s1 = arith.addi %s0, %i1 : index
    %s2 = arith.muli %s1, %m : index
    %s3 = arith.addi %s2, %i2 : index
    %s4 = arith.muli %s3, %m : index
    %s5 = arith.addi %s4, %i3 : index
    %seven = arith.constant 7 : index
    %r = arith.remui %s5, %seven : index
    %ri = arith.index_cast %r : index to i64
    %f = arith.sitofp %ri : i64 to f32
    %three = arith.constant 3.0 : f32
    %v = arith.subf %f, %three : f32
    linalg.yield %v : f32
  } -> tensor<2x7x7x3xf32>
  %w_e = tensor.empty() : tensor<4x3x3x3xf32>
  %w = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%w_e : tensor<4x3x3x3xf32>) {
  ^bb0(%o: f32):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %i3 = linalg.index 3 : index
    %m = arith.constant 3 : index
    %s0 = arith.muli %i0, %m : index
    %s1 = arith.addi %s0, %i1 : index
    %s2 = arith.muli %s1, %m : index
    %s3 = arith.addi %s2, %i2 : index
    %s4 = arith.muli %s3, %m : index
    %s5 = arith.addi %s4, %i3 : index
    %seven = arith.constant 7 : index
    %r = arith.remui %s5, %seven : index
    %ri = arith.index_cast %r : index to i64
    %f = arith.sitofp %ri : i64 to f32
    %three = arith.constant 3.0 : f32
    %v = arith.subf %f, %three : f32
    linalg.yield %v : f32
  } -> tensor<4x3x3x3xf32>
  %zero = arith.constant 0.0 : f32
  %padded = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<2x7x7x3xf32> to tensor<2x9x9x3xf32>
  %init = tensor.empty() : tensor<2x4x4x4xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<2x4x4x4xf32>) -> tensor<2x4x4x4xf32>
  %r = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%padded, %w : tensor<2x9x9x3xf32>, tensor<4x3x3x3xf32>) outs(%acc : tensor<2x4x4x4xf32>) -> tensor<2x4x4x4xf32>
  return %r : tensor<2x4x4x4xf32>
}

func.func @nchw_fchw_stride2_f32() -> tensor<2x4x3x3xf32> {
  %x_e = tensor.empty() : tensor<2x3x7x7xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%x_e : tensor<2x3x7x7xf32>) {
  ^bb0(%o: f32):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %i3 = linalg.index 3 : index
    %m = arith.constant 5 : index
    %s0 = arith.muli %i0, %m : index
    %s1 = arith.addi %s0, %i1 : index
    %s2 = arith.muli %s1, %m : index
    %s3 = arith.addi %s2, %i2 : index
    %s4 = arith.muli %s3, %m : index
    %s5 = arith.addi %s4, %i3 : index
    %seven = arith.constant 7 : index
    %r = arith.remui %s5, %seven : index
    %ri = arith.index_cast %r : index to i64
    %f = arith.sitofp %ri : i64 to f32
    %three = arith.constant 3.0 : f32
    %v = arith.subf %f, %three : f32
    linalg.yield %v : f32
  } -> tensor<2x3x7x7xf32>
  %w_e = tensor.empty() : tensor<4x3x3x3xf32>
  %w = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%w_e : tensor<4x3x3x3xf32>) {
  ^bb0(%o: f32):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %i3 = linalg.index 3 : index
    %m = arith.constant 3 : index
    %s0 = arith.muli %i0, %m : index
    %s1 = arith.addi %s0, %i1 : index
    %s2 = arith.muli %s1, %m : index
    %s3 = arith.addi %s2, %i2 : index
    %s4 = arith.muli %s3, %m : index
    %s5 = arith.addi %s4, %i3 : index
    %seven = arith.constant 7 : index
    %r = arith.remui %s5, %seven : index
    %ri = arith.index_cast %r : index to i64
    %f = arith.sitofp %ri : i64 to f32
    %three = arith.constant 3.0 : f32
    %v = arith.subf %f, %three : f32
    linalg.yield %v : f32
  } -> tensor<4x3x3x3xf32>
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<2x4x3x3xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<2x4x3x3xf32>) -> tensor<2x4x3x3xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%x, %w : tensor<2x3x7x7xf32>, tensor<4x3x3x3xf32>) outs(%acc : tensor<2x4x3x3xf32>) -> tensor<2x4x3x3xf32>
  return %r : tensor<2x4x3x3xf32>
}

func.func @nchw_fchw_dilation2_f64() -> tensor<1x3x5x5xf64> {
  %x_e = tensor.empty() : tensor<1x2x9x9xf64>
  %x = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%x_e : tensor<1x2x9x9xf64>) {
  ^bb0(%o: f64):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %i3 = linalg.index 3 : index
    %m = arith.constant 5 : index
    %s0 = arith.muli %i0, %m : index
    %s1 = arith.addi %s0, %i1 : index
    %s2 = arith.muli %s1, %m : index
    %s3 = arith.addi %s2, %i2 : index
    %s4 = arith.muli %s3, %m : index
    %s5 = arith.addi %s4, %i3 : index
    %seven = arith.constant 7 : index
    %r = arith.remui %s5, %seven : index
    %ri = arith.index_cast %r : index to i64
    %f = arith.sitofp %ri : i64 to f64
    %three = arith.constant 3.0 : f64
    %v = arith.subf %f, %three : f64
    linalg.yield %v : f64
  } -> tensor<1x2x9x9xf64>
  %w_e = tensor.empty() : tensor<3x2x3x3xf64>
  %w = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%w_e : tensor<3x2x3x3xf64>) {
  ^bb0(%o: f64):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %i3 = linalg.index 3 : index
    %m = arith.constant 3 : index
    %s0 = arith.muli %i0, %m : index
    %s1 = arith.addi %s0, %i1 : index
    %s2 = arith.muli %s1, %m : index
    %s3 = arith.addi %s2, %i2 : index
    %s4 = arith.muli %s3, %m : index
    %s5 = arith.addi %s4, %i3 : index
    %seven = arith.constant 7 : index
    %r = arith.remui %s5, %seven : index
    %ri = arith.index_cast %r : index to i64
    %f = arith.sitofp %ri : i64 to f64
    %three = arith.constant 3.0 : f64
    %v = arith.subf %f, %three : f64
    linalg.yield %v : f64
  } -> tensor<3x2x3x3xf64>
  %zero = arith.constant 0.0 : f64
  %init = tensor.empty() : tensor<1x3x5x5xf64>
  %acc = linalg.fill ins(%zero : f64) outs(%init : tensor<1x3x5x5xf64>) -> tensor<1x3x5x5xf64>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : tensor<1x2x9x9xf64>, tensor<3x2x3x3xf64>) outs(%acc : tensor<1x3x5x5xf64>) -> tensor<1x3x5x5xf64>
  return %r : tensor<1x3x5x5xf64>
}

func.func @nchw_fchw_row_blocks_f32() -> tensor<1x3x28x28xf32> {
  %x_e = tensor.empty() : tensor<1x2x30x30xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%x_e : tensor<1x2x30x30xf32>) {
  ^bb0(%o: f32):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %i3 = linalg.index 3 : index
    %m = arith.constant 5 : index
    %s0 = arith.muli %i0, %m : index
    %s1 = arith.addi %s0, %i1 : index
    %s2 = arith.muli %s1, %m : index
    %s3 = arith.addi %s2, %i2 : index
    %s4 = arith.muli %s3, %m : index
    %s5 = arith.addi %s4, %i3 : index
    %seven = arith.constant 7 : index
    %r = arith.remui %s5, %seven : index
    %ri = arith.index_cast %r : index to i64
    %f = arith.sitofp %ri : i64 to f32
    %three = arith.constant 3.0 : f32
    %v = arith.subf %f, %three : f32
    linalg.yield %v : f32
  } -> tensor<1x2x30x30xf32>
  %w_e = tensor.empty() : tensor<3x2x3x3xf32>
  %w = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%w_e : tensor<3x2x3x3xf32>) {
  ^bb0(%o: f32):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %i3 = linalg.index 3 : index
    %m = arith.constant 3 : index
    %s0 = arith.muli %i0, %m : index
    %s1 = arith.addi %s0, %i1 : index
    %s2 = arith.muli %s1, %m : index
    %s3 = arith.addi %s2, %i2 : index
    %s4 = arith.muli %s3, %m : index
    %s5 = arith.addi %s4, %i3 : index
    %seven = arith.constant 7 : index
    %r = arith.remui %s5, %seven : index
    %ri = arith.index_cast %r : index to i64
    %f = arith.sitofp %ri : i64 to f32
    %three = arith.constant 3.0 : f32
    %v = arith.subf %f, %three : f32
    linalg.yield %v : f32
  } -> tensor<3x2x3x3xf32>
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<1x3x28x28xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<1x3x28x28xf32>) -> tensor<1x3x28x28xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : tensor<1x2x30x30xf32>, tensor<3x2x3x3xf32>) outs(%acc : tensor<1x3x28x28xf32>) -> tensor<1x3x28x28xf32>
  return %r : tensor<1x3x28x28xf32>
}

func.func @nchw_fchw_1x1_f64() -> tensor<2x6x4x4xf64> {
  %x_e = tensor.empty() : tensor<2x5x4x4xf64>
  %x = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%x_e : tensor<2x5x4x4xf64>) {
  ^bb0(%o: f64):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %i3 = linalg.index 3 : index
    %m = arith.constant 5 : index
    %s0 = arith.muli %i0, %m : index
    %s1 = arith.addi %s0, %i1 : index
    %s2 = arith.muli %s1, %m : index
    %s3 = arith.addi %s2, %i2 : index
    %s4 = arith.muli %s3, %m : index
    %s5 = arith.addi %s4, %i3 : index
    %seven = arith.constant 7 : index
    %r = arith.remui %s5, %seven : index
    %ri = arith.index_cast %r : index to i64
    %f = arith.sitofp %ri : i64 to f64
    %three = arith.constant 3.0 : f64
    %v = arith.subf %f, %three : f64
    linalg.yield %v : f64
  } -> tensor<2x5x4x4xf64>
  %w_e = tensor.empty() : tensor<6x5x1x1xf64>
  %w = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%w_e : tensor<6x5x1x1xf64>) {
  ^bb0(%o: f64):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %i3 = linalg.index 3 : index
    %m = arith.constant 3 : index
    %s0 = arith.muli %i0, %m : index
    %s1 = arith.addi %s0, %i1 : index
    %s2 = arith.muli %s1, %m : index
    %s3 = arith.addi %s2, %i2 : index
    %s4 = arith.muli %s3, %m : index
    %s5 = arith.addi %s4, %i3 : index
    %seven = arith.constant 7 : index
    %r = arith.remui %s5, %seven : index
    %ri = arith.index_cast %r : index to i64
    %f = arith.sitofp %ri : i64 to f64
    %three = arith.constant 3.0 : f64
    %v = arith.subf %f, %three : f64
    linalg.yield %v : f64
  } -> tensor<6x5x1x1xf64>
  %zero = arith.constant 0.0 : f64
  %init = tensor.empty() : tensor<2x6x4x4xf64>
  %acc = linalg.fill ins(%zero : f64) outs(%init : tensor<2x6x4x4xf64>) -> tensor<2x6x4x4xf64>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : tensor<2x5x4x4xf64>, tensor<6x5x1x1xf64>) outs(%acc : tensor<2x6x4x4xf64>) -> tensor<2x6x4x4xf64>
  return %r : tensor<2x6x4x4xf64>
}

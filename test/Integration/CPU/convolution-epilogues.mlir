// A convolution as a front end writes it (zero tensor.pad, zero-filled
// output, then bias + ReLU in an elementwise op) gives, with its padding,
// bias and ReLU folded into the oneDNN call (the default), exactly what
// im2col + BLAS (--dnnl=false) and the loops (--blas=false) give: every
// printed result is compared byte for byte. The inputs are small integers,
// so every sum is exact whatever its order. Covered: dense convolutions
// with many multiply-adds per output (oneDNN applies the ReLU) and few
// (libnxrt's pass after the kernel does), a depthwise one, and a NaN in
// the input, which maximumf's ReLU keeps: the outputs it reaches stay NaN,
// on every path.
//
// RUN: nx-runner %s --entry=dense_bias_relu > %t.dense_bias_relu.default
// RUN: nx-runner %s --dnnl=false --entry=dense_bias_relu > %t.dense_bias_relu.blas
// RUN: nx-runner %s --blas=false --entry=dense_bias_relu > %t.dense_bias_relu.loops
// RUN: diff %t.dense_bias_relu.default %t.dense_bias_relu.loops
// RUN: diff %t.dense_bias_relu.blas %t.dense_bias_relu.loops
// RUN: nx-runner %s --entry=small_bias_relu > %t.small_bias_relu.default
// RUN: nx-runner %s --dnnl=false --entry=small_bias_relu > %t.small_bias_relu.blas
// RUN: nx-runner %s --blas=false --entry=small_bias_relu > %t.small_bias_relu.loops
// RUN: diff %t.small_bias_relu.default %t.small_bias_relu.loops
// RUN: diff %t.small_bias_relu.blas %t.small_bias_relu.loops
// RUN: nx-runner %s --entry=depthwise_bias_relu > %t.depthwise_bias_relu.default
// RUN: nx-runner %s --dnnl=false --entry=depthwise_bias_relu > %t.depthwise_bias_relu.blas
// RUN: nx-runner %s --blas=false --entry=depthwise_bias_relu > %t.depthwise_bias_relu.loops
// RUN: diff %t.depthwise_bias_relu.default %t.depthwise_bias_relu.loops
// RUN: diff %t.depthwise_bias_relu.blas %t.depthwise_bias_relu.loops
// RUN: nx-runner %s --entry=dense_relu_nan > %t.dense_relu_nan.default
// RUN: nx-runner %s --dnnl=false --entry=dense_relu_nan > %t.dense_relu_nan.blas
// RUN: nx-runner %s --blas=false --entry=dense_relu_nan > %t.dense_relu_nan.loops
// RUN: diff %t.dense_relu_nan.default %t.dense_relu_nan.loops
// RUN: diff %t.dense_relu_nan.blas %t.dense_relu_nan.loops
// RUN: nx-runner %s --entry=depthwise_relu_nan > %t.depthwise_relu_nan.default
// RUN: nx-runner %s --dnnl=false --entry=depthwise_relu_nan > %t.depthwise_relu_nan.blas
// RUN: nx-runner %s --blas=false --entry=depthwise_relu_nan > %t.depthwise_relu_nan.loops
// RUN: diff %t.depthwise_relu_nan.default %t.depthwise_relu_nan.loops
// RUN: diff %t.depthwise_relu_nan.blas %t.depthwise_relu_nan.loops
//
// Every epilogue and padding is folded into the calls.
// RUN: nx-opt %s -nx-lower-to-cpu -mlir-pass-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=FOLDED
// FOLDED: NxLinalgToDnnlPass
// FOLDED-DAG: 5 convolutions
// FOLDED-DAG: 5 folded-epilogues
// FOLDED-DAG: 5 folded-pads
//
// The NaN survives the ReLU.
// RUN: FileCheck %s --input-file=%t.dense_relu_nan.default --check-prefix=NAN
// NAN: result #0: tensor<1x5x5x4xf32> = {{.*}}nan

func.func @dense_bias_relu() -> tensor<2x6x6x5xf32> {
  %x_e = tensor.empty() : tensor<2x6x6x8xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%x_e : tensor<2x6x6x8xf32>) {
  ^bb0(%o: f32):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %i3 = linalg.index 3 : index
    %m = arith.constant 5 : index
    %s1a = arith.muli %i0, %m : index
    %s1 = arith.addi %s1a, %i1 : index
    %s2a = arith.muli %s1, %m : index
    %s2 = arith.addi %s2a, %i2 : index
    %s3a = arith.muli %s2, %m : index
    %s3 = arith.addi %s3a, %i3 : index
    %seven = arith.constant 7 : index
    %r = arith.remui %s3, %seven : index
    %ri = arith.index_cast %r : index to i64
    %f = arith.sitofp %ri : i64 to f32
    %three = arith.constant 3.0 : f32
    %v = arith.subf %f, %three : f32
    linalg.yield %v : f32
  } -> tensor<2x6x6x8xf32>
  %w_e = tensor.empty() : tensor<3x3x8x5xf32>
  %w = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%w_e : tensor<3x3x8x5xf32>) {
  ^bb0(%o: f32):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %i3 = linalg.index 3 : index
    %m = arith.constant 3 : index
    %s1a = arith.muli %i0, %m : index
    %s1 = arith.addi %s1a, %i1 : index
    %s2a = arith.muli %s1, %m : index
    %s2 = arith.addi %s2a, %i2 : index
    %s3a = arith.muli %s2, %m : index
    %s3 = arith.addi %s3a, %i3 : index
    %seven = arith.constant 7 : index
    %r = arith.remui %s3, %seven : index
    %ri = arith.index_cast %r : index to i64
    %f = arith.sitofp %ri : i64 to f32
    %three = arith.constant 3.0 : f32
    %v = arith.subf %f, %three : f32
    linalg.yield %v : f32
  } -> tensor<3x3x8x5xf32>
  %b_e = tensor.empty() : tensor<5xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%b_e : tensor<5xf32>) {
  ^bb0(%o: f32):
    %i0 = linalg.index 0 : index
    %m = arith.constant 2 : index
    %seven = arith.constant 7 : index
    %r = arith.remui %i0, %seven : index
    %ri = arith.index_cast %r : index to i64
    %f = arith.sitofp %ri : i64 to f32
    %three = arith.constant 3.0 : f32
    %v = arith.subf %f, %three : f32
    linalg.yield %v : f32
  } -> tensor<5xf32>
  %zero = arith.constant 0.0 : f32
  %padded = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%a: index, %c: index, %d: index, %e: index):
    tensor.yield %zero : f32
  } : tensor<2x6x6x8xf32> to tensor<2x8x8x8xf32>
  %init = tensor.empty() : tensor<2x6x6x5xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<2x6x6x5xf32>) -> tensor<2x6x6x5xf32>
  %conv = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%padded, %w : tensor<2x8x8x8xf32>, tensor<3x3x8x5xf32>) outs(%acc : tensor<2x6x6x5xf32>) -> tensor<2x6x6x5xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%conv, %b : tensor<2x6x6x5xf32>, tensor<5xf32>) outs(%init : tensor<2x6x6x5xf32>) {
  ^bb0(%v: f32, %bias: f32, %unused: f32):
    %sum = arith.addf %v, %bias : f32
    %relu = arith.maximumf %sum, %zero : f32
    linalg.yield %relu : f32
  } -> tensor<2x6x6x5xf32>
  return %y : tensor<2x6x6x5xf32>
}

func.func @small_bias_relu() -> tensor<1x6x5x4xf32> {
  %x_e = tensor.empty() : tensor<1x6x5x3xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%x_e : tensor<1x6x5x3xf32>) {
  ^bb0(%o: f32):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %i3 = linalg.index 3 : index
    %m = arith.constant 5 : index
    %s1a = arith.muli %i0, %m : index
    %s1 = arith.addi %s1a, %i1 : index
    %s2a = arith.muli %s1, %m : index
    %s2 = arith.addi %s2a, %i2 : index
    %s3a = arith.muli %s2, %m : index
    %s3 = arith.addi %s3a, %i3 : index
    %seven = arith.constant 7 : index
    %r = arith.remui %s3, %seven : index
    %ri = arith.index_cast %r : index to i64
    %f = arith.sitofp %ri : i64 to f32
    %three = arith.constant 3.0 : f32
    %v = arith.subf %f, %three : f32
    linalg.yield %v : f32
  } -> tensor<1x6x5x3xf32>
  %w_e = tensor.empty() : tensor<3x3x3x4xf32>
  %w = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%w_e : tensor<3x3x3x4xf32>) {
  ^bb0(%o: f32):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %i3 = linalg.index 3 : index
    %m = arith.constant 3 : index
    %s1a = arith.muli %i0, %m : index
    %s1 = arith.addi %s1a, %i1 : index
    %s2a = arith.muli %s1, %m : index
    %s2 = arith.addi %s2a, %i2 : index
    %s3a = arith.muli %s2, %m : index
    %s3 = arith.addi %s3a, %i3 : index
    %seven = arith.constant 7 : index
    %r = arith.remui %s3, %seven : index
    %ri = arith.index_cast %r : index to i64
    %f = arith.sitofp %ri : i64 to f32
    %three = arith.constant 3.0 : f32
    %v = arith.subf %f, %three : f32
    linalg.yield %v : f32
  } -> tensor<3x3x3x4xf32>
  %b_e = tensor.empty() : tensor<4xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%b_e : tensor<4xf32>) {
  ^bb0(%o: f32):
    %i0 = linalg.index 0 : index
    %m = arith.constant 2 : index
    %seven = arith.constant 7 : index
    %r = arith.remui %i0, %seven : index
    %ri = arith.index_cast %r : index to i64
    %f = arith.sitofp %ri : i64 to f32
    %three = arith.constant 3.0 : f32
    %v = arith.subf %f, %three : f32
    linalg.yield %v : f32
  } -> tensor<4xf32>
  %zero = arith.constant 0.0 : f32
  %padded = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%a: index, %c: index, %d: index, %e: index):
    tensor.yield %zero : f32
  } : tensor<1x6x5x3xf32> to tensor<1x8x7x3xf32>
  %init = tensor.empty() : tensor<1x6x5x4xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<1x6x5x4xf32>) -> tensor<1x6x5x4xf32>
  %conv = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%padded, %w : tensor<1x8x7x3xf32>, tensor<3x3x3x4xf32>) outs(%acc : tensor<1x6x5x4xf32>) -> tensor<1x6x5x4xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%conv, %b : tensor<1x6x5x4xf32>, tensor<4xf32>) outs(%init : tensor<1x6x5x4xf32>) {
  ^bb0(%v: f32, %bias: f32, %unused: f32):
    %sum = arith.addf %v, %bias : f32
    %relu = arith.maximumf %sum, %zero : f32
    linalg.yield %relu : f32
  } -> tensor<1x6x5x4xf32>
  return %y : tensor<1x6x5x4xf32>
}

func.func @depthwise_bias_relu() -> tensor<1x6x6x16xf32> {
  %x_e = tensor.empty() : tensor<1x6x6x16xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%x_e : tensor<1x6x6x16xf32>) {
  ^bb0(%o: f32):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %i3 = linalg.index 3 : index
    %m = arith.constant 5 : index
    %s1a = arith.muli %i0, %m : index
    %s1 = arith.addi %s1a, %i1 : index
    %s2a = arith.muli %s1, %m : index
    %s2 = arith.addi %s2a, %i2 : index
    %s3a = arith.muli %s2, %m : index
    %s3 = arith.addi %s3a, %i3 : index
    %seven = arith.constant 7 : index
    %r = arith.remui %s3, %seven : index
    %ri = arith.index_cast %r : index to i64
    %f = arith.sitofp %ri : i64 to f32
    %three = arith.constant 3.0 : f32
    %v = arith.subf %f, %three : f32
    linalg.yield %v : f32
  } -> tensor<1x6x6x16xf32>
  %w_e = tensor.empty() : tensor<3x3x16xf32>
  %w = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} outs(%w_e : tensor<3x3x16xf32>) {
  ^bb0(%o: f32):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %m = arith.constant 3 : index
    %s1a = arith.muli %i0, %m : index
    %s1 = arith.addi %s1a, %i1 : index
    %s2a = arith.muli %s1, %m : index
    %s2 = arith.addi %s2a, %i2 : index
    %seven = arith.constant 7 : index
    %r = arith.remui %s2, %seven : index
    %ri = arith.index_cast %r : index to i64
    %f = arith.sitofp %ri : i64 to f32
    %three = arith.constant 3.0 : f32
    %v = arith.subf %f, %three : f32
    linalg.yield %v : f32
  } -> tensor<3x3x16xf32>
  %b_e = tensor.empty() : tensor<16xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%b_e : tensor<16xf32>) {
  ^bb0(%o: f32):
    %i0 = linalg.index 0 : index
    %m = arith.constant 2 : index
    %seven = arith.constant 7 : index
    %r = arith.remui %i0, %seven : index
    %ri = arith.index_cast %r : index to i64
    %f = arith.sitofp %ri : i64 to f32
    %three = arith.constant 3.0 : f32
    %v = arith.subf %f, %three : f32
    linalg.yield %v : f32
  } -> tensor<16xf32>
  %zero = arith.constant 0.0 : f32
  %padded = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%a: index, %c: index, %d: index, %e: index):
    tensor.yield %zero : f32
  } : tensor<1x6x6x16xf32> to tensor<1x8x8x16xf32>
  %init = tensor.empty() : tensor<1x6x6x16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<1x6x6x16xf32>) -> tensor<1x6x6x16xf32>
  %conv = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%padded, %w : tensor<1x8x8x16xf32>, tensor<3x3x16xf32>) outs(%acc : tensor<1x6x6x16xf32>) -> tensor<1x6x6x16xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%conv, %b : tensor<1x6x6x16xf32>, tensor<16xf32>) outs(%init : tensor<1x6x6x16xf32>) {
  ^bb0(%v: f32, %bias: f32, %unused: f32):
    %sum = arith.addf %v, %bias : f32
    %relu = arith.maximumf %sum, %zero : f32
    linalg.yield %relu : f32
  } -> tensor<1x6x6x16xf32>
  return %y : tensor<1x6x6x16xf32>
}

func.func @dense_relu_nan() -> tensor<1x5x5x4xf32> {
  %x_e = tensor.empty() : tensor<1x5x5x8xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%x_e : tensor<1x5x5x8xf32>) {
  ^bb0(%o: f32):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %i3 = linalg.index 3 : index
    %m = arith.constant 5 : index
    %s1a = arith.muli %i0, %m : index
    %s1 = arith.addi %s1a, %i1 : index
    %s2a = arith.muli %s1, %m : index
    %s2 = arith.addi %s2a, %i2 : index
    %s3a = arith.muli %s2, %m : index
    %s3 = arith.addi %s3a, %i3 : index
    %seven = arith.constant 7 : index
    %r = arith.remui %s3, %seven : index
    %ri = arith.index_cast %r : index to i64
    %f = arith.sitofp %ri : i64 to f32
    %three = arith.constant 3.0 : f32
    %v = arith.subf %f, %three : f32
    %flat = arith.constant 50 : index
    %isnan = arith.cmpi eq, %s3, %flat : index
    %nan = arith.constant 0x7FC00000 : f32
    %w = arith.select %isnan, %nan, %v : f32
    linalg.yield %w : f32
  } -> tensor<1x5x5x8xf32>
  %w_e = tensor.empty() : tensor<3x3x8x4xf32>
  %w = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%w_e : tensor<3x3x8x4xf32>) {
  ^bb0(%o: f32):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %i3 = linalg.index 3 : index
    %m = arith.constant 3 : index
    %s1a = arith.muli %i0, %m : index
    %s1 = arith.addi %s1a, %i1 : index
    %s2a = arith.muli %s1, %m : index
    %s2 = arith.addi %s2a, %i2 : index
    %s3a = arith.muli %s2, %m : index
    %s3 = arith.addi %s3a, %i3 : index
    %seven = arith.constant 7 : index
    %r = arith.remui %s3, %seven : index
    %ri = arith.index_cast %r : index to i64
    %f = arith.sitofp %ri : i64 to f32
    %three = arith.constant 3.0 : f32
    %v = arith.subf %f, %three : f32
    linalg.yield %v : f32
  } -> tensor<3x3x8x4xf32>
  %b_e = tensor.empty() : tensor<4xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%b_e : tensor<4xf32>) {
  ^bb0(%o: f32):
    %i0 = linalg.index 0 : index
    %m = arith.constant 2 : index
    %seven = arith.constant 7 : index
    %r = arith.remui %i0, %seven : index
    %ri = arith.index_cast %r : index to i64
    %f = arith.sitofp %ri : i64 to f32
    %three = arith.constant 3.0 : f32
    %v = arith.subf %f, %three : f32
    linalg.yield %v : f32
  } -> tensor<4xf32>
  %zero = arith.constant 0.0 : f32
  %padded = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%a: index, %c: index, %d: index, %e: index):
    tensor.yield %zero : f32
  } : tensor<1x5x5x8xf32> to tensor<1x7x7x8xf32>
  %init = tensor.empty() : tensor<1x5x5x4xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<1x5x5x4xf32>) -> tensor<1x5x5x4xf32>
  %conv = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%padded, %w : tensor<1x7x7x8xf32>, tensor<3x3x8x4xf32>) outs(%acc : tensor<1x5x5x4xf32>) -> tensor<1x5x5x4xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%conv, %b : tensor<1x5x5x4xf32>, tensor<4xf32>) outs(%init : tensor<1x5x5x4xf32>) {
  ^bb0(%v: f32, %bias: f32, %unused: f32):
    %sum = arith.addf %v, %bias : f32
    %relu = arith.maximumf %sum, %zero : f32
    linalg.yield %relu : f32
  } -> tensor<1x5x5x4xf32>
  return %y : tensor<1x5x5x4xf32>
}

func.func @depthwise_relu_nan() -> tensor<1x5x5x16xf32> {
  %x_e = tensor.empty() : tensor<1x5x5x16xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%x_e : tensor<1x5x5x16xf32>) {
  ^bb0(%o: f32):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %i3 = linalg.index 3 : index
    %m = arith.constant 5 : index
    %s1a = arith.muli %i0, %m : index
    %s1 = arith.addi %s1a, %i1 : index
    %s2a = arith.muli %s1, %m : index
    %s2 = arith.addi %s2a, %i2 : index
    %s3a = arith.muli %s2, %m : index
    %s3 = arith.addi %s3a, %i3 : index
    %seven = arith.constant 7 : index
    %r = arith.remui %s3, %seven : index
    %ri = arith.index_cast %r : index to i64
    %f = arith.sitofp %ri : i64 to f32
    %three = arith.constant 3.0 : f32
    %v = arith.subf %f, %three : f32
    %flat = arith.constant 40 : index
    %isnan = arith.cmpi eq, %s3, %flat : index
    %nan = arith.constant 0x7FC00000 : f32
    %w = arith.select %isnan, %nan, %v : f32
    linalg.yield %w : f32
  } -> tensor<1x5x5x16xf32>
  %w_e = tensor.empty() : tensor<3x3x16xf32>
  %w = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} outs(%w_e : tensor<3x3x16xf32>) {
  ^bb0(%o: f32):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %m = arith.constant 3 : index
    %s1a = arith.muli %i0, %m : index
    %s1 = arith.addi %s1a, %i1 : index
    %s2a = arith.muli %s1, %m : index
    %s2 = arith.addi %s2a, %i2 : index
    %seven = arith.constant 7 : index
    %r = arith.remui %s2, %seven : index
    %ri = arith.index_cast %r : index to i64
    %f = arith.sitofp %ri : i64 to f32
    %three = arith.constant 3.0 : f32
    %v = arith.subf %f, %three : f32
    linalg.yield %v : f32
  } -> tensor<3x3x16xf32>
  %b_e = tensor.empty() : tensor<16xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%b_e : tensor<16xf32>) {
  ^bb0(%o: f32):
    %i0 = linalg.index 0 : index
    %m = arith.constant 2 : index
    %seven = arith.constant 7 : index
    %r = arith.remui %i0, %seven : index
    %ri = arith.index_cast %r : index to i64
    %f = arith.sitofp %ri : i64 to f32
    %three = arith.constant 3.0 : f32
    %v = arith.subf %f, %three : f32
    linalg.yield %v : f32
  } -> tensor<16xf32>
  %zero = arith.constant 0.0 : f32
  %padded = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%a: index, %c: index, %d: index, %e: index):
    tensor.yield %zero : f32
  } : tensor<1x5x5x16xf32> to tensor<1x7x7x16xf32>
  %init = tensor.empty() : tensor<1x5x5x16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<1x5x5x16xf32>) -> tensor<1x5x5x16xf32>
  %conv = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%padded, %w : tensor<1x7x7x16xf32>, tensor<3x3x16xf32>) outs(%acc : tensor<1x5x5x16xf32>) -> tensor<1x5x5x16xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%conv, %b : tensor<1x5x5x16xf32>, tensor<16xf32>) outs(%init : tensor<1x5x5x16xf32>) {
  ^bb0(%v: f32, %bias: f32, %unused: f32):
    %sum = arith.addf %v, %bias : f32
    %relu = arith.maximumf %sum, %zero : f32
    linalg.yield %relu : f32
  } -> tensor<1x5x5x16xf32>
  return %y : tensor<1x5x5x16xf32>
}

// RUN: nx-opt %s -split-input-file -nx-linalg-to-dnnl -canonicalize | FileCheck %s --enable-var-scope

#nhwc = affine_map<(n, h, w, c) -> (n, h, w, c)>
#channel = affine_map<(n, h, w, c) -> (c)>

// Bias and ReLU in place on a zero-filled output: the call adds the bias
// (its address and stride) and applies the ReLU (flags 2), and the generic
// goes.
// CHECK-LABEL: func.func @bias_relu
// CHECK-SAME: %[[BIAS:[^:]+]]: memref<8xf32>
// CHECK-DAG: %[[C1:.+]] = arith.constant 1 : i64
// CHECK-DAG: %[[C2:.+]] = arith.constant 2 : i64
// CHECK: memref.extract_aligned_pointer_as_index %[[BIAS]]
// CHECK: llvm.call @nxrt_conv2d_f32({{([^,]+, ){15}[^,]+}}, %[[C2]], {{([^,]+, ){10}[^,]+}}, %{{.+}}, %[[C1]], %{{.+}})
// CHECK-NOT: linalg.generic
func.func @bias_relu(%in: memref<1x5x5x4xf32>, %filter: memref<3x3x4x8xf32>, %bias: memref<8xf32>) -> memref<1x3x3x8xf32> {
  %zero = arith.constant 0.0 : f32
  %out = memref.alloc() : memref<1x3x3x8xf32>
  linalg.fill ins(%zero : f32) outs(%out : memref<1x3x3x8xf32>)
  linalg.conv_2d_nhwc_hwcf ins(%in, %filter : memref<1x5x5x4xf32>, memref<3x3x4x8xf32>) outs(%out : memref<1x3x3x8xf32>)
  linalg.generic {indexing_maps = [#nhwc, #channel, #nhwc], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%out, %bias : memref<1x3x3x8xf32>, memref<8xf32>) outs(%out : memref<1x3x3x8xf32>) {
  ^bb0(%o: f32, %b: f32, %unused: f32):
    %sum = arith.addf %b, %o : f32
    %relu = arith.maximumf %zero, %sum : f32
    linalg.yield %relu : f32
  }
  return %out : memref<1x3x3x8xf32>
}

// -----

#nchw = affine_map<(n, c, h, w) -> (n, c, h, w)>
#nchw_channel = affine_map<(n, c, h, w) -> (c)>

// An NCHW bias reads dimension 1. A bias without a ReLU: flags 0. The
// bias is a column of a matrix: its stride (3) is passed.
// CHECK-LABEL: func.func @nchw_bias
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : i64
// CHECK-DAG: %[[C3:.+]] = arith.constant 3 : i64
// CHECK: llvm.call @nxrt_conv2d_f32({{([^,]+, ){15}[^,]+}}, %[[C0]], {{([^,]+, ){10}[^,]+}}, %{{.+}}, %[[C3]], %{{.+}})
// CHECK-NOT: linalg.generic
func.func @nchw_bias(%in: memref<1x2x5x5xf32>, %filter: memref<3x2x3x3xf32>, %matrix: memref<3x3xf32>) -> memref<1x3x3x3xf32> {
  %zero = arith.constant 0.0 : f32
  %bias = memref.subview %matrix[0, 1] [3, 1] [1, 1] : memref<3x3xf32> to memref<3xf32, strided<[3], offset: 1>>
  %out = memref.alloc() : memref<1x3x3x3xf32>
  linalg.fill ins(%zero : f32) outs(%out : memref<1x3x3x3xf32>)
  linalg.conv_2d_nchw_fchw ins(%in, %filter : memref<1x2x5x5xf32>, memref<3x2x3x3xf32>) outs(%out : memref<1x3x3x3xf32>)
  linalg.generic {indexing_maps = [#nchw_channel, #nchw], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%bias : memref<3xf32, strided<[3], offset: 1>>) outs(%out : memref<1x3x3x3xf32>) {
  ^bb0(%b: f32, %o: f32):
    %sum = arith.addf %o, %b : f32
    linalg.yield %sum : f32
  }
  return %out : memref<1x3x3x3xf32>
}

// -----

#nhwc = affine_map<(n, h, w, c) -> (n, h, w, c)>

// A ReLU alone folds into an accumulating call too: flags 3, no bias.
// CHECK-LABEL: func.func @accumulate_relu
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : i64
// CHECK-DAG: %[[C3:.+]] = arith.constant 3 : i64
// CHECK-DAG: %[[NULL:.+]] = llvm.mlir.zero : !llvm.ptr
// CHECK: llvm.call @nxrt_conv2d_f32({{([^,]+, ){15}[^,]+}}, %[[C3]], {{([^,]+, ){10}[^,]+}}, %[[NULL]], %[[C0]], %{{.+}})
// CHECK-NOT: linalg.generic
func.func @accumulate_relu(%in: memref<1x5x5x4xf32>, %filter: memref<3x3x4x8xf32>, %out: memref<1x3x3x8xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.conv_2d_nhwc_hwcf ins(%in, %filter : memref<1x5x5x4xf32>, memref<3x3x4x8xf32>) outs(%out : memref<1x3x3x8xf32>)
  linalg.generic {indexing_maps = [#nhwc, #nhwc], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%out : memref<1x3x3x8xf32>) outs(%out : memref<1x3x3x8xf32>) {
  ^bb0(%o: f32, %unused: f32):
    %relu = arith.maximumf %o, %zero : f32
    linalg.yield %relu : f32
  }
  return
}

// -----

#nhwc = affine_map<(n, h, w, c) -> (n, h, w, c)>
#channel = affine_map<(n, h, w, c) -> (c)>

// Kept, each generic after a call without the epilogue's flags: a bias on
// an accumulating call (oneDNN would add it before the old output), a
// maximum with -0.0, a NaN-dropping arith.maxnumf, a body doing more, and
// an elementwise op writing elsewhere.
// CHECK-LABEL: func.func @kept
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : i64
// CHECK-DAG: %[[C1:.+]] = arith.constant 1 : i64
// CHECK: llvm.call @nxrt_conv2d_f32({{([^,]+, ){15}[^,]+}}, %[[C1]],
// CHECK-NEXT: linalg.generic
// CHECK: llvm.call @nxrt_conv2d_f32({{([^,]+, ){15}[^,]+}}, %[[C0]],
// CHECK-NEXT: linalg.generic
// CHECK: llvm.call @nxrt_conv2d_f32({{([^,]+, ){15}[^,]+}}, %[[C0]],
// CHECK-NEXT: linalg.generic
// CHECK: llvm.call @nxrt_conv2d_f32({{([^,]+, ){15}[^,]+}}, %[[C0]],
// CHECK-NEXT: linalg.generic
// CHECK: llvm.call @nxrt_conv2d_f32({{([^,]+, ){15}[^,]+}}, %[[C0]],
// CHECK-NEXT: linalg.generic
func.func @kept(%in: memref<1x5x5x4xf32>, %filter: memref<3x3x4x8xf32>, %bias: memref<8xf32>,
                %acc: memref<1x3x3x8xf32>, %elsewhere: memref<1x3x3x8xf32>) -> (memref<1x3x3x8xf32>, memref<1x3x3x8xf32>, memref<1x3x3x8xf32>, memref<1x3x3x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %negzero = arith.constant -0.0 : f32
  %two = arith.constant 2.0 : f32
  linalg.conv_2d_nhwc_hwcf ins(%in, %filter : memref<1x5x5x4xf32>, memref<3x3x4x8xf32>) outs(%acc : memref<1x3x3x8xf32>)
  linalg.generic {indexing_maps = [#nhwc, #channel, #nhwc], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%acc, %bias : memref<1x3x3x8xf32>, memref<8xf32>) outs(%acc : memref<1x3x3x8xf32>) {
  ^bb0(%o: f32, %b: f32, %unused: f32):
    %sum = arith.addf %o, %b : f32
    linalg.yield %sum : f32
  }

  %o1 = memref.alloc() : memref<1x3x3x8xf32>
  linalg.fill ins(%zero : f32) outs(%o1 : memref<1x3x3x8xf32>)
  linalg.conv_2d_nhwc_hwcf ins(%in, %filter : memref<1x5x5x4xf32>, memref<3x3x4x8xf32>) outs(%o1 : memref<1x3x3x8xf32>)
  linalg.generic {indexing_maps = [#nhwc, #nhwc], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%o1 : memref<1x3x3x8xf32>) outs(%o1 : memref<1x3x3x8xf32>) {
  ^bb0(%o: f32, %unused: f32):
    %relu = arith.maximumf %o, %negzero : f32
    linalg.yield %relu : f32
  }

  %o2 = memref.alloc() : memref<1x3x3x8xf32>
  linalg.fill ins(%zero : f32) outs(%o2 : memref<1x3x3x8xf32>)
  linalg.conv_2d_nhwc_hwcf ins(%in, %filter : memref<1x5x5x4xf32>, memref<3x3x4x8xf32>) outs(%o2 : memref<1x3x3x8xf32>)
  linalg.generic {indexing_maps = [#nhwc, #nhwc], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%o2 : memref<1x3x3x8xf32>) outs(%o2 : memref<1x3x3x8xf32>) {
  ^bb0(%o: f32, %unused: f32):
    %relu = arith.maxnumf %o, %zero : f32
    linalg.yield %relu : f32
  }

  %o3 = memref.alloc() : memref<1x3x3x8xf32>
  linalg.fill ins(%zero : f32) outs(%o3 : memref<1x3x3x8xf32>)
  linalg.conv_2d_nhwc_hwcf ins(%in, %filter : memref<1x5x5x4xf32>, memref<3x3x4x8xf32>) outs(%o3 : memref<1x3x3x8xf32>)
  linalg.generic {indexing_maps = [#nhwc, #nhwc], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%o3 : memref<1x3x3x8xf32>) outs(%o3 : memref<1x3x3x8xf32>) {
  ^bb0(%o: f32, %unused: f32):
    %scaled = arith.mulf %o, %two : f32
    %relu = arith.maximumf %scaled, %zero : f32
    linalg.yield %relu : f32
  }

  %o4 = memref.alloc() : memref<1x3x3x8xf32>
  linalg.fill ins(%zero : f32) outs(%o4 : memref<1x3x3x8xf32>)
  linalg.conv_2d_nhwc_hwcf ins(%in, %filter : memref<1x5x5x4xf32>, memref<3x3x4x8xf32>) outs(%o4 : memref<1x3x3x8xf32>)
  linalg.generic {indexing_maps = [#nhwc, #nhwc], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%o4 : memref<1x3x3x8xf32>) outs(%elsewhere : memref<1x3x3x8xf32>) {
  ^bb0(%o: f32, %unused: f32):
    %relu = arith.maximumf %o, %zero : f32
    linalg.yield %relu : f32
  }
  return %o1, %o2, %o3, %o4 : memref<1x3x3x8xf32>, memref<1x3x3x8xf32>, memref<1x3x3x8xf32>, memref<1x3x3x8xf32>
}

// -----

#nhwc = affine_map<(n, h, w, c) -> (n, h, w, c)>
#channel = affine_map<(n, h, w, c) -> (c)>

// Deallocations of other buffers between the convolution and its epilogue
// (the filter's, as bufferization places it) are passed over; a bias
// computed after the convolution is not taken, since the call reads it
// where the convolution was.
// CHECK-LABEL: func.func @between
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : i64
// CHECK-DAG: %[[C2:.+]] = arith.constant 2 : i64
// CHECK: llvm.call @nxrt_conv2d_f32({{([^,]+, ){15}[^,]+}}, %[[C2]],
// CHECK-NEXT: memref.dealloc
// CHECK-NOT: linalg.generic
// CHECK: llvm.call @nxrt_conv2d_f32({{([^,]+, ){15}[^,]+}}, %[[C0]],
// CHECK: linalg.fill
// CHECK: linalg.generic
func.func @between(%in: memref<1x5x5x4xf32>, %f: memref<3x3x4x8xf32>, %bias: memref<8xf32>) -> (memref<1x3x3x8xf32>, memref<1x3x3x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %filter = memref.alloc() : memref<3x3x4x8xf32>
  memref.copy %f, %filter : memref<3x3x4x8xf32> to memref<3x3x4x8xf32>
  %o1 = memref.alloc() : memref<1x3x3x8xf32>
  linalg.fill ins(%zero : f32) outs(%o1 : memref<1x3x3x8xf32>)
  linalg.conv_2d_nhwc_hwcf ins(%in, %filter : memref<1x5x5x4xf32>, memref<3x3x4x8xf32>) outs(%o1 : memref<1x3x3x8xf32>)
  memref.dealloc %filter : memref<3x3x4x8xf32>
  linalg.generic {indexing_maps = [#nhwc, #channel, #nhwc], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%o1, %bias : memref<1x3x3x8xf32>, memref<8xf32>) outs(%o1 : memref<1x3x3x8xf32>) {
  ^bb0(%o: f32, %b: f32, %unused: f32):
    %sum = arith.addf %o, %b : f32
    %relu = arith.maximumf %sum, %zero : f32
    linalg.yield %relu : f32
  }

  %o2 = memref.alloc() : memref<1x3x3x8xf32>
  linalg.fill ins(%zero : f32) outs(%o2 : memref<1x3x3x8xf32>)
  linalg.conv_2d_nhwc_hwcf ins(%in, %f : memref<1x5x5x4xf32>, memref<3x3x4x8xf32>) outs(%o2 : memref<1x3x3x8xf32>)
  %late = memref.alloc() : memref<8xf32>
  linalg.fill ins(%one : f32) outs(%late : memref<8xf32>)
  linalg.generic {indexing_maps = [#nhwc, #channel, #nhwc], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%o2, %late : memref<1x3x3x8xf32>, memref<8xf32>) outs(%o2 : memref<1x3x3x8xf32>) {
  ^bb0(%o: f32, %b: f32, %unused: f32):
    %sum = arith.addf %o, %b : f32
    linalg.yield %sum : f32
  }
  return %o1, %o2 : memref<1x3x3x8xf32>, memref<1x3x3x8xf32>
}

// RUN: nx-opt %s -split-input-file -nx-linalg-to-dnnl -canonicalize | FileCheck %s --enable-var-scope

// An NHWC/HWCF convolution becomes one nxrt_conv2d_f32 call: batch 1, one
// group of 4 input and 8 output channels, a 9x9 input, a 3x3 filter, a 4x4
// output, strides 2 and dilations 1, no padding, flags 1 (accumulate); then
// each operand's address and element strides in the runtime's order (input
// and output: batch, channel, row, column; filter: group, output channel,
// input channel, row, column; no bias: null and 0), the filter's absent
// group dimension of stride 0. With static shapes they fold to constants.
// CHECK: llvm.func @nxrt_conv2d_f32(i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64, i64, !llvm.ptr, i64, !llvm.ptr, i64, i64, i64, i64)
// CHECK-LABEL: func.func @nhwc_hwcf
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : i64
// CHECK-DAG: %[[C1:.+]] = arith.constant 1 : i64
// CHECK-DAG: %[[C2:.+]] = arith.constant 2 : i64
// CHECK-DAG: %[[C3:.+]] = arith.constant 3 : i64
// CHECK-DAG: %[[C4:.+]] = arith.constant 4 : i64
// CHECK-DAG: %[[C8:.+]] = arith.constant 8 : i64
// CHECK-DAG: %[[C9:.+]] = arith.constant 9 : i64
// CHECK-DAG: %[[C32:.+]] = arith.constant 32 : i64
// CHECK-DAG: %[[C36:.+]] = arith.constant 36 : i64
// CHECK-DAG: %[[C96:.+]] = arith.constant 96 : i64
// CHECK-DAG: %[[C128:.+]] = arith.constant 128 : i64
// CHECK-DAG: %[[C324:.+]] = arith.constant 324 : i64
// CHECK: llvm.call @nxrt_conv2d_f32(%[[C1]], %[[C1]], %[[C4]], %[[C8]], %[[C9]], %[[C9]], %[[C3]], %[[C3]], %[[C4]], %[[C4]], %[[C2]], %[[C2]], %[[C1]], %[[C1]], %[[C0]], %[[C0]], %[[C1]], %{{.+}}, %[[C324]], %[[C1]], %[[C36]], %[[C4]], %{{.+}}, %[[C0]], %[[C1]], %[[C8]], %[[C96]], %[[C32]], %{{.+}}, %[[C0]], %{{.+}}, %[[C128]], %[[C1]], %[[C32]], %[[C8]])
// CHECK-NOT: linalg.conv
func.func @nhwc_hwcf(%in: memref<1x9x9x4xf32>, %filter: memref<3x3x4x8xf32>, %out: memref<1x4x4x8xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%in, %filter : memref<1x9x9x4xf32>, memref<3x3x4x8xf32>) outs(%out : memref<1x4x4x8xf32>)
  return
}

// -----

// An FHWC filter is the same call with its strides permuted: output channel
// 36, input channel 1, row 12, column 4. Dilation 2 of a 3x2 filter.
// CHECK-LABEL: func.func @nhwc_fhwc
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : i64
// CHECK-DAG: %[[C1:.+]] = arith.constant 1 : i64
// CHECK-DAG: %[[C2:.+]] = arith.constant 2 : i64
// CHECK-DAG: %[[C3:.+]] = arith.constant 3 : i64
// CHECK-DAG: %[[C4:.+]] = arith.constant 4 : i64
// CHECK-DAG: %[[C6:.+]] = arith.constant 6 : i64
// CHECK-DAG: %[[C8:.+]] = arith.constant 8 : i64
// CHECK-DAG: %[[C24:.+]] = arith.constant 24 : i64
// CHECK-DAG: %[[C48:.+]] = arith.constant 48 : i64
// CHECK-DAG: %[[C144:.+]] = arith.constant 144 : i64
// CHECK: llvm.call @nxrt_conv2d_f32(%[[C2]], %[[C1]], %[[C4]], %[[C6]], %[[C6]], %[[C6]], %[[C3]], %[[C2]], %[[C2]], %[[C4]], %[[C1]], %[[C1]], %[[C2]], %[[C2]], %[[C0]], %[[C0]], %[[C1]], %{{.+}}, %[[C144]], %[[C1]], %[[C24]], %[[C4]], %{{.+}}, %[[C0]], %[[C24]], %[[C1]], %[[C8]], %[[C4]], %{{.+}}, %[[C0]], %{{.+}}, %[[C48]], %[[C1]], %[[C24]], %[[C6]])
func.func @nhwc_fhwc(%in: memref<2x6x6x4xf32>, %filter: memref<6x3x2x4xf32>, %out: memref<2x2x4x6xf32>) {
  linalg.conv_2d_nhwc_fhwc {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%in, %filter : memref<2x6x6x4xf32>, memref<6x3x2x4xf32>) outs(%out : memref<2x2x4x6xf32>)
  return
}

// -----

// NCHW / FCHW: every operand's strides in their own order.
// CHECK-LABEL: func.func @nchw_fchw
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : i64
// CHECK-DAG: %[[C1:.+]] = arith.constant 1 : i64
// CHECK-DAG: %[[C3:.+]] = arith.constant 3 : i64
// CHECK-DAG: %[[C5:.+]] = arith.constant 5 : i64
// CHECK-DAG: %[[C7:.+]] = arith.constant 7 : i64
// CHECK-DAG: %[[C9:.+]] = arith.constant 9 : i64
// CHECK-DAG: %[[C25:.+]] = arith.constant 25 : i64
// CHECK-DAG: %[[C49:.+]] = arith.constant 49 : i64
// CHECK-DAG: %[[C98:.+]] = arith.constant 98 : i64
// CHECK-DAG: %[[C75:.+]] = arith.constant 75 : i64
// CHECK: llvm.call @nxrt_conv2d_f32(%[[C1]], %[[C1]], %{{.+}}, %[[C3]], %[[C7]], %[[C7]], %[[C3]], %[[C3]], %[[C5]], %[[C5]], %[[C1]], %[[C1]], %[[C1]], %[[C1]], %[[C0]], %[[C0]], %[[C1]], %{{.+}}, %[[C98]], %[[C49]], %[[C7]], %[[C1]], %{{.+}}, %[[C0]], %{{.+}}, %[[C9]], %[[C3]], %[[C1]], %{{.+}}, %[[C0]], %{{.+}}, %[[C75]], %[[C25]], %[[C5]], %[[C1]])
func.func @nchw_fchw(%in: memref<1x2x7x7xf32>, %filter: memref<3x2x3x3xf32>, %out: memref<1x3x5x5xf32>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%in, %filter : memref<1x2x7x7xf32>, memref<3x2x3x3xf32>) outs(%out : memref<1x3x5x5xf32>)
  return
}

// -----

// A depthwise convolution is a grouped one: 16 groups of one channel in and
// one out; the filter's group is its channel (stride 1), its other channel
// dimensions absent (stride 0).
// CHECK-LABEL: func.func @depthwise
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : i64
// CHECK-DAG: %[[C1:.+]] = arith.constant 1 : i64
// CHECK-DAG: %[[C2:.+]] = arith.constant 2 : i64
// CHECK-DAG: %[[C3:.+]] = arith.constant 3 : i64
// CHECK-DAG: %[[C5:.+]] = arith.constant 5 : i64
// CHECK-DAG: %[[C11:.+]] = arith.constant 11 : i64
// CHECK-DAG: %[[C16:.+]] = arith.constant 16 : i64
// CHECK-DAG: %[[C48:.+]] = arith.constant 48 : i64
// CHECK-DAG: %[[C80:.+]] = arith.constant 80 : i64
// CHECK-DAG: %[[C176:.+]] = arith.constant 176 : i64
// CHECK-DAG: %[[C400:.+]] = arith.constant 400 : i64
// CHECK-DAG: %[[C1936:.+]] = arith.constant 1936 : i64
// CHECK: llvm.call @nxrt_conv2d_f32(%[[C1]], %[[C16]], %[[C1]], %[[C1]], %[[C11]], %[[C11]], %[[C3]], %[[C3]], %[[C5]], %[[C5]], %[[C2]], %[[C2]], %[[C1]], %[[C1]], %[[C0]], %[[C0]], %[[C1]], %{{.+}}, %[[C1936]], %[[C1]], %[[C176]], %[[C16]], %{{.+}}, %[[C1]], %[[C0]], %[[C0]], %[[C48]], %[[C16]], %{{.+}}, %[[C0]], %{{.+}}, %[[C400]], %[[C1]], %[[C80]], %[[C16]])
func.func @depthwise(%in: memref<1x11x11x16xf32>, %filter: memref<3x3x16xf32>, %out: memref<1x5x5x16xf32>) {
  linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%in, %filter : memref<1x11x11x16xf32>, memref<3x3x16xf32>) outs(%out : memref<1x5x5x16xf32>)
  return
}

// -----

// Sizes and strides known only at run time are read from the descriptors.
// CHECK-LABEL: func.func @dynamic
// CHECK: %{{.+}}, %{{.+}}, %[[SIZES:.+]]:4, %[[STRIDES:.+]]:4 = memref.extract_strided_metadata %arg0
// CHECK: %[[N:.+]] = arith.index_cast %[[SIZES]]#0 : index to i64
// CHECK: llvm.call @nxrt_conv2d_f32(%[[N]],
// CHECK-NOT: linalg.conv
func.func @dynamic(%in: memref<?x?x?x?xf32, strided<[?, ?, ?, ?], offset: ?>>, %filter: memref<?x?x?x?xf32>, %out: memref<?x?x?x?xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%in, %filter : memref<?x?x?x?xf32, strided<[?, ?, ?, ?], offset: ?>>, memref<?x?x?x?xf32>) outs(%out : memref<?x?x?x?xf32>)
  return
}

// -----

// Left alone: convolutions on tensors, of other element types, and of
// layouts the runtime does not take.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: llvm.call
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}} -> tensor<1x3x3x2xf32>
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}} outs(%{{.+}} : memref<1x3x3x2xf64>)
// CHECK: linalg.depthwise_conv_2d_nhwc_hwcm
// CHECK-NOT: llvm.call
func.func @left_alone(%t: tensor<1x5x5x2xf32>, %tf: tensor<3x3x2x2xf32>, %to: tensor<1x3x3x2xf32>,
                      %d: memref<1x5x5x2xf64>, %df: memref<3x3x2x2xf64>, %do: memref<1x3x3x2xf64>,
                      %m: memref<1x5x5x2xf32>, %mf: memref<3x3x2x3xf32>, %mo: memref<1x3x3x2x3xf32>) -> tensor<1x3x3x2xf32> {
  %r = linalg.conv_2d_nhwc_hwcf ins(%t, %tf : tensor<1x5x5x2xf32>, tensor<3x3x2x2xf32>) outs(%to : tensor<1x3x3x2xf32>) -> tensor<1x3x3x2xf32>
  linalg.conv_2d_nhwc_hwcf ins(%d, %df : memref<1x5x5x2xf64>, memref<3x3x2x2xf64>) outs(%do : memref<1x3x3x2xf64>)
  linalg.depthwise_conv_2d_nhwc_hwcm ins(%m, %mf : memref<1x5x5x2xf32>, memref<3x3x2x3xf32>) outs(%mo : memref<1x3x3x2x3xf32>)
  return %r : tensor<1x3x3x2xf32>
}

// -----

// A fresh output filled with +0.0 just before: the call writes over it
// (flags 0) and the fill goes.
// CHECK-LABEL: func.func @zero_filled
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : i64
// CHECK-DAG: %[[C1:.+]] = arith.constant 1 : i64
// CHECK-NOT: linalg.fill
// CHECK: llvm.call @nxrt_conv2d_f32({{([^,]+, ){15}[^,]+}}, %[[C0]], %{{.+}}
// CHECK-NOT: linalg.fill
func.func @zero_filled(%in: memref<1x5x5x2xf32>, %filter: memref<3x3x2x2xf32>) -> memref<1x3x3x2xf32> {
  %zero = arith.constant 0.0 : f32
  %out = memref.alloc() : memref<1x3x3x2xf32>
  linalg.fill ins(%zero : f32) outs(%out : memref<1x3x3x2xf32>)
  linalg.conv_2d_nhwc_hwcf ins(%in, %filter : memref<1x5x5x2xf32>, memref<3x3x2x2xf32>) outs(%out : memref<1x3x3x2xf32>)
  return %out : memref<1x3x3x2xf32>
}

// -----

// A 1-D convolution's output, a unit height inserted into a fresh buffer
// (nx-convolutions-1d-to-2d): the call writes over it too. When the buffer
// itself is read between the fill and the call, the fill stays.
// CHECK-LABEL: func.func @zero_filled_reshape
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : i64
// CHECK-DAG: %[[C1:.+]] = arith.constant 1 : i64
// CHECK-NOT: linalg.fill
// CHECK: llvm.call @nxrt_conv2d_f32({{([^,]+, ){15}[^,]+}}, %[[C0]], %{{.+}}
// CHECK: linalg.fill
// CHECK: memref.copy
// CHECK: llvm.call @nxrt_conv2d_f32({{([^,]+, ){15}[^,]+}}, %[[C1]], %{{.+}}
func.func @zero_filled_reshape(%in: memref<2x1x8x4xf32>, %filter: memref<1x3x4x4xf32>, %copy: memref<2x6x4xf32>) -> (memref<2x6x4xf32>, memref<2x6x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %out = memref.alloc() : memref<2x6x4xf32>
  %view = memref.expand_shape %out [[0, 1], [2], [3]] output_shape [2, 1, 6, 4] : memref<2x6x4xf32> into memref<2x1x6x4xf32>
  linalg.fill ins(%zero : f32) outs(%view : memref<2x1x6x4xf32>)
  linalg.conv_2d_nhwc_hwcf ins(%in, %filter : memref<2x1x8x4xf32>, memref<1x3x4x4xf32>) outs(%view : memref<2x1x6x4xf32>)
  %read = memref.alloc() : memref<2x6x4xf32>
  %readView = memref.expand_shape %read [[0, 1], [2], [3]] output_shape [2, 1, 6, 4] : memref<2x6x4xf32> into memref<2x1x6x4xf32>
  linalg.fill ins(%zero : f32) outs(%readView : memref<2x1x6x4xf32>)
  memref.copy %read, %copy : memref<2x6x4xf32> to memref<2x6x4xf32>
  linalg.conv_2d_nhwc_hwcf ins(%in, %filter : memref<2x1x8x4xf32>, memref<1x3x4x4xf32>) outs(%readView : memref<2x1x6x4xf32>)
  return %out, %read : memref<2x6x4xf32>, memref<2x6x4xf32>
}

// -----

// A 3-D convolution's output, its batch and depth collapsed into one batch
// (nx-convolutions-3d-to-2d): the first of its calls writes over the fill,
// and the second, on the same view, adds to what the first wrote.
// CHECK-LABEL: func.func @zero_filled_collapse
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : i64
// CHECK-DAG: %[[C1:.+]] = arith.constant 1 : i64
// CHECK-NOT: linalg.fill
// CHECK: llvm.call @nxrt_conv2d_f32({{([^,]+, ){15}[^,]+}}, %[[C0]], %{{.+}}
// CHECK-NOT: linalg.fill
// CHECK: llvm.call @nxrt_conv2d_f32({{([^,]+, ){15}[^,]+}}, %[[C1]], %{{.+}}
func.func @zero_filled_collapse(%in: memref<6x8x8x4xf32>, %filter: memref<3x3x4x4xf32>) -> memref<1x6x6x6x4xf32> {
  %zero = arith.constant 0.0 : f32
  %out = memref.alloc() : memref<1x6x6x6x4xf32>
  %view = memref.collapse_shape %out [[0, 1], [2], [3], [4]] : memref<1x6x6x6x4xf32> into memref<6x6x6x4xf32>
  linalg.fill ins(%zero : f32) outs(%view : memref<6x6x6x4xf32>)
  linalg.conv_2d_nhwc_hwcf ins(%in, %filter : memref<6x8x8x4xf32>, memref<3x3x4x4xf32>) outs(%view : memref<6x6x6x4xf32>)
  linalg.conv_2d_nhwc_hwcf ins(%in, %filter : memref<6x8x8x4xf32>, memref<3x3x4x4xf32>) outs(%view : memref<6x6x6x4xf32>)
  return %out : memref<1x6x6x6x4xf32>
}

// -----

// The fill stays, and the call adds to it, when the output is read between
// the fill and the convolution, when the fill is not of +0.0, or when the
// output is not a fresh buffer.
// CHECK-LABEL: func.func @fill_kept
// CHECK-DAG: %[[C1:.+]] = arith.constant 1 : i64
// CHECK: linalg.fill
// CHECK: memref.copy
// CHECK: llvm.call @nxrt_conv2d_f32({{([^,]+, ){15}[^,]+}}, %[[C1]], %{{.+}}
// CHECK: linalg.fill
// CHECK: llvm.call @nxrt_conv2d_f32({{([^,]+, ){15}[^,]+}}, %[[C1]], %{{.+}}
// CHECK: linalg.fill
// CHECK: llvm.call @nxrt_conv2d_f32({{([^,]+, ){15}[^,]+}}, %[[C1]], %{{.+}}
func.func @fill_kept(%in: memref<1x5x5x2xf32>, %filter: memref<3x3x2x2xf32>, %copy: memref<1x3x3x2xf32>, %arg: memref<1x3x3x2xf32>) -> (memref<1x3x3x2xf32>, memref<1x3x3x2xf32>) {
  %zero = arith.constant 0.0 : f32
  %negzero = arith.constant -0.0 : f32
  %read = memref.alloc() : memref<1x3x3x2xf32>
  linalg.fill ins(%zero : f32) outs(%read : memref<1x3x3x2xf32>)
  memref.copy %read, %copy : memref<1x3x3x2xf32> to memref<1x3x3x2xf32>
  linalg.conv_2d_nhwc_hwcf ins(%in, %filter : memref<1x5x5x2xf32>, memref<3x3x2x2xf32>) outs(%read : memref<1x3x3x2xf32>)
  %other = memref.alloc() : memref<1x3x3x2xf32>
  linalg.fill ins(%negzero : f32) outs(%other : memref<1x3x3x2xf32>)
  linalg.conv_2d_nhwc_hwcf ins(%in, %filter : memref<1x5x5x2xf32>, memref<3x3x2x2xf32>) outs(%other : memref<1x3x3x2xf32>)
  linalg.fill ins(%zero : f32) outs(%arg : memref<1x3x3x2xf32>)
  linalg.conv_2d_nhwc_hwcf ins(%in, %filter : memref<1x5x5x2xf32>, memref<3x3x2x2xf32>) outs(%arg : memref<1x3x3x2xf32>)
  memref.dealloc %read : memref<1x3x3x2xf32>
  return %other, %arg : memref<1x3x3x2xf32>, memref<1x3x3x2xf32>
}

// -----

// A grouped NGCHW/GFCHW convolution: groups and their channels are one
// channel dimension of the call (a memref.collapse_shape of the input and
// the output), 2 groups of 3 input and 4 output channels; the filter's
// strides are its own (group 108, output 27, input 9, row 3, column 1).
// CHECK-LABEL: func.func @grouped_ngchw
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : i64
// CHECK-DAG: %[[C1:.+]] = arith.constant 1 : i64
// CHECK-DAG: %[[C2:.+]] = arith.constant 2 : i64
// CHECK-DAG: %[[C3:.+]] = arith.constant 3 : i64
// CHECK-DAG: %[[C4:.+]] = arith.constant 4 : i64
// CHECK-DAG: %[[C6:.+]] = arith.constant 6 : i64
// CHECK-DAG: %[[C9:.+]] = arith.constant 9 : i64
// CHECK-DAG: %[[C16:.+]] = arith.constant 16 : i64
// CHECK-DAG: %[[C27:.+]] = arith.constant 27 : i64
// CHECK-DAG: %[[C36:.+]] = arith.constant 36 : i64
// CHECK-DAG: %[[C108:.+]] = arith.constant 108 : i64
// CHECK-DAG: %[[C128:.+]] = arith.constant 128 : i64
// CHECK-DAG: %[[C216:.+]] = arith.constant 216 : i64
// CHECK: llvm.call @nxrt_conv2d_f32(%[[C1]], %[[C2]], %[[C3]], %[[C4]], %[[C6]], %[[C6]], %[[C3]], %[[C3]], %[[C4]], %[[C4]], %[[C1]], %[[C1]], %[[C1]], %[[C1]], %[[C0]], %[[C0]], %[[C1]], %{{.+}}, %[[C216]], %[[C36]], %[[C6]], %[[C1]], %{{.+}}, %[[C108]], %[[C27]], %[[C9]], %[[C3]], %[[C1]], %{{.+}}, %[[C0]], %{{.+}}, %[[C128]], %[[C16]], %[[C4]], %[[C1]])
// CHECK-NOT: linalg.conv
func.func @grouped_ngchw(%in: memref<1x2x3x6x6xf32>, %filter: memref<2x4x3x3x3xf32>, %out: memref<1x2x4x4x4xf32>) {
  linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%in, %filter : memref<1x2x3x6x6xf32>, memref<2x4x3x3x3xf32>) outs(%out : memref<1x2x4x4x4xf32>)
  return
}

// -----

// NHWGC/GFHWC: the input's channels (stride 1) follow their group, the
// filter's input channel is its last dimension (stride 1), its row 9 and
// column 3; a zero-filled fresh output is written over (flags 0).
// CHECK-LABEL: func.func @grouped_nhwgc
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : i64
// CHECK-DAG: %[[C1:.+]] = arith.constant 1 : i64
// CHECK-DAG: %[[C2:.+]] = arith.constant 2 : i64
// CHECK-DAG: %[[C3:.+]] = arith.constant 3 : i64
// CHECK-DAG: %[[C4:.+]] = arith.constant 4 : i64
// CHECK-DAG: %[[C6:.+]] = arith.constant 6 : i64
// CHECK-DAG: %[[C8:.+]] = arith.constant 8 : i64
// CHECK-DAG: %[[C9:.+]] = arith.constant 9 : i64
// CHECK-DAG: %[[C27:.+]] = arith.constant 27 : i64
// CHECK-DAG: %[[C32:.+]] = arith.constant 32 : i64
// CHECK-DAG: %[[C36:.+]] = arith.constant 36 : i64
// CHECK-DAG: %[[C108:.+]] = arith.constant 108 : i64
// CHECK-DAG: %[[C128:.+]] = arith.constant 128 : i64
// CHECK-DAG: %[[C216:.+]] = arith.constant 216 : i64
// CHECK-NOT: linalg.fill
// CHECK: llvm.call @nxrt_conv2d_f32(%[[C1]], %[[C2]], %[[C3]], %[[C4]], %[[C6]], %[[C6]], %[[C3]], %[[C3]], %[[C4]], %[[C4]], %[[C1]], %[[C1]], %[[C1]], %[[C1]], %[[C0]], %[[C0]], %[[C0]], %{{.+}}, %[[C216]], %[[C1]], %[[C36]], %[[C6]], %{{.+}}, %[[C108]], %[[C27]], %[[C1]], %[[C9]], %[[C3]], %{{.+}}, %[[C0]], %{{.+}}, %[[C128]], %[[C1]], %[[C32]], %[[C8]])
// CHECK-NOT: linalg.conv
func.func @grouped_nhwgc(%in: memref<1x6x6x2x3xf32>, %filter: memref<2x4x3x3x3xf32>) -> memref<1x4x4x2x4xf32> {
  %zero = arith.constant 0.0 : f32
  %out = memref.alloc() : memref<1x4x4x2x4xf32>
  linalg.fill ins(%zero : f32) outs(%out : memref<1x4x4x2x4xf32>)
  linalg.conv_2d_nhwgc_gfhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%in, %filter : memref<1x6x6x2x3xf32>, memref<2x4x3x3x3xf32>) outs(%out : memref<1x4x4x2x4xf32>)
  return %out : memref<1x4x4x2x4xf32>
}

// -----

// Groups whose channels do not follow each other (a view of every other
// group's block) are no channel dimension of the call: the convolution
// stays.
// CHECK-LABEL: func.func @grouped_gaps
// CHECK-NOT: llvm.call
// CHECK: linalg.conv_2d_ngchw_gfchw
func.func @grouped_gaps(%in: memref<1x2x3x6x6xf32, strided<[432, 216, 36, 6, 1]>>, %filter: memref<2x4x3x3x3xf32>, %out: memref<1x2x4x4x4xf32>) {
  linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%in, %filter : memref<1x2x3x6x6xf32, strided<[432, 216, 36, 6, 1]>>, memref<2x4x3x3x3xf32>) outs(%out : memref<1x2x4x4x4xf32>)
  return
}

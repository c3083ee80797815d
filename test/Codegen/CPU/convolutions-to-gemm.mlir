// RUN: nx-opt %s -split-input-file -nx-convolutions-to-gemm | FileCheck %s --enable-var-scope
// RUN: nx-opt %s -split-input-file -nx-convolutions-to-gemm=row-block=16 | FileCheck %s --enable-var-scope --check-prefix=BLOCKS

// NHWC/HWCF: the patch matrix [N*OH*OW, KH*KW*C] is filled by a copy whose
// input map reads oh + kh, ow + kw; the filter is [KH*KW*C, F]; one block
// holds every image, so there is no loop. The patch buffer is freed after
// the product.
// CHECK-DAG: #[[$IN:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d0 + d3, d2 + d4, d5)>
// CHECK-DAG: #[[$PATCH:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d0, d2, d3, d4, d5)>
// CHECK-LABEL: func.func @nhwc_hwcf
// CHECK-SAME: (%[[X:.+]]: memref<2x6x6x3xf32>, %[[W:.+]]: memref<3x3x3x4xf32>, %[[Y:.+]]: memref<2x4x4x4xf32>)
// CHECK: %[[ALLOC:.+]] = memref.alloc() {alignment = 64 : i64} : memref<32x27xf32>
// CHECK: %[[P6:.+]] = memref.expand_shape %[[ALLOC]] {{\[}}[0, 1, 2], [3, 4, 5]] output_shape [2, 4, 4, 3, 3, 3]
// CHECK: %[[W2:.+]] = memref.collapse_shape %[[W]] {{\[}}[0, 1, 2], [3]] : memref<3x3x3x4xf32> into memref<27x4xf32>
// CHECK-NOT: scf.for
// CHECK: %[[ROWS:.+]] = memref.subview %[[X]][0, 0, 0, 0] [2, 6, 6, 3] [1, 1, 1, 1]
// CHECK: linalg.generic {indexing_maps = [#[[$IN]], #[[$PATCH]]]
// CHECK-SAME: ins(%[[ROWS]] : {{.+}}) outs(%[[P6]] : memref<2x4x4x3x3x3xf32>)
// CHECK: %[[BLOCK:.+]] = memref.subview %[[Y]][0, 0, 0, 0] [2, 4, 4, 4] [1, 1, 1, 1]
// CHECK: %[[Y2:.+]] = memref.collapse_shape %[[BLOCK]] {{\[}}[0, 1, 2], [3]]
// CHECK: linalg.matmul ins(%[[ALLOC]], %[[W2]] : memref<32x27xf32>, memref<27x4xf32>) outs(%[[Y2]] : memref<32x4xf32, strided<[4, 1]>>)
// CHECK: memref.dealloc %[[ALLOC]] : memref<32x27xf32>
// CHECK-NOT: linalg.conv
// With row-block=16, blocks of 4 output rows (16 patch rows) of one image:
// a loop over the images; every image has one block of rows.
// BLOCKS-LABEL: func.func @nhwc_hwcf
// BLOCKS: %[[ALLOC:.+]] = memref.alloc() {alignment = 64 : i64} : memref<16x27xf32>
// BLOCKS: scf.for %[[N:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// BLOCKS: memref.subview %{{.+}}[%[[N]], 0, 0, 0] [1, 6, 6, 3] [1, 1, 1, 1]
// BLOCKS: linalg.generic
// BLOCKS: memref.subview %{{.+}}[%[[N]], 0, 0, 0] [1, 4, 4, 4] [1, 1, 1, 1]
// BLOCKS: linalg.matmul ins(%[[ALLOC]], %{{.+}} : memref<16x27xf32>, memref<27x4xf32>)
// BLOCKS: }
// BLOCKS: memref.dealloc %[[ALLOC]]
func.func @nhwc_hwcf(%in: memref<2x6x6x3xf32>, %filter: memref<3x3x3x4xf32>, %out: memref<2x4x4x4xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%in, %filter : memref<2x6x6x3xf32>, memref<3x3x3x4xf32>) outs(%out : memref<2x4x4x4xf32>)
  return
}

// -----

// NHWC/FHWC with stride 2 and dilation 2: the copy reads oh * 2 + kh * 2;
// the filter [F, KH*KW*C] is transposed into a column-major [K, F] view.
// CHECK-DAG: #[[$IN:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d0 * 2 + d3 * 2, d2 * 2 + d4 * 2, d5)>
// CHECK-LABEL: func.func @nhwc_fhwc_strided_dilated
// CHECK: %[[ALLOC:.+]] = memref.alloc() {alignment = 64 : i64} : memref<16x8xf64>
// CHECK: %[[W2:.+]] = memref.collapse_shape %{{.+}} {{\[}}[0], [1, 2, 3]] : memref<5x2x2x2xf64> into memref<5x8xf64>
// CHECK: %[[WT:.+]] = memref.transpose %[[W2]] (d0, d1) -> (d1, d0) : memref<5x8xf64> to memref<8x5xf64, strided<[1, 8]>>
// CHECK: linalg.generic {indexing_maps = [#[[$IN]],
// CHECK: linalg.matmul ins(%[[ALLOC]], %[[WT]] : memref<16x8xf64>, memref<8x5xf64, strided<[1, 8]>>) outs(%{{.+}} : memref<16x5xf64, strided<[5, 1]>>)
// CHECK: memref.dealloc %[[ALLOC]]
func.func @nhwc_fhwc_strided_dilated(%in: memref<1x9x9x2xf64>, %filter: memref<5x2x2x2xf64>, %out: memref<1x4x4x5xf64>) {
  linalg.conv_2d_nhwc_fhwc {dilations = dense<2> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%in, %filter : memref<1x9x9x2xf64>, memref<5x2x2x2xf64>) outs(%out : memref<1x4x4x5xf64>)
  return
}

// -----

// NCHW/FCHW: per image, filter [F, C*KH*KW] x patch [C*KH*KW, OH*OW] into
// the image's output seen as [F, OH*OW].
// CHECK-DAG: #[[$IN:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1 + d3, d2 + d4)>
// CHECK-LABEL: func.func @nchw_fchw
// CHECK-SAME: (%[[X:.+]]: memref<2x3x6x6xf32>, %[[W:.+]]: memref<4x3x3x3xf32>, %[[Y:.+]]: memref<2x4x4x4xf32>)
// CHECK: %[[W2:.+]] = memref.collapse_shape %[[W]] {{\[}}[0], [1, 2, 3]] : memref<4x3x3x3xf32> into memref<4x27xf32>
// CHECK: %[[ALLOC:.+]] = memref.alloc() {alignment = 64 : i64} : memref<27x16xf32>
// CHECK: %[[P5:.+]] = memref.expand_shape %[[ALLOC]] {{\[}}[0, 1, 2], [3, 4]] output_shape [3, 3, 3, 4, 4]
// CHECK: scf.for %[[N:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK: %[[IMAGE:.+]] = memref.subview %[[X]][%[[N]], 0, 0, 0] [1, 3, 6, 6] [1, 1, 1, 1] : memref<2x3x6x6xf32> to memref<3x6x6xf32, strided<[36, 6, 1], offset: ?>>
// CHECK: linalg.generic {indexing_maps = [#[[$IN]],
// CHECK-SAME: ins(%[[IMAGE]] : {{.+}}) outs(%[[P5]] : memref<3x3x3x4x4xf32>)
// CHECK: %[[OUT:.+]] = memref.subview %[[Y]][%[[N]], 0, 0, 0] [1, 4, 4, 4] [1, 1, 1, 1]
// CHECK: %[[Y2:.+]] = memref.collapse_shape %[[OUT]] {{\[}}[0], [1, 2]]
// CHECK: linalg.matmul ins(%[[W2]], %[[ALLOC]] : memref<4x27xf32>, memref<27x16xf32>) outs(%[[Y2]] : memref<4x16xf32, strided<[16, 1], offset: ?>>)
// CHECK: }
// CHECK: memref.dealloc %[[ALLOC]]
func.func @nchw_fchw(%in: memref<2x3x6x6xf32>, %filter: memref<4x3x3x3xf32>, %out: memref<2x4x4x4xf32>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%in, %filter : memref<2x3x6x6xf32>, memref<4x3x3x3xf32>) outs(%out : memref<2x4x4x4xf32>)
  return
}

// -----

// A 1x1 convolution of stride 1 is a matmul of the input itself: no patch.
// CHECK-LABEL: func.func @pointwise_nhwc
// CHECK-SAME: (%[[X:.+]]: memref<2x5x5x8xf32>, %[[W:.+]]: memref<1x1x8x16xf32>, %[[Y:.+]]: memref<2x5x5x16xf32>)
// CHECK-NOT: memref.alloc
// CHECK-DAG: %[[W2:.+]] = memref.collapse_shape %[[W]] {{\[}}[0, 1, 2], [3]] : memref<1x1x8x16xf32> into memref<8x16xf32>
// CHECK-DAG: %[[X2:.+]] = memref.collapse_shape %[[X]] {{\[}}[0, 1, 2], [3]] : memref<2x5x5x8xf32> into memref<50x8xf32>
// CHECK-DAG: %[[Y2:.+]] = memref.collapse_shape %[[Y]] {{\[}}[0, 1, 2], [3]] : memref<2x5x5x16xf32> into memref<50x16xf32>
// CHECK: linalg.matmul ins(%[[X2]], %[[W2]] : memref<50x8xf32>, memref<8x16xf32>) outs(%[[Y2]] : memref<50x16xf32>)
// CHECK-NOT: memref.dealloc
func.func @pointwise_nhwc(%in: memref<2x5x5x8xf32>, %filter: memref<1x1x8x16xf32>, %out: memref<2x5x5x16xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%in, %filter : memref<2x5x5x8xf32>, memref<1x1x8x16xf32>) outs(%out : memref<2x5x5x16xf32>)
  return
}

// -----

// CHECK-LABEL: func.func @pointwise_nchw
// CHECK-NOT: memref.alloc
// CHECK: %[[W2:.+]] = memref.collapse_shape %{{.+}} {{\[}}[0], [1, 2, 3]] : memref<16x8x1x1xf64> into memref<16x8xf64>
// CHECK: scf.for
// CHECK: %[[X2:.+]] = memref.collapse_shape %{{.+}} {{\[}}[0], [1, 2]] : {{.+}} into memref<8x25xf64, strided<[25, 1], offset: ?>>
// CHECK: linalg.matmul ins(%[[W2]], %[[X2]] : memref<16x8xf64>, memref<8x25xf64, strided<[25, 1], offset: ?>>)
// CHECK-NOT: memref.dealloc
func.func @pointwise_nchw(%in: memref<2x8x5x5xf64>, %filter: memref<16x8x1x1xf64>, %out: memref<2x16x5x5xf64>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%in, %filter : memref<2x8x5x5xf64>, memref<16x8x1x1xf64>) outs(%out : memref<2x16x5x5xf64>)
  return
}

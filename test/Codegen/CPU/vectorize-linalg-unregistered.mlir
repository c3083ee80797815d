// RUN: nx-opt %s -allow-unregistered-dialect -nx-vectorize-linalg=vector-bits=128 | FileCheck %s --enable-var-scope

// Ops of no registered dialect (here the body's terminator, which the
// verifier accepts) have no dialect: the pass's clean-up of vector ops
// walks past them instead of dereferencing a null dialect.

// CHECK-LABEL: func.func @pooling_before_an_unregistered_terminator
// CHECK-NOT:     linalg.pooling_nhwc_max
// CHECK:         vector.transfer_read
// CHECK:         arith.maximumf {{.*}} : vector<4xf32>
// CHECK:         "test.end"() : () -> ()
func.func @pooling_before_an_unregistered_terminator(
    %x: memref<1x8x16x32xf32>, %w: memref<2x2xf32>, %y: memref<1x4x8x32xf32>) {
  linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %w : memref<1x8x16x32xf32>, memref<2x2xf32>) outs(%y : memref<1x4x8x32xf32>)
  "test.end"() : () -> ()
}

// RUN: nx-opt %s -split-input-file -nx-clone-shared-fills -mlir-pass-statistics 2>%t.stats | FileCheck %s --enable-var-scope
// RUN: FileCheck %s --input-file=%t.stats --check-prefix=STATS

// Two reductions write into one fill: the second gets a tensor and a fill of
// its own, right after the original, and the first keeps the original.
// CHECK-LABEL: func.func @two_writers
// CHECK-SAME: (%[[X:[^:]*]]: tensor<512x256xf32>, %[[Y:[^:]*]]: tensor<512x256xf32>)
// CHECK: %[[E:.*]] = tensor.empty() : tensor<512xf32>
// CHECK-NEXT: %[[Z:.*]] = linalg.fill ins(%[[ZERO:.*]] : f32) outs(%[[E]] : tensor<512xf32>)
// CHECK-NEXT: %[[E1:.*]] = tensor.empty() : tensor<512xf32>
// CHECK-NEXT: %[[Z1:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[E1]] : tensor<512xf32>)
// CHECK-NEXT: linalg.reduce ins(%[[X]] : tensor<512x256xf32>) outs(%[[Z]] : tensor<512xf32>)
// CHECK: linalg.reduce ins(%[[Y]] : tensor<512x256xf32>) outs(%[[Z1]] : tensor<512xf32>)
func.func @two_writers(%x: tensor<512x256xf32>, %y: tensor<512x256xf32>) -> (tensor<512xf32>, tensor<512xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<512xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<512xf32>) -> tensor<512xf32>
  %s = linalg.reduce ins(%x : tensor<512x256xf32>) outs(%z : tensor<512xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %t = arith.addf %in, %acc : f32
      linalg.yield %t : f32
    }
  %q = linalg.reduce ins(%y : tensor<512x256xf32>) outs(%z : tensor<512xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %t = arith.addf %in, %acc : f32
      linalg.yield %t : f32
    }
  return %s, %q : tensor<512xf32>, tensor<512xf32>
}

// -----

// A reader keeps the original; the writer gets its own.
// CHECK-LABEL: func.func @writer_and_reader
// CHECK: %[[Z:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<64xf32>)
// CHECK-NEXT: %[[E1:.*]] = tensor.empty() : tensor<64xf32>
// CHECK-NEXT: %[[Z1:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E1]] : tensor<64xf32>)
// CHECK-NOT: linalg.fill
// CHECK: linalg.reduce ins(%{{.*}} : tensor<64x8xf32>) outs(%[[Z1]] : tensor<64xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[Z]], %{{.*}} : tensor<64xf32>, tensor<64xf32>)
#id = affine_map<(i) -> (i)>
func.func @writer_and_reader(%x: tensor<64x8xf32>) -> tensor<64xf32> {
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<64xf32>
  %z = linalg.fill ins(%one : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %s = linalg.reduce ins(%x : tensor<64x8xf32>) outs(%z : tensor<64xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %t = arith.addf %in, %acc : f32
      linalg.yield %t : f32
    }
  %o = tensor.empty() : tensor<64xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%z, %s : tensor<64xf32>, tensor<64xf32>) outs(%o : tensor<64xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %d = arith.subf %b, %a : f32
    linalg.yield %d : f32
  } -> tensor<64xf32>
  return %r : tensor<64xf32>
}

// -----

// Dynamic sizes: the clone of the empty tensor takes the same size.
// CHECK-LABEL: func.func @dynamic
// CHECK-SAME: (%[[X:[^:]*]]: tensor<?x8xf32>, %[[N:[^:]*]]: index)
// CHECK: tensor.empty(%[[N]]) : tensor<?xf32>
// CHECK: linalg.fill
// CHECK: %[[E1:.*]] = tensor.empty(%[[N]]) : tensor<?xf32>
// CHECK-NEXT: linalg.fill ins(%{{.*}} : f32) outs(%[[E1]] : tensor<?xf32>)
func.func @dynamic(%x: tensor<?x8xf32>, %n: index) -> (tensor<?xf32>, tensor<?xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%n) : tensor<?xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %s = linalg.reduce ins(%x : tensor<?x8xf32>) outs(%z : tensor<?xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %t = arith.addf %in, %acc : f32
      linalg.yield %t : f32
    }
  %m = linalg.reduce ins(%x : tensor<?x8xf32>) outs(%z : tensor<?xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %t = arith.maximumf %in, %acc : f32
      linalg.yield %t : f32
    }
  return %s, %m : tensor<?xf32>, tensor<?xf32>
}

// -----

// Left alone: a fill with one user, a fill into a tensor that is not empty
// (a copy of the caller's would replace the fill), and fills of buffers.
// CHECK-LABEL: func.func @left_alone
// CHECK-COUNT-3: linalg.fill
// CHECK-NOT: linalg.fill
func.func @left_alone(%x: tensor<64x8xf32>, %init: tensor<64xf32>, %buffer: memref<64xf32>) -> (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %s = linalg.reduce ins(%x : tensor<64x8xf32>) outs(%z : tensor<64xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %t = arith.addf %in, %acc : f32
      linalg.yield %t : f32
    }
  %f = linalg.fill ins(%zero : f32) outs(%init : tensor<64xf32>) -> tensor<64xf32>
  %a = linalg.reduce ins(%x : tensor<64x8xf32>) outs(%f : tensor<64xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %t = arith.addf %in, %acc : f32
      linalg.yield %t : f32
    }
  %b = linalg.reduce ins(%x : tensor<64x8xf32>) outs(%f : tensor<64xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %t = arith.maximumf %in, %acc : f32
      linalg.yield %t : f32
    }
  linalg.fill ins(%zero : f32) outs(%buffer : memref<64xf32>)
  return %s, %a, %b : tensor<64xf32>, tensor<64xf32>, tensor<64xf32>
}

// Three cases clone one fill each; the last clones none.
// STATS-COUNT-3: (S) 1 cloned-fills
// STATS: (S) 0 cloned-fills

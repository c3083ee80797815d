// RUN: nx-opt %s -nx-tile-transposes -nx-vectorize-linalg="vector-bits=512 stream-unread-outputs=false" -canonicalize | FileCheck %s

// With stream-unread-outputs=false, the output that would be streamed (at
// least 4 MiB, only written and returned: see
// vectorize-linalg-streamed-writes.mlir) is written through the cache, for
// a host that reads it at once: ordinary writes, and no fence.
// CHECK-LABEL: func.func @returned_transpose
// CHECK: vector.transpose %{{.*}}, [1, 0] : vector<16x16xf32> to vector<16x16xf32>
// CHECK: vector.transfer_write
// CHECK-NOT: nontemporal
// CHECK-NOT: llvm.fence
// CHECK: return
func.func @returned_transpose(%x: memref<2048x1024xf32>) -> memref<1024x2048xf32> {
  %y = memref.alloc() {alignment = 64 : i64} : memref<1024x2048xf32>
  linalg.transpose ins(%x : memref<2048x1024xf32>) outs(%y : memref<1024x2048xf32>) permutation = [1, 0]
  return %y : memref<1024x2048xf32>
}

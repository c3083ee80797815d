// nx-cpu-bufferize, nx-lower-to-cpu's second phase: tensors become
// buffers, host calls nx.invoke. A chain of elementwise ops is one
// linalg.generic (the add and the tanh); an elementwise op writes over an
// input it is the last user of (the exp over the product, the last add over
// the transpose); each buffer is freed after its last use.
// RUN: nx-opt %s --nx-cpu-host-calls | nx-opt --nx-cpu-bufferize | FileCheck %s

nx.callback @scale : (tensor<4xf32>) -> tensor<4xf32>

// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[A:.*]]: memref<256x256xf32>, %[[B:.*]]: memref<256x256xf32>, %[[X:.*]]: memref<4xf32>) -> (memref<256x256xf32>, memref<4xf32>)
// CHECK: %[[P:.*]] = memref.alloc() {alignment = 64 : i64} : memref<256x256xf32>
// CHECK: linalg.matmul ins(%[[A]], %[[B]] : {{.*}}) outs(%[[P]] : memref<256x256xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[P]] : memref<256x256xf32>) outs(%[[P]] : memref<256x256xf32>)
// CHECK-NEXT: ^bb0
// CHECK-NEXT: math.exp
// CHECK: %[[T:.*]] = memref.alloc() {alignment = 64 : i64} : memref<256x256xf32>
// CHECK: linalg.generic {{.*}} ins(%[[P]] : memref<256x256xf32>) outs(%[[T]] : memref<256x256xf32>)
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.addf
// CHECK-NEXT: math.tanh
// CHECK: %[[U:.*]] = memref.alloc() {alignment = 64 : i64} : memref<256x256xf32>
// CHECK: linalg.transpose ins(%[[T]] : memref<256x256xf32>) outs(%[[U]] : memref<256x256xf32>)
// CHECK-NEXT: memref.dealloc %[[T]]
// CHECK: linalg.generic {{.*}} ins(%[[U]], %[[P]] : {{.*}}) outs(%[[U]] : memref<256x256xf32>)
// CHECK: memref.dealloc %[[P]]
// CHECK: %[[Y:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK: nx.invoke elixir_call @scale(%[[X]]) outs(%[[Y]])
// CHECK: return %[[U]], %[[Y]]
func.func @main(%a: tensor<256x256xf32>, %b: tensor<256x256xf32>,
                %x: tensor<4xf32>) -> (tensor<256x256xf32>, tensor<4xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<256x256xf32>)
      -> tensor<256x256xf32>
  %p = linalg.matmul ins(%a, %b : tensor<256x256xf32>, tensor<256x256xf32>)
                     outs(%z : tensor<256x256xf32>) -> tensor<256x256xf32>
  %q = math.exp %p : tensor<256x256xf32>
  %one = arith.constant dense<1.0> : tensor<256x256xf32>
  %r = arith.addf %q, %one : tensor<256x256xf32>
  %t = math.tanh %r : tensor<256x256xf32>
  %s = tensor.empty() : tensor<256x256xf32>
  %u = linalg.transpose ins(%t : tensor<256x256xf32>)
                        outs(%s : tensor<256x256xf32>) permutation = [1, 0]
  %v = arith.addf %u, %q : tensor<256x256xf32>
  %y = nx.elixir_call @scale(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %v, %y : tensor<256x256xf32>, tensor<4xf32>
}

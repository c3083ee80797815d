// RUN: nx-opt %s -split-input-file -nx-hoist-deallocs | FileCheck %s --enable-var-scope

// Each buffer is freed right after its last use; the condition's definition
// bounds the move too.

nx.callback @f : (tensor<4xf32>) -> tensor<4xf32>

// CHECK-LABEL: func.func @chain(
// CHECK:         %[[A:.+]] = memref.alloc()
// CHECK-NEXT:    memref.copy %{{.+}}, %[[A]]
// CHECK-NEXT:    %[[B:.+]] = memref.alloc()
// CHECK-NEXT:    nx.invoke elixir_call @f(%[[A]]) outs(%[[B]])
// CHECK-NEXT:    bufferization.dealloc (%[[A]] : memref<4xf32>) if (%{{.+}})
// CHECK-NEXT:    %[[C:.+]] = arith.cmpi
// CHECK-NEXT:    memref.copy %[[B]], %{{.+}}
// CHECK-NEXT:    bufferization.dealloc (%[[B]] : memref<4xf32>) if (%[[C]])
// CHECK-NEXT:    return
func.func @chain(%x: memref<4xf32>, %y: memref<4xf32>, %i: index) {
  %true = arith.constant true
  %a = memref.alloc() : memref<4xf32>
  memref.copy %x, %a : memref<4xf32> to memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  nx.invoke elixir_call @f(%a) outs(%b) : (memref<4xf32>) -> (memref<4xf32>)
  %c = arith.cmpi eq, %i, %i : index
  memref.copy %b, %y : memref<4xf32> to memref<4xf32>
  bufferization.dealloc (%a : memref<4xf32>) if (%true)
  bufferization.dealloc (%b : memref<4xf32>) if (%c)
  return
}

// -----

// A use nested in a loop counts as a use by the loop.

// CHECK-LABEL: func.func @nested_use(
// CHECK:         %[[A:.+]] = memref.alloc()
// CHECK:         scf.for
// CHECK:           memref.copy %[[A]]
// CHECK:         }
// CHECK-NEXT:    bufferization.dealloc (%[[A]] : memref<4xf32>)
// CHECK-NEXT:    memref.copy %{{.+}}, %{{.+}}
// CHECK-NEXT:    return
func.func @nested_use(%x: memref<4xf32>, %n: index) {
  %true = arith.constant true
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %n step %c1 {
    memref.copy %a, %x : memref<4xf32> to memref<4xf32>
  }
  memref.copy %x, %x : memref<4xf32> to memref<4xf32>
  bufferization.dealloc (%a : memref<4xf32>) if (%true)
  return
}

// -----

// Buffers that may have aliases stay where they are: a view, a yield out of
// a region, a stored buffer, an address taken, a tensor reading it.

// CHECK-LABEL: func.func @aliased(
// CHECK:         memref.copy %{{.+}}, %{{.+}} : memref<4xf32> to memref<4xf32>
// CHECK-NEXT:    bufferization.dealloc (%{{.+}} : memref<8xf32>)
// CHECK-NEXT:    bufferization.dealloc (%{{.+}} : memref<4xf32>)
// CHECK-NEXT:    bufferization.dealloc (%{{.+}} : memref<4xf32>)
// CHECK-NEXT:    bufferization.dealloc (%{{.+}} : memref<4xf32>)
// CHECK-NEXT:    bufferization.dealloc (%{{.+}} : memref<4xf32>)
// CHECK-NEXT:    return
func.func @aliased(%x: memref<4xf32>, %slots: memref<1xmemref<4xf32>>, %c: i1) -> (index, tensor<4xf32>) {
  %true = arith.constant true
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<8xf32>
  %v = memref.subview %a[0] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1]>>
  %b = memref.alloc() : memref<4xf32>
  %r = scf.if %c -> memref<4xf32> {
    scf.yield %b : memref<4xf32>
  } else {
    scf.yield %x : memref<4xf32>
  }
  %s = memref.alloc() : memref<4xf32>
  memref.store %s, %slots[%c0] : memref<1xmemref<4xf32>>
  %p = memref.alloc() : memref<4xf32>
  %addr = memref.extract_aligned_pointer_as_index %p : memref<4xf32> -> index
  %t = memref.alloc() : memref<4xf32>
  %tt = bufferization.to_tensor %t : memref<4xf32> to tensor<4xf32>
  memref.copy %r, %x : memref<4xf32> to memref<4xf32>
  bufferization.dealloc (%a : memref<8xf32>) if (%true)
  bufferization.dealloc (%b : memref<4xf32>) if (%true)
  bufferization.dealloc (%s : memref<4xf32>) if (%true)
  bufferization.dealloc (%p : memref<4xf32>) if (%true)
  bufferization.dealloc (%t : memref<4xf32>) if (%true)
  return %addr, %tt : index, tensor<4xf32>
}

// -----

// Only single-buffer deallocs without retained values move, and only
// buffers allocated in the dealloc's block.

// CHECK-LABEL: func.func @not_simplified(
// CHECK:         memref.copy %{{.+}}, %{{.+}} : memref<4xf32> to memref<4xf32>
// CHECK-NEXT:    bufferization.dealloc (%{{.+}}, %{{.+}} : memref<4xf32>, memref<4xf32>)
// CHECK-NEXT:    bufferization.dealloc (%{{.+}} : memref<4xf32>) if (%{{.+}}) retain
// CHECK-NEXT:    bufferization.dealloc (%{{.+}} : memref<4xf32>) if
// CHECK-NEXT:    return
func.func @not_simplified(%x: memref<4xf32>) -> i1 {
  %true = arith.constant true
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  %c = memref.alloc() : memref<4xf32>
  memref.copy %x, %x : memref<4xf32> to memref<4xf32>
  bufferization.dealloc (%a, %b : memref<4xf32>, memref<4xf32>) if (%true, %true)
  %r = bufferization.dealloc (%c : memref<4xf32>) if (%true) retain (%x : memref<4xf32>)
  bufferization.dealloc (%x : memref<4xf32>) if (%true)
  return %r : i1
}

// RUN: nx-opt %s -split-input-file -nx-split-deallocs | FileCheck %s --enable-var-scope

// Fresh allocations get deallocs of their own; retained values defined
// before an allocation are dropped from its dealloc; the original results
// are the OR of the pieces'.

// CHECK-LABEL: func.func @split(
// CHECK-SAME:      %[[X:[^:]+]]: memref<4xf32>, %[[CX:[^:]+]]: i1)
// CHECK:         %[[TRUE:.+]] = arith.constant true
// CHECK:         %[[A:.+]] = memref.alloc()
// CHECK:         %[[B:.+]] = memref.alloc()
// CHECK-NEXT:    %[[REST:.+]] = bufferization.dealloc (%[[X]] : memref<4xf32>) if (%[[CX]]) retain (%[[A]] : memref<4xf32>)
// CHECK-NEXT:    %[[PA:.+]] = bufferization.dealloc (%[[A]] : memref<4xf32>) if (%[[TRUE]]) retain (%[[A]] : memref<4xf32>)
// CHECK-NEXT:    bufferization.dealloc (%[[B]] : memref<4xf32>) if (%[[TRUE]]){{$}}
// CHECK-NEXT:    %[[R:.+]] = arith.ori %[[REST]], %[[PA]] : i1
// CHECK-NEXT:    return %[[R]]
func.func @split(%x: memref<4xf32>, %cx: i1) -> i1 {
  %true = arith.constant true
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  %r = bufferization.dealloc (%x, %a, %b : memref<4xf32>, memref<4xf32>, memref<4xf32>) if (%cx, %true, %true) retain (%a : memref<4xf32>)
  return %r : i1
}

// -----

// A memref defined after an allocation may be a view of it: nothing moves.

// CHECK-LABEL: func.func @view_after_alloc(
// CHECK:         %[[A:.+]] = memref.alloc()
// CHECK:         %[[V:.+]] = memref.subview %[[A]]
// CHECK-NEXT:    bufferization.dealloc (%[[A]], %[[V]] : {{.+}}) if
// CHECK-NEXT:    return
func.func @view_after_alloc(%c: i1) {
  %a = memref.alloc() : memref<8xf32>
  %v = memref.subview %a[0] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1]>>
  bufferization.dealloc (%a, %v : memref<8xf32>, memref<4xf32, strided<[1]>>) if (%c, %c)
  return
}

// -----

// A memref listed twice is left to buffer-deallocation-simplification.

// CHECK-LABEL: func.func @duplicate(
// CHECK:         %[[A:.+]] = memref.alloc()
// CHECK-NEXT:    bufferization.dealloc (%[[A]], %[[A]] : {{.+}}) if
// CHECK-NEXT:    return
func.func @duplicate(%c: i1) {
  %a = memref.alloc() : memref<8xf32>
  bufferization.dealloc (%a, %a : memref<8xf32>, memref<8xf32>) if (%c, %c)
  return
}

// -----

// No piece may alias the retained value: its ownership is false.

// CHECK-LABEL: func.func @retained_before(
// CHECK:         %[[A:.+]] = memref.alloc()
// CHECK-NEXT:    bufferization.dealloc (%[[A]] : memref<4xf32>) if (%{{.+}}){{$}}
// CHECK-NEXT:    %[[FALSE:.+]] = arith.constant false
// CHECK-NEXT:    return %[[FALSE]]
func.func @retained_before(%x: memref<4xf32>, %c: i1) -> i1 {
  %a = memref.alloc() : memref<4xf32>
  %r = bufferization.dealloc (%a : memref<4xf32>) if (%c) retain (%x : memref<4xf32>)
  return %r : i1
}

// -----

// A dealloc of one allocation that retains nothing it could drop is kept.

// CHECK-LABEL: func.func @single(
// CHECK:         %[[A:.+]] = memref.alloc()
// CHECK-NEXT:    %[[R:.+]] = bufferization.dealloc (%[[A]] : memref<4xf32>) if (%{{.+}}) retain (%[[A]] : memref<4xf32>)
// CHECK-NEXT:    return %[[R]]
func.func @single(%c: i1) -> i1 {
  %a = memref.alloc() : memref<4xf32>
  %r = bufferization.dealloc (%a : memref<4xf32>) if (%c) retain (%a : memref<4xf32>)
  return %r : i1
}

// -----

// Block arguments of the allocation's block precede it; so do allocations
// in a dominating block.

// CHECK-LABEL: func.func @loop_body(
// CHECK:         scf.for {{.+}} iter_args(%[[ACC:.+]] = %{{.+}}, %[[OWN:.+]] = %{{.+}})
// CHECK:           %[[N:.+]] = memref.alloc()
// CHECK-NEXT:      %[[REST:.+]]:2 = bufferization.dealloc (%[[ACC]] : memref<4xf32>) if (%[[OWN]]) retain (%[[N]], %[[OUTER:[^ ]+]] :
// CHECK-NEXT:      %[[PN:.+]] = bufferization.dealloc (%[[N]] : memref<4xf32>) if (%{{.+}}) retain (%[[N]] : memref<4xf32>)
// CHECK-NEXT:      %[[O:.+]] = arith.ori %[[REST]]#0, %[[PN]] : i1
// CHECK-NEXT:      scf.yield %[[N]], %[[O]]
func.func @loop_body(%n: index, %c: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %true = arith.constant true
  %outer = memref.alloc() : memref<4xf32>
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %outer, %own = %true) -> (memref<4xf32>, i1) {
    %new = memref.alloc() : memref<4xf32>
    %u:2 = bufferization.dealloc (%acc, %new : memref<4xf32>, memref<4xf32>) if (%own, %true) retain (%new, %outer : memref<4xf32>, memref<4xf32>)
    scf.yield %new, %u#0 : memref<4xf32>, i1
  }
  return
}

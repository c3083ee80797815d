// RUN: nx-opt %s -split-input-file -allow-unregistered-dialect \
// RUN:   -nx-split-functions=max-ops=3 | FileCheck %s --enable-var-scope

// Runs of at most 3 ops become private functions called in their place;
// constants are cloned into the pieces that use them; an allocation whose
// buffer is used after its run stays in the caller, which owns it.

// CHECK-LABEL: func.func @pieces
// CHECK-SAME:    (%[[A:.+]]: memref<4xf32>) -> memref<4xf32>
// CHECK-NEXT:    %[[Z:.+]] = call @pieces_part0(%[[A]]) : (memref<4xf32>) -> f32
// CHECK-NEXT:    %[[B:.+]] = memref.alloc() : memref<4xf32>
// CHECK-NEXT:    call @pieces_part1(%[[Z]], %[[B]]) : (f32, memref<4xf32>) -> ()
// CHECK-NEXT:    return %[[B]] : memref<4xf32>
// CHECK:       func.func private @pieces_part0(%[[PA:.+]]: memref<4xf32>) -> f32
// CHECK-NEXT:    %[[C0:.+]] = arith.constant 0 : index
// CHECK-NEXT:    %[[X:.+]] = memref.load %[[PA]][%[[C0]]]
// CHECK-NEXT:    %[[Y:.+]] = arith.addf %[[X]], %[[X]]
// CHECK-NEXT:    %[[M:.+]] = arith.mulf %[[Y]], %[[Y]]
// CHECK-NEXT:    return %[[M]] : f32
// CHECK:       func.func private @pieces_part1(%[[PZ:.+]]: f32, %[[PB:.+]]: memref<4xf32>)
// CHECK-NEXT:    %[[C0:.+]] = arith.constant 0 : index
// CHECK-NEXT:    memref.store %[[PZ]], %[[PB]][%[[C0]]]
// CHECK-NEXT:    return
func.func @pieces(%a: memref<4xf32>) -> memref<4xf32> {
  %c0 = arith.constant 0 : index
  %x = memref.load %a[%c0] : memref<4xf32>
  %y = arith.addf %x, %x : f32
  %z = arith.mulf %y, %y : f32
  %b = memref.alloc() : memref<4xf32>
  memref.store %z, %b[%c0] : memref<4xf32>
  return %b : memref<4xf32>
}

// -----

// A function of at most max-ops ops stays whole.

// CHECK-LABEL: func.func @small
// CHECK-NEXT:    arith.addf
// CHECK-NEXT:    arith.mulf
// CHECK-NEXT:    return
// CHECK-NOT:   func.func
func.func @small(%a: f32) -> f32 {
  %0 = arith.addf %a, %a : f32
  %1 = arith.mulf %0, %0 : f32
  return %1 : f32
}

// -----

// An allocation used only inside its run moves with it (and its buffer is
// freed there); one used after its run stays in the caller.

// CHECK-LABEL: func.func @allocations
// CHECK-SAME:    (%[[X:.+]]: f32)
// CHECK-NEXT:    call @allocations_part0(%[[X]]) : (f32) -> ()
// CHECK-NEXT:    %[[B:.+]] = memref.alloc() : memref<4xf32>
// CHECK-NEXT:    call @allocations_part1(%[[X]], %[[B]]) : (f32, memref<4xf32>) -> ()
// CHECK-NEXT:    "test.use"(%[[B]])
// CHECK-NEXT:    return %[[B]]
// CHECK:       func.func private @allocations_part0(%[[PX:.+]]: f32)
// CHECK:         %[[T:.+]] = memref.alloc() : memref<4xf32>
// CHECK-NEXT:    memref.store %[[PX]], %[[T]]
// CHECK-NEXT:    memref.dealloc %[[T]]
// CHECK-NEXT:    return
// CHECK:       func.func private @allocations_part1(%[[PX:.+]]: f32, %[[PB:.+]]: memref<4xf32>)
// CHECK:         memref.store %[[PX]], %[[PB]]
// CHECK-NEXT:    "test.use"(%[[PB]])
// CHECK-NEXT:    return
func.func @allocations(%x: f32) -> memref<4xf32> {
  %c0 = arith.constant 0 : index
  %t = memref.alloc() : memref<4xf32>
  memref.store %x, %t[%c0] : memref<4xf32>
  memref.dealloc %t : memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  memref.store %x, %b[%c0] : memref<4xf32>
  "test.use"(%b) : (memref<4xf32>) -> ()
  "test.use"(%b) : (memref<4xf32>) -> ()
  return %b : memref<4xf32>
}

// -----

// An op that allocates in the function's frame stays, and ends the run:
// memory it allocates lives until the function returns.

// CHECK-LABEL: func.func @frame
// CHECK:         %[[R0:.+]] = call @frame_part0
// CHECK-NEXT:    %[[S:.+]] = memref.alloca() : memref<4xf32>
// CHECK-NEXT:    %[[IF:.+]] = scf.if
// CHECK-NEXT:      memref.alloca() : memref<1xf32>
// CHECK:         %[[R1:.+]] = call @frame_part1(%[[R0]], %[[S]], %[[IF]])
// CHECK-NEXT:    "test.use"(%[[S]], %[[R1]])
// CHECK:       func.func private @frame_part0
// CHECK-NOT:     alloca
// CHECK:       func.func private @frame_part1
// CHECK-NOT:     alloca
// CHECK:         return
func.func @frame(%x: f32, %c: i1) {
  %c0 = arith.constant 0 : index
  %0 = arith.addf %x, %x : f32
  %1 = arith.addf %0, %0 : f32
  %s = memref.alloca() : memref<4xf32>
  %2 = scf.if %c -> f32 {
    %t = memref.alloca() : memref<1xf32>
    memref.store %x, %t[%c0] : memref<1xf32>
    %v = memref.load %t[%c0] : memref<1xf32>
    scf.yield %v : f32
  } else {
    scf.yield %x : f32
  }
  memref.store %1, %s[%c0] : memref<4xf32>
  %3 = arith.addf %2, %1 : f32
  %4 = arith.addf %3, %3 : f32
  "test.use"(%s, %4) : (memref<4xf32>, f32) -> ()
  return
}

// -----

// Allocations in their own scope (a loop body, memref.alloca_scope) move
// with their scope; ops are counted with everything they nest.

// CHECK-LABEL: func.func @scopes
// CHECK-SAME:    (%[[A:.+]]: memref<4xf32>, %[[X:.+]]: f32)
// CHECK-NEXT:    call @scopes_part0(%[[X]], %[[A]])
// CHECK-NEXT:    call @scopes_part1(%[[X]], %[[A]])
// CHECK-NEXT:    return
// CHECK:       func.func private @scopes_part0
// CHECK:         scf.for
// CHECK-NEXT:      memref.alloca()
// CHECK:       func.func private @scopes_part1
// CHECK:         memref.alloca_scope
// CHECK-NEXT:      memref.alloca()
func.func @scopes(%a: memref<4xf32>, %x: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %s = memref.alloca() : memref<1xf32>
    memref.store %x, %s[%c0] : memref<1xf32>
    %v = memref.load %s[%c0] : memref<1xf32>
    memref.store %v, %a[%i] : memref<4xf32>
  }
  memref.alloca_scope {
    %s = memref.alloca() : memref<1xf32>
    memref.store %x, %s[%c0] : memref<1xf32>
    %v = memref.load %s[%c0] : memref<1xf32>
    memref.store %v, %a[%c0] : memref<4xf32>
  }
  return
}

// -----

// A view is never returned by a piece (buffer deallocation would copy it to
// give the caller ownership): the op making it stays, and pieces take it as
// an argument, layout included.

// CHECK-LABEL: func.func @view
// CHECK-SAME:    (%[[A:.+]]: memref<8xf32>, %[[X:.+]]: f32)
// CHECK-NEXT:    %[[R0:.+]] = call @view_part0(%[[X]])
// CHECK-NEXT:    %[[V:.+]] = memref.subview %[[A]][2] [4] [1]
// CHECK-NEXT:    %[[R1:.+]] = call @view_part1(%[[R0]], %[[V]]) : (f32, memref<4xf32, strided<[1], offset: 2>>) -> f32
// CHECK-NEXT:    return %[[R1]]
func.func @view(%a: memref<8xf32>, %x: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %0 = arith.addf %x, %x : f32
  %1 = arith.addf %0, %0 : f32
  %v = memref.subview %a[2] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 2>>
  memref.store %1, %v[%c0] : memref<4xf32, strided<[1], offset: 2>>
  %2 = memref.load %v[%c0] : memref<4xf32, strided<[1], offset: 2>>
  %3 = arith.addf %2, %2 : f32
  return %3 : f32
}

// -----

// A buffer a call returns is owned by the caller of the call, so a piece may
// return it; the last, short run (one op) stays in the function.

// CHECK-LABEL: func.func @calls
// CHECK:         %[[R:.+]]:2 = call @calls_part0(%{{.+}}) : (f32) -> (f32, memref<4xf32>)
// CHECK-NEXT:    %[[S:.+]] = call @calls_part1(%[[R]]#0) : (f32) -> f32
// CHECK-NEXT:    memref.store %[[S]], %[[R]]#1
// CHECK-NEXT:    return %[[R]]#1
// CHECK:       func.func private @calls_part0
// CHECK:         call @make()
func.func private @make() -> memref<4xf32>

func.func @calls(%x: f32) -> memref<4xf32> {
  %c0 = arith.constant 0 : index
  %0 = arith.addf %x, %x : f32
  %m = func.call @make() : () -> memref<4xf32>
  memref.store %0, %m[%c0] : memref<4xf32>
  %1 = arith.addf %0, %0 : f32
  %2 = arith.addf %1, %1 : f32
  %3 = arith.addf %2, %2 : f32
  memref.store %3, %m[%c0] : memref<4xf32>
  return %m : memref<4xf32>
}

// -----

// Bodies with several blocks are left alone.

// CHECK-LABEL: func.func @blocks
// CHECK-NOT:     call
// CHECK:         cf.cond_br
// CHECK-NOT:   func.func
func.func @blocks(%c: i1, %x: f32) -> f32 {
  %0 = arith.addf %x, %x : f32
  %1 = arith.addf %0, %0 : f32
  %2 = arith.addf %1, %1 : f32
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  return %2 : f32
^bb2:
  return %x : f32
}

// -----

// Tensors: a cut is made only where every live tensor bufferizes to a
// buffer with the identity layout (function arguments, fresh tensors, call
// results, destinations of those written in place), since pieces take and
// return such buffers. Here the first run would end after the insert, but
// the slice (a view) and the insert into it are live until the extract: the
// cut comes after it, and what crosses is the fill's fresh tensor and a
// scalar.

// CHECK-LABEL: func.func @tensors
// CHECK-SAME:    (%[[T:.+]]: tensor<8xf32>, %[[X:.+]]: f32)
// CHECK-NEXT:    %[[R:.+]]:2 = call @tensors_part0(%[[T]], %[[X]]) : (tensor<8xf32>, f32) -> (tensor<4xf32>, f32)
// CHECK-NEXT:    %[[S:.+]] = call @tensors_part1(%[[R]]#1, %[[X]], %[[R]]#0) : (f32, f32, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:    return %[[S]]
// CHECK:       func.func private @tensors_part0
// CHECK-SAME:    attributes {nx.piece}
// CHECK:         %[[SLICE:.+]] = tensor.extract_slice
// CHECK:         %[[INS:.+]] = tensor.insert %{{.+}} into %[[SLICE]]
// CHECK:         %[[FILL:.+]] = linalg.fill
// CHECK-NEXT:    %[[Z:.+]] = tensor.extract %[[INS]]
// CHECK-NEXT:    return %[[FILL]], %[[Z]]
// CHECK:       func.func private @tensors_part1
// CHECK-SAME:    attributes {nx.piece}
func.func @tensors(%t: tensor<8xf32>, %x: f32) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %s = tensor.extract_slice %t[2] [4] [1] : tensor<8xf32> to tensor<4xf32>
  %y = arith.addf %x, %x : f32
  %i = tensor.insert %y into %s[%c0] : tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%y : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %z = tensor.extract %i[%c0] : tensor<4xf32>
  %w = arith.mulf %z, %x : f32
  %g = tensor.insert %w into %f[%c0] : tensor<4xf32>
  return %g : tensor<4xf32>
}

// -----

// A run made only of allocations whose buffers outlive it leaves nothing to
// outline: the function stays as it is.
// CHECK-LABEL: func.func @only_allocations
// CHECK-COUNT-3: memref.alloc()
// CHECK-NEXT:    return
// CHECK-NOT:     func.call
// CHECK-NOT:     nx.piece
func.func @only_allocations() -> (memref<2xf32>, memref<2xf32>, memref<2xf32>) {
  %a = memref.alloc() : memref<2xf32>
  %b = memref.alloc() : memref<2xf32>
  %c = memref.alloc() : memref<2xf32>
  return %a, %b, %c : memref<2xf32>, memref<2xf32>, memref<2xf32>
}

// -----

// A body that ends in an unregistered op, which the verifier accepts as a
// terminator, has no known place for the pieces' calls: it stays whole.

// CHECK-LABEL: func.func @unknown_terminator
// CHECK-NEXT:    arith.addi
// CHECK-NEXT:    arith.addi
// CHECK-NEXT:    arith.addi
// CHECK-NEXT:    arith.addi
// CHECK-NEXT:    "test.end"
// CHECK-NOT:   func.func private @unknown_terminator_part
func.func @unknown_terminator(%a: i32) -> i32 {
  %0 = arith.addi %a, %a : i32
  %1 = arith.addi %0, %0 : i32
  %2 = arith.addi %1, %1 : i32
  %3 = arith.addi %2, %2 : i32
  "test.end"(%3) : (i32) -> ()
}

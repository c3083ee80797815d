// RUN: nx-opt %s -split-input-file -nx-inline-pieces | FileCheck %s --enable-var-scope

// A piece's body replaces its call; results are the returned values.

// CHECK-LABEL: func.func @f
// CHECK-SAME:    (%[[A:.+]]: memref<4xf32>) -> f32
// CHECK-NEXT:    %[[C0:.+]] = arith.constant 0 : index
// CHECK-NEXT:    %[[X:.+]] = memref.load %[[A]][%[[C0]]]
// CHECK-NEXT:    %[[Y:.+]] = arith.addf %[[X]], %[[X]]
// CHECK-NEXT:    return %[[Y]] : f32
// CHECK-NOT:   func.func
func.func @f(%a: memref<4xf32>) -> f32 {
  %0 = call @f_part0(%a) : (memref<4xf32>) -> f32
  %1 = arith.addf %0, %0 : f32
  return %1 : f32
}
func.func private @f_part0(%a: memref<4xf32>) -> f32 attributes {nx.piece} {
  %c0 = arith.constant 0 : index
  %x = memref.load %a[%c0] : memref<4xf32>
  return %x : f32
}

// -----

// Pieces calling pieces (a split function split again) and functions that
// are not pieces: only the pieces are inlined.

// CHECK-LABEL: func.func @g
// CHECK-SAME:    (%[[X:.+]]: f32) -> f32
// CHECK-NEXT:    %[[A:.+]] = arith.mulf %[[X]], %[[X]]
// CHECK-NEXT:    %[[B:.+]] = call @helper(%[[A]])
// CHECK-NEXT:    %[[C:.+]] = arith.addf %[[B]], %[[X]]
// CHECK-NEXT:    return %[[C]] : f32
// CHECK:       func.func private @helper
// CHECK-NOT:   func.func
func.func @g(%x: f32) -> f32 {
  %0 = call @g_part0(%x) : (f32) -> f32
  return %0 : f32
}
func.func private @g_part0(%x: f32) -> f32 attributes {nx.piece} {
  %0 = call @g_part0_part0(%x) : (f32) -> f32
  %1 = call @helper(%0) : (f32) -> f32
  %2 = arith.addf %1, %x : f32
  return %2 : f32
}
func.func private @g_part0_part0(%x: f32) -> f32 attributes {nx.piece} {
  %0 = arith.mulf %x, %x : f32
  return %0 : f32
}
func.func private @helper(%x: f32) -> f32 {
  return %x : f32
}

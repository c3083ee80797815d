// RUN: nx-opt %s -split-input-file -nx-lower-tosa --allow-unregistered-dialect | FileCheck %s --enable-var-scope

// TOSA ops go through upstream's front end (here to linalg and math).

// CHECK-LABEL: func.func @abs_add(
// CHECK-NOT:     tosa.
// CHECK:         linalg.generic
// CHECK:           math.absf
// CHECK:         linalg.generic
// CHECK:           arith.addf
// CHECK-NOT:     tosa.
func.func @abs_add(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tosa.abs %x : (tensor<4xf32>) -> tensor<4xf32>
  %1 = tosa.add %0, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// Without TOSA nothing runs: in particular the front end's canonicalization
// would have folded this addition of zero.

// CHECK-LABEL: func.func @no_tosa(
// CHECK:         %[[Z:.+]] = arith.constant dense<0>
// CHECK:         %[[R:.+]] = arith.addi %{{.+}}, %[[Z]]
// CHECK:         return %[[R]]
func.func @no_tosa(%x: tensor<4xi32>) -> tensor<4xi32> {
  %z = arith.constant dense<0> : tensor<4xi32>
  %0 = arith.addi %x, %z : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// Ops of unregistered dialects have no dialect object: the search for TOSA
// skips them.
// CHECK-LABEL: func.func @unregistered(
// CHECK:         "mystery.op"
// CHECK:         linalg.generic
func.func @unregistered(%x: tensor<4xf32>) -> tensor<4xf32> {
  "mystery.op"() : () -> ()
  %0 = tosa.abs %x : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

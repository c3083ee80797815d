// RUN: nx-opt %s -split-input-file -nx-fuse-elementwise | FileCheck %s --enable-var-scope

// A chain becomes one generic: one input per distinct outside operand, each
// op cloned once in program order with its attributes (fastmath) kept.

// CHECK-DAG:   #[[$ID:.+]] = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @chain(
// CHECK-SAME:      %[[X:[^:]+]]: tensor<4xf32>, %[[Y:[^:]+]]: tensor<4xf32>)
// CHECK:         %[[INIT:.+]] = tensor.empty() : tensor<4xf32>
// CHECK:         %[[R:.+]] = linalg.generic
// CHECK-SAME:        indexing_maps = [#[[$ID]], #[[$ID]], #[[$ID]]]
// CHECK-SAME:        iterator_types = ["parallel"]
// CHECK-SAME:        ins(%[[X]], %[[Y]] : tensor<4xf32>, tensor<4xf32>)
// CHECK-SAME:        outs(%[[INIT]] : tensor<4xf32>)
// CHECK-NEXT:    ^bb0(%[[A:.+]]: f32, %[[B:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT:      %[[S0:.+]] = arith.addf %[[A]], %[[B]] fastmath<fast> : f32
// CHECK-NEXT:      %[[S1:.+]] = arith.mulf %[[S0]], %[[S0]] : f32
// CHECK-NEXT:      %[[S2:.+]] = math.exp %[[S1]] : f32
// CHECK-NEXT:      linalg.yield %[[S2]] : f32
// CHECK:         return %[[R]]
func.func @chain(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %0 = arith.addf %x, %y fastmath<fast> : tensor<4xf32>
  %1 = arith.mulf %0, %0 : tensor<4xf32>
  %2 = math.exp %1 : tensor<4xf32>
  return %2 : tensor<4xf32>
}

// -----

// Element types may change inside a group (i1 masks); any static rank works.

// CHECK-LABEL: func.func @select_min(
// CHECK:         %[[R:.+]] = linalg.generic
// CHECK-SAME:        iterator_types = ["parallel", "parallel"]
// CHECK:           %[[C:.+]] = arith.cmpf olt, %{{.+}}, %{{.+}} : f32
// CHECK-NEXT:      %[[M:.+]] = arith.select %[[C]], %{{.+}}, %{{.+}} : f32
// CHECK-NEXT:      linalg.yield %[[M]] : f32
// CHECK:         } -> tensor<2x3xf32>
// CHECK-NEXT:    return %[[R]]
func.func @select_min(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %c = arith.cmpf olt, %x, %y : tensor<2x3xf32>
  %m = arith.select %c, %x, %y : tensor<2x3xi1>, tensor<2x3xf32>
  return %m : tensor<2x3xf32>
}

// -----

// A value used twice inside one group is computed once.

// CHECK-LABEL: func.func @diamond(
// CHECK:         linalg.generic
// CHECK-NEXT:    ^bb0(%[[A:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT:      %[[N:.+]] = arith.negf %[[A]] : f32
// CHECK-NEXT:      %[[L:.+]] = arith.addf %[[N]], %[[A]] : f32
// CHECK-NEXT:      %[[R:.+]] = arith.mulf %[[N]], %[[A]] : f32
// CHECK-NEXT:      %[[S:.+]] = arith.subf %[[L]], %[[R]] : f32
// CHECK-NEXT:      linalg.yield %[[S]] : f32
// CHECK-NOT:     linalg.generic
func.func @diamond(%x: tensor<8xf32>) -> tensor<8xf32> {
  %n = arith.negf %x : tensor<8xf32>
  %l = arith.addf %n, %x : tensor<8xf32>
  %r = arith.mulf %n, %x : tensor<8xf32>
  %s = arith.subf %l, %r : tensor<8xf32>
  return %s : tensor<8xf32>
}

// -----

// A value used outside its group (here by a host callback and by the next
// group) is the result of a generic of its own.

nx.callback @cb : (tensor<4xf32>) -> tensor<4xf32>

// CHECK-LABEL: func.func @around_callback(
// CHECK-SAME:      %[[X:[^:]+]]: tensor<4xf32>)
// CHECK:         %[[A:.+]] = linalg.generic {{.+}} ins(%[[X]] : tensor<4xf32>)
// CHECK:           arith.addf
// CHECK-NEXT:      arith.mulf
// CHECK-NEXT:      linalg.yield
// CHECK:         %[[C:.+]] = nx.elixir_call @cb(%[[A]])
// CHECK:         %[[B:.+]] = linalg.generic {{.+}} ins(%[[C]], %[[A]] : tensor<4xf32>, tensor<4xf32>)
// CHECK:           arith.subf
// CHECK-NEXT:      linalg.yield
// CHECK:         return %[[B]]
func.func @around_callback(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = arith.addf %x, %x : tensor<4xf32>
  %1 = arith.mulf %0, %x : tensor<4xf32>
  %2 = nx.elixir_call @cb(%1) : (tensor<4xf32>) -> tensor<4xf32>
  %3 = arith.subf %2, %1 : tensor<4xf32>
  return %3 : tensor<4xf32>
}

// -----

// Groups stay within a block: a value defined outside a loop and used in its
// body is computed before the loop; the body's ops form their own group.

// CHECK-LABEL: func.func @loop(
// CHECK:         %[[OUT:.+]] = linalg.generic
// CHECK:           arith.addf
// CHECK:         scf.for {{.+}} iter_args(%[[ACC:.+]] = %{{.+}})
// CHECK:           %[[IN:.+]] = linalg.generic {{.+}} ins(%[[ACC]], %[[OUT]] :
// CHECK:             arith.mulf
// CHECK-NEXT:        math.sqrt
// CHECK-NEXT:        linalg.yield
// CHECK:           scf.yield %[[IN]]
func.func @loop(%x: tensor<4xf32>, %n: index) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %o = arith.addf %x, %x : tensor<4xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> tensor<4xf32> {
    %m = arith.mulf %acc, %o : tensor<4xf32>
    %s = math.sqrt %m : tensor<4xf32>
    scf.yield %s : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// Left to convert-elementwise-to-linalg or untouched: dynamic shapes,
// scalars, ops with memory effects or without the Elementwise trait.

// CHECK-LABEL: func.func @not_eligible(
// CHECK-NOT:     linalg.generic
// CHECK:         arith.addf %{{.+}}, %{{.+}} : tensor<?xf32>
// CHECK:         arith.mulf %{{.+}}, %{{.+}} : f32
// CHECK:         tensor.cast
// CHECK-NOT:     linalg.generic
func.func @not_eligible(%d: tensor<?xf32>, %s: f32) -> (tensor<?xf32>, f32, tensor<?xf32>) {
  %0 = arith.addf %d, %d : tensor<?xf32>
  %1 = arith.mulf %s, %s : f32
  %c = arith.constant dense<1.0> : tensor<4xf32>
  %2 = tensor.cast %c : tensor<4xf32> to tensor<?xf32>
  return %0, %1, %2 : tensor<?xf32>, f32, tensor<?xf32>
}

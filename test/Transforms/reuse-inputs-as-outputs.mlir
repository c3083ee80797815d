// RUN: nx-opt %s -split-input-file -nx-reuse-inputs-as-outputs | FileCheck %s --enable-var-scope

#id = affine_map<() -> ()>

// In a loop carrying a tensor, the op writes over the carried value, its
// last use.
// CHECK-LABEL: func.func @loop_carried
// CHECK: scf.for {{.+}} iter_args(%[[ACC:.+]] = %{{.+}})
// CHECK: linalg.generic {{.+}} ins(%[[ACC]] : tensor<f32>) outs(%[[ACC]] : tensor<f32>)
func.func @loop_carried(%init: tensor<f32>, %n: index) -> tensor<f32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<f32>) {
    %e = tensor.empty() : tensor<f32>
    %next = linalg.generic {indexing_maps = [#id, #id], iterator_types = []}
        ins(%acc : tensor<f32>) outs(%e : tensor<f32>) {
      ^bb0(%in: f32, %out: f32):
        %s = arith.addf %in, %one : f32
        linalg.yield %s : f32
    } -> tensor<f32>
    scf.yield %next : tensor<f32>
  }
  return %r : tensor<f32>
}

// -----

#id = affine_map<(i) -> (i)>

// Left alone: an input used again later, a function's argument, and an
// output whose initial value the payload reads.
// CHECK-LABEL: func.func @left_alone
// CHECK-SAME: (%[[X:.+]]: tensor<4xf32>, %[[INIT:.+]]: tensor<4xf32>)
// CHECK: %[[Y:.+]] = arith.negf %[[X]]
// CHECK: %[[E1:.+]] = tensor.empty()
// CHECK: linalg.generic {{.+}} ins(%[[Y]] : tensor<4xf32>) outs(%[[E1]] : tensor<4xf32>)
// CHECK: %[[E2:.+]] = tensor.empty()
// CHECK: linalg.generic {{.+}} ins(%[[X]] : tensor<4xf32>) outs(%[[E2]] : tensor<4xf32>)
// CHECK: %[[Z:.+]] = arith.negf %[[X]]
// CHECK: linalg.generic {{.+}} ins(%[[Z]] : tensor<4xf32>) outs(%[[INIT]] : tensor<4xf32>)
func.func @left_alone(%x: tensor<4xf32>, %init: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %y = arith.negf %x : tensor<4xf32>
  %e1 = tensor.empty() : tensor<4xf32>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%y : tensor<4xf32>) outs(%e1 : tensor<4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %s = arith.mulf %in, %in : f32
      linalg.yield %s : f32
  } -> tensor<4xf32>
  %e2 = tensor.empty() : tensor<4xf32>
  %b = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<4xf32>) outs(%e2 : tensor<4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %s = arith.mulf %in, %in : f32
      linalg.yield %s : f32
  } -> tensor<4xf32>
  %z = arith.negf %x : tensor<4xf32>
  %c = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%z : tensor<4xf32>) outs(%init : tensor<4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %s = arith.addf %in, %out : f32
      linalg.yield %s : f32
  } -> tensor<4xf32>
  return %a, %b, %c, %y : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// A reduction's output is an accumulator, not a copy of an input.
// CHECK-LABEL: func.func @reduction
// CHECK: outs(%{{.+}} : tensor<f32>)
// CHECK-NOT: outs(%{{.+}} : tensor<4xf32>)
func.func @reduction(%x: tensor<4xf32>) -> tensor<f32> {
  %y = arith.negf %x : tensor<4xf32>
  %e = tensor.empty() : tensor<f32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> ()>], iterator_types = ["reduction"]}
      ins(%y : tensor<4xf32>) outs(%e : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
  } -> tensor<f32>
  return %r : tensor<f32>
}

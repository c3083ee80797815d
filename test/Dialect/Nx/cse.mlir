// CSE merges only calls without side effects.
// RUN: nx-opt %s -cse | FileCheck %s --enable-var-scope

nx.callback @f : (tensor<2xf32>) -> tensor<2xf32>
nx.callback @log : (tensor<2xf32>) -> ()

// CHECK-LABEL: func.func @pure_calls_are_merged
// CHECK-SAME: (%[[X:.+]]: tensor<2xf32>)
// CHECK: %[[A:.+]] = nx.elixir_call pure @f(%[[X]])
// CHECK-NOT: nx.elixir_call
// CHECK: return %[[A]], %[[A]]
func.func @pure_calls_are_merged(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %a = nx.elixir_call pure @f(%x) : (tensor<2xf32>) -> tensor<2xf32>
  %b = nx.elixir_call pure @f(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return %a, %b : tensor<2xf32>, tensor<2xf32>
}

// CHECK-LABEL: func.func @impure_calls_are_not_merged
// CHECK: %[[A:.+]] = nx.elixir_call @f
// CHECK: %[[B:.+]] = nx.elixir_call @f
// CHECK: return %[[A]], %[[B]]
func.func @impure_calls_are_not_merged(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %a = nx.elixir_call @f(%x) : (tensor<2xf32>) -> tensor<2xf32>
  %b = nx.elixir_call @f(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return %a, %b : tensor<2xf32>, tensor<2xf32>
}

// A pure call is a function of its arguments alone, so a side effect between
// two identical calls does not keep them apart.
// CHECK-LABEL: func.func @pure_across_io
// CHECK: %[[A:.+]] = nx.elixir_call pure @f
// CHECK: nx.io_callback @log
// CHECK-NOT: nx.elixir_call
// CHECK: return %[[A]], %[[A]]
func.func @pure_across_io(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %a = nx.elixir_call pure @f(%x) : (tensor<2xf32>) -> tensor<2xf32>
  %l = nx.io_callback @log(%x) : tensor<2xf32>
  %b = nx.elixir_call pure @f(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return %a, %b : tensor<2xf32>, tensor<2xf32>
}

// CHECK-LABEL: func.func @io_callbacks_are_not_merged
// CHECK: nx.io_callback @log
// CHECK: nx.io_callback @log
func.func @io_callbacks_are_not_merged(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %a = nx.io_callback @log(%x) : tensor<2xf32>
  %b = nx.io_callback @log(%x) : tensor<2xf32>
  return %a, %b : tensor<2xf32>, tensor<2xf32>
}

// CHECK-LABEL: func.func @infeeds_are_not_merged
// CHECK: nx.infeed
// CHECK: nx.infeed
func.func @infeeds_are_not_merged() -> (tensor<2xf32>, tensor<2xf32>) {
  %a = nx.infeed from "s" : tensor<2xf32>
  %b = nx.infeed from "s" : tensor<2xf32>
  return %a, %b : tensor<2xf32>, tensor<2xf32>
}

// CHECK-LABEL: func.func @custom_calls
// CHECK: %[[P:.+]] = nx.custom_call @pure
// CHECK-NOT: @pure
// CHECK: %[[E1:.+]] = nx.custom_call @effect
// CHECK: %[[E2:.+]] = nx.custom_call @effect
// CHECK: return %[[P]], %[[P]], %[[E1]], %[[E2]]
func.func @custom_calls(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %a = nx.custom_call @pure(%x) : (tensor<2xf32>) -> tensor<2xf32>
  %b = nx.custom_call @pure(%x) : (tensor<2xf32>) -> tensor<2xf32>
  %c = nx.custom_call @effect(%x) {has_side_effect = true} : (tensor<2xf32>) -> tensor<2xf32>
  %d = nx.custom_call @effect(%x) {has_side_effect = true} : (tensor<2xf32>) -> tensor<2xf32>
  return %a, %b, %c, %d : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}

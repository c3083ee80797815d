// The side-effect model decides what canonicalization may delete: unused
// io_callbacks, streams, impure elixir_calls, side-effecting custom calls and
// blocks whose default region has effects must survive; pure ones must not.
// RUN: nx-opt %s -canonicalize -split-input-file | FileCheck %s --enable-var-scope

nx.callback @log : (tensor<2xf32>) -> ()
nx.callback @f : (tensor<2xf32>) -> tensor<2xf32>

// CHECK-LABEL: func.func @unused_io_callback_is_kept
// CHECK-SAME: (%[[X:.+]]: tensor<2xf32>)
// CHECK-NEXT: nx.io_callback @log(%[[X]]) : tensor<2xf32>
// CHECK-NEXT: return
func.func @unused_io_callback_is_kept(%x: tensor<2xf32>) {
  %0 = nx.io_callback @log(%x) : tensor<2xf32>
  return
}

// CHECK-LABEL: func.func @unused_elixir_call_is_kept
// CHECK-NEXT: nx.elixir_call @f
// CHECK-NEXT: return
func.func @unused_elixir_call_is_kept(%x: tensor<2xf32>) {
  %0 = nx.elixir_call @f(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return
}

// CHECK-LABEL: func.func @unused_pure_elixir_call_is_removed
// CHECK-NOT: nx.elixir_call
// CHECK: return
func.func @unused_pure_elixir_call_is_removed(%x: tensor<2xf32>) {
  %0 = nx.elixir_call pure @f(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return
}

// CHECK-LABEL: func.func @streams_are_kept
// CHECK-SAME: (%[[X:.+]]: tensor<2xf32>)
// CHECK-NEXT: nx.outfeed %[[X]] to "s" : tensor<2xf32>
// CHECK-NEXT: nx.infeed from "s" : tensor<2xf32>
// CHECK-NEXT: return
func.func @streams_are_kept(%x: tensor<2xf32>) {
  nx.outfeed %x to "s" : tensor<2xf32>
  %0 = nx.infeed from "s" : tensor<2xf32>
  return
}

// CHECK-LABEL: func.func @custom_calls
// CHECK-NOT: @pure_target
// CHECK: nx.custom_call @effect_target
// CHECK-NOT: @pure_target
// CHECK: return
func.func @custom_calls(%x: tensor<2xf32>) {
  %0 = nx.custom_call @pure_target(%x) : (tensor<2xf32>) -> tensor<2xf32>
  %1 = nx.custom_call @effect_target(%x) {has_side_effect = true} : (tensor<2xf32>) -> tensor<2xf32>
  %2 = nx.custom_call @pure_target(%x) {has_side_effect = false} : (tensor<2xf32>) -> tensor<2xf32>
  return
}

// CHECK-LABEL: func.func @pure_block_is_removed
// CHECK-NOT: nx.block
// CHECK: return
func.func @pure_block_is_removed(%x: tensor<2xf32>) {
  %0 = nx.block "K" {} (%x) : (tensor<2xf32>) -> tensor<2xf32> {
  ^bb0(%a: tensor<2xf32>):
    %b = arith.negf %a : tensor<2xf32>
    nx.yield %b : tensor<2xf32>
  }
  return
}

// CHECK-LABEL: func.func @effectful_block_is_kept
// CHECK: nx.block "K"
// CHECK: nx.io_callback @log
// CHECK: nx.yield
func.func @effectful_block_is_kept(%x: tensor<2xf32>) {
  %0 = nx.block "K" {} (%x) : (tensor<2xf32>) -> tensor<2xf32> {
  ^bb0(%a: tensor<2xf32>):
    %b = nx.io_callback @log(%a) : tensor<2xf32>
    nx.yield %b : tensor<2xf32>
  }
  return
}

// Canonicalization still works inside the isolated default region.
// CHECK-LABEL: func.func @block_region_is_canonicalized
// CHECK: nx.block "K"
// CHECK-NEXT: ^bb0(%[[A:.+]]: tensor<2xf32>):
// CHECK-NEXT: nx.yield %[[A]] : tensor<2xf32>
func.func @block_region_is_canonicalized(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = nx.block "K" {} (%x) : (tensor<2xf32>) -> tensor<2xf32> {
  ^bb0(%a: tensor<2xf32>):
    %b = arith.negf %a : tensor<2xf32>
    %c = arith.negf %b : tensor<2xf32>
    nx.yield %c : tensor<2xf32>
  }
  return %0 : tensor<2xf32>
}

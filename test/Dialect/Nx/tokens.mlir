// RUN: nx-opt %s | FileCheck %s --enable-var-scope
// RUN: nx-opt %s | nx-opt | FileCheck %s --enable-var-scope
// RUN: nx-opt %s --mlir-print-op-generic | nx-opt | FileCheck %s --enable-var-scope

// CHECK-LABEL: func.func @tokens
// CHECK-SAME: (%[[T0:.+]]: !nx.token, %[[X:.+]]: tensor<4xf32>) -> (!nx.token, tensor<4xf32>)
// CHECK: %[[T1:.+]] = nx.create_token : !nx.token
// CHECK: %[[T2:.+]] = nx.after_all %[[T0]], %[[T1]] : !nx.token
// CHECK: %[[T3:.+]] = nx.after_all : !nx.token
// CHECK: %[[R:.+]]:2 = nx.custom_call @target(%[[T2]], %[[X]]) {has_side_effect = true, operand_layouts = [dense<> : tensor<0xindex>, dense<0> : tensor<1xindex>], result_layouts = [dense<> : tensor<0xindex>, dense<0> : tensor<1xindex>]} : (!nx.token, tensor<4xf32>) -> (!nx.token, tensor<4xf32>)
// CHECK: return %[[R]]#0, %[[R]]#1
func.func @tokens(%t0: !nx.token, %x: tensor<4xf32>) -> (!nx.token, tensor<4xf32>) {
  %t1 = nx.create_token : !nx.token
  %t2 = nx.after_all %t0, %t1 : !nx.token
  %t3 = nx.after_all : !nx.token
  %r:2 = nx.custom_call @target(%t2, %x) {has_side_effect = true,
      operand_layouts = [dense<> : tensor<0xindex>, dense<0> : tensor<1xindex>],
      result_layouts = [dense<> : tensor<0xindex>, dense<0> : tensor<1xindex>]}
      : (!nx.token, tensor<4xf32>) -> (!nx.token, tensor<4xf32>)
  return %r#0, %r#1 : !nx.token, tensor<4xf32>
}

// Tokens are pure values: unused ones go away.
// RUN: nx-opt %s -canonicalize | FileCheck %s --check-prefix=DCE
// DCE-LABEL: func.func @unused
// DCE-NEXT: return
func.func @unused() {
  %t = nx.create_token : !nx.token
  %u = nx.after_all %t : !nx.token
  return
}

// RUN: nx-opt %s -nx-erase-tokens -verify-diagnostics
// The same module through the CPU pipeline fails at the function, before
// convert-func-to-llvm could leave the func.constant pointing at a
// function it cannot convert.
// RUN: not nx-opt %s -nx-lower-to-cpu 2>&1 | FileCheck %s
// CHECK: error: 'func.func' op has !nx.token arguments or results, which cannot be dropped: it is used by 'func.constant', not only by func.call

// expected-error @+1 {{'func.func' op has !nx.token arguments or results, which cannot be dropped: it is used by 'func.constant', not only by func.call}}
func.func @referenced(%t: !nx.token) -> !nx.token {
  return %t : !nx.token
}
func.func @user() -> ((!nx.token) -> !nx.token) {
  %f = func.constant @referenced : (!nx.token) -> !nx.token
  return %f : (!nx.token) -> !nx.token
}

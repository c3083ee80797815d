// Symbols named like the ones the compiler generates (call-site records,
// pieces, stages) do not clash with them: the program runs, and computes the
// same, whole, in pieces of at most 4 ops with blocks lowered, and segmented
// into device stages.
//
// RUN: nx-runner %s --callbacks=%nx_test_callbacks --input='[1, 2, 3, 4]:tensor<4xf32>' \
// RUN:   | FileCheck %s --enable-var-scope
// RUN: nx-runner %s --callbacks=%nx_test_callbacks --input='[1, 2, 3, 4]:tensor<4xf32>' \
// RUN:   --lower-blocks --max-function-ops=4 | FileCheck %s --enable-var-scope
// RUN: nx-opt %s --nx-segment-callbacks=device=cuda \
// RUN:   | nx-runner - --callbacks=%nx_test_callbacks --input='[1, 2, 3, 4]:tensor<4xf32>' \
// RUN:   | FileCheck %s --enable-var-scope
// The lowered module keeps the user's symbols and numbers its records past them.
// RUN: nx-runner %s --print-lowered | FileCheck %s --enable-var-scope --check-prefix=LOWERED

nx.callback @test.scale : (tensor<4xf32>) -> tensor<4xf32>

// CHECK: result #0: tensor<4xf32> = [13, 26, 39, 52]
// CHECK-NOT: {{.}}

// LOWERED-DAG: llvm.func @__nx_site_0(
// LOWERED-DAG: llvm.func @main_part0(
// LOWERED-DAG: llvm.func @main_stage0(
// LOWERED-DAG: llvm.mlir.global internal @__nx_site_1()
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = func.call @__nx_site_0(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %b = func.call @main_part0(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %c = nx.elixir_call @test.scale(%b) static_args {factor = 3.0 : f64, offset = 1 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  %d = func.call @main_stage0(%c) : (tensor<4xf32>) -> tensor<4xf32>
  %e = arith.addf %d, %x : tensor<4xf32>
  return %e : tensor<4xf32>
}

// x + x
func.func @__nx_site_0(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = arith.addf %x, %x : tensor<4xf32>
  return %y : tensor<4xf32>
}

// x * 2
func.func @main_part0(%x: tensor<4xf32>) -> tensor<4xf32> {
  %two = arith.constant dense<2.0> : tensor<4xf32>
  %y = arith.mulf %x, %two : tensor<4xf32>
  return %y : tensor<4xf32>
}

// x - 1
func.func @main_stage0(%x: tensor<4xf32>) -> tensor<4xf32> {
  %one = arith.constant dense<1.0> : tensor<4xf32>
  %y = arith.subf %x, %one : tensor<4xf32>
  return %y : tensor<4xf32>
}

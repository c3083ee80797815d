// The whole pipeline: tensors and nx in, LLVM dialect out, translatable to
// LLVM IR.
// RUN: nx-opt %s -nx-lower-to-cpu | FileCheck %s --enable-var-scope
// RUN: nx-opt %s -nx-lower-to-cpu | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=LLVMIR

// CHECK-NOT: nx.
// CHECK-NOT: builtin.unrealized_conversion_cast
// CHECK-LABEL: llvm.func @main
// CHECK: llvm.call @nxrt_invoke
// CHECK: llvm.call @nxrt_invoke
// CHECK-LABEL: llvm.func @_mlir_ciface_main
// CHECK-LABEL: llvm.func @__nx_init
// LLVMIR: define void @_mlir_ciface_main(ptr
// LLVMIR: define ptr @__nx_init(ptr
nx.callback @normalize : (tensor<4xf32>) -> tensor<4xf32>
nx.callback @log : (tensor<4xf32>) -> ()

func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %two = arith.constant dense<2.0> : tensor<4xf32>
  %0 = arith.mulf %x, %two : tensor<4xf32>
  %1 = nx.elixir_call @normalize(%0) : (tensor<4xf32>) -> tensor<4xf32>
  %2 = nx.io_callback @log(%1) : tensor<4xf32>
  return %2 : tensor<4xf32>
}

// nx-runner compiles the --entry function and what it uses, not every
// public function of the file (nx-compile compiles them all): running one
// entry of a file of many compiles one program.
// RUN: nx-runner %s --entry=twice --print-lowered \
// RUN:   | FileCheck %s --check-prefix=TWICE --implicit-check-not=square
// RUN: nx-runner %s --entry=square --print-lowered \
// RUN:   | FileCheck %s --check-prefix=SQUARE --implicit-check-not=twice \
// RUN:     --implicit-check-not=helper
// RUN: nx-runner %s --entry=twice --input='[1, 2, 3]:tensor<3xf32>' \
// RUN:   | FileCheck %s --check-prefix=RUN-TWICE
// RUN: nx-runner %s --entry=square --input='[1, 2, 3]:tensor<3xf32>' \
// RUN:   | FileCheck %s --check-prefix=RUN-SQUARE
// An entry that does not exist: the error lists every public function.
// RUN: not nx-runner %s --entry=cube --input='[1]:tensor<1xf32>' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=CUBE

// TWICE: llvm.func @helper(
// TWICE: llvm.func @twice(
// SQUARE: llvm.func @square(
// RUN-TWICE: result #0: tensor<3xf32> = [2, 4, 6]
// RUN-SQUARE: result #0: tensor<3xf32> = [1, 4, 9]
// CUBE: error: no public function @cube in the program (available: @twice, @square)

func.func private @helper(%x: tensor<3xf32>) -> tensor<3xf32> {
  %y = arith.addf %x, %x : tensor<3xf32>
  return %y : tensor<3xf32>
}

func.func @twice(%x: tensor<3xf32>) -> tensor<3xf32> {
  %y = call @helper(%x) : (tensor<3xf32>) -> tensor<3xf32>
  return %y : tensor<3xf32>
}

func.func @square(%x: tensor<3xf32>) -> tensor<3xf32> {
  %y = arith.mulf %x, %x : tensor<3xf32>
  return %y : tensor<3xf32>
}

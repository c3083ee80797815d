// Compute-only programs (plus one host copy for ui8): element types, shapes,
// several results and .npy in and out.
// RUN: nx-runner %s --entry=add_mul --input='[1, 2, 3, 4]:tensor<4xf32>' --input='[10, 20, 30, 40.5]:tensor<4xf32>' \
// RUN:   | FileCheck %s --enable-var-scope --check-prefix=ADDMUL
// RUN: nx-runner %s --entry=matmul --input='[[1, 2, 3], [4, 5, 6]]:tensor<2x3xf64>' \
// RUN:   --input='[[1, 0], [0, 1], [1, 1]]:tensor<3x2xf64>' --output=%t.mm.npy \
// RUN:   | FileCheck %s --enable-var-scope --check-prefix=MATMUL
// Feed the written .npy back in: the matmul result times itself.
// RUN: nx-runner %s --entry=square --input=@%t.mm.npy | FileCheck %s --enable-var-scope --check-prefix=SQUARE
// RUN: nx-runner %s --entry=ints --input='[1, -2, 3]:tensor<3xi32>' --input='[100, 200, 300]:tensor<3xi64>' \
// RUN:   --input='[1, 2, 255]:tensor<3xui8>' --input='[-1, 2, -3]:tensor<3xi8>' --output=%t.i32.npy --output=%t.i64.npy \
// RUN:   --output=%t.u8.npy --output=%t.i8.npy --output=%t.bool.npy \
// RUN:   | FileCheck %s --enable-var-scope --check-prefix=INTS
// Every dtype survives a .npy round trip.
// RUN: nx-runner %s --entry=ints --input=@%t.i32.npy --input=@%t.i64.npy --input=@%t.u8.npy --input=@%t.i8.npy \
// RUN:   | FileCheck %s --enable-var-scope --check-prefix=INTS2
// RUN: nx-runner %s --entry=bools --input=@%t.bool.npy --input='[true, true, false]:tensor<3xi1>' \
// RUN:   | FileCheck %s --enable-var-scope --check-prefix=BOOLS
// A scalar literal is splatted.
// RUN: nx-runner %s --entry=add_mul --input='2:tensor<4xf32>' --input='[1, 2, 3, 4]:tensor<4xf32>' \
// RUN:   | FileCheck %s --enable-var-scope --check-prefix=SPLAT

// ADDMUL: result #0: tensor<4xf32> = [11, 22, 33, 44.5]
// ADDMUL-NEXT: result #1: tensor<4xf32> = [10, 40, 90, 162]
// SPLAT: result #0: tensor<4xf32> = [3, 4, 5, 6]
// SPLAT-NEXT: result #1: tensor<4xf32> = [2, 4, 6, 8]
func.func @add_mul(%x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %a = arith.addf %x, %y : tensor<4xf32>
  %b = arith.mulf %x, %y : tensor<4xf32>
  return %a, %b : tensor<4xf32>, tensor<4xf32>
}

// MATMUL: result #0: tensor<2x2xf64> = {{\[}}[4, 5], [10, 11]]
// SQUARE: result #0: tensor<2x2xf64> = {{\[}}[66, 75], [150, 171]]
func.func @matmul(%a: tensor<2x3xf64>, %b: tensor<3x2xf64>) -> tensor<2x2xf64> {
  %z = tensor.empty() : tensor<2x2xf64>
  %c0 = arith.constant 0.0 : f64
  %f = linalg.fill ins(%c0 : f64) outs(%z : tensor<2x2xf64>) -> tensor<2x2xf64>
  %r = linalg.matmul ins(%a, %b : tensor<2x3xf64>, tensor<3x2xf64>) outs(%f : tensor<2x2xf64>) -> tensor<2x2xf64>
  return %r : tensor<2x2xf64>
}

func.func @square(%a: tensor<2x2xf64>) -> tensor<2x2xf64> {
  %z = tensor.empty() : tensor<2x2xf64>
  %c0 = arith.constant 0.0 : f64
  %f = linalg.fill ins(%c0 : f64) outs(%z : tensor<2x2xf64>) -> tensor<2x2xf64>
  %r = linalg.matmul ins(%a, %a : tensor<2x2xf64>, tensor<2x2xf64>) outs(%f : tensor<2x2xf64>) -> tensor<2x2xf64>
  return %r : tensor<2x2xf64>
}

nx.callback @nx.debug.identity.ui8 : (tensor<3xui8>) -> tensor<3xui8>

// INTS: result #0: tensor<3xi32> = [2, -4, 6]
// INTS-NEXT: result #1: tensor<3xi64> = [101, 198, 303]
// INTS-NEXT: result #2: tensor<3xui8> = [1, 2, 255]
// INTS-NEXT: result #3: tensor<3xi8> = [-2, 4, -6]
// INTS-NEXT: result #4: tensor<3xi1> = [true, false, true]
// INTS2: result #0: tensor<3xi32> = [4, -8, 12]
// INTS2-NEXT: result #1: tensor<3xi64> = [103, 194, 309]
// INTS2-NEXT: result #2: tensor<3xui8> = [1, 2, 255]
// INTS2-NEXT: result #3: tensor<3xi8> = [-4, 8, -12]
// INTS2-NEXT: result #4: tensor<3xi1> = [true, false, true]
func.func @ints(%a: tensor<3xi32>, %b: tensor<3xi64>, %c: tensor<3xui8>, %d: tensor<3xi8>)
    -> (tensor<3xi32>, tensor<3xi64>, tensor<3xui8>, tensor<3xi8>, tensor<3xi1>) {
  %a2 = arith.addi %a, %a : tensor<3xi32>
  %ae = arith.extsi %a : tensor<3xi32> to tensor<3xi64>
  %b2 = arith.addi %b, %ae : tensor<3xi64>
  // arith has no unsigned tensors: the host copies this one.
  %cu = nx.elixir_call @nx.debug.identity.ui8(%c) : (tensor<3xui8>) -> tensor<3xui8>
  %d2 = arith.addi %d, %d : tensor<3xi8>
  %zero = arith.constant dense<0> : tensor<3xi32>
  %pos = arith.cmpi sgt, %a, %zero : tensor<3xi32>
  return %a2, %b2, %cu, %d2, %pos : tensor<3xi32>, tensor<3xi64>, tensor<3xui8>, tensor<3xi8>, tensor<3xi1>
}

// BOOLS: result #0: tensor<3xi1> = [true, false, false]
// BOOLS-NEXT: result #1: tensor<3xi1> = [true, true, true]
func.func @bools(%a: tensor<3xi1>, %b: tensor<3xi1>) -> (tensor<3xi1>, tensor<3xi1>) {
  %and = arith.andi %a, %b : tensor<3xi1>
  %or = arith.ori %a, %b : tensor<3xi1>
  return %and, %or : tensor<3xi1>, tensor<3xi1>
}

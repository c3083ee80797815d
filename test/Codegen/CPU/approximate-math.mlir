// RUN: nx-opt %s -split-input-file -allow-unregistered-dialect -nx-approximate-math | FileCheck %s --enable-var-scope

// An f32 exp becomes arithmetic: clamp, range reduction by ln(2), a
// polynomial, and the exponent written into the result's bits.
// CHECK-LABEL: func.func @exp_f32
// CHECK-NOT: math.exp
// CHECK: math.floor
// CHECK: math.fma
// CHECK: arith.shli
// CHECK: arith.bitcast %{{.+}} : i32 to f32
// CHECK-NOT: math.exp
func.func @exp_f32(%x: f32) -> f32 {
  %y = math.exp %x : f32
  return %y : f32
}

// -----

// log1p and tanh go too, in vectors as well.
// CHECK-LABEL: func.func @vectors
// CHECK-NOT: math.log1p
// CHECK-NOT: math.tanh
// CHECK: return
func.func @vectors(%x: vector<8xf32>) -> (vector<8xf32>, vector<8xf32>) {
  %l = math.log1p %x : vector<8xf32>
  %t = math.tanh %x : vector<8xf32>
  return %l, %t : vector<8xf32>, vector<8xf32>
}

// -----

// f64 keeps libm's functions.
// CHECK-LABEL: func.func @exp_f64
// CHECK: math.exp %{{.+}} : f64
func.func @exp_f64(%x: f64) -> f64 {
  %y = math.exp %x : f64
  return %y : f64
}

// -----

// Math on tensors is left alone (the approximations build scalar and vector
// constants); on scalars next to it, it is still rewritten.
// CHECK-LABEL: func.func @tensors
// CHECK: math.exp %{{.+}} : tensor<16x16xf32>
// CHECK: math.log %{{.+}} : tensor<?xf32>
// CHECK: math.tanh %{{.+}} : tensor<4xbf16>
// CHECK-NOT: math.exp %{{.+}} : f32
// CHECK: return
func.func @tensors(%t: tensor<16x16xf32>, %d: tensor<?xf32>, %h: tensor<4xbf16>, %s: f32)
    -> (tensor<16x16xf32>, tensor<?xf32>, tensor<4xbf16>, f32) {
  %0 = math.exp %t : tensor<16x16xf32>
  %1 = math.log %d : tensor<?xf32>
  %2 = math.tanh %h : tensor<4xbf16>
  %3 = math.exp %s : f32
  return %0, %1, %2, %3 : tensor<16x16xf32>, tensor<?xf32>, tensor<4xbf16>, f32
}

// -----

// Unregistered ops, which belong to no loaded dialect, are passed over.
// CHECK-LABEL: func.func @unregistered
// CHECK: "test.op"
// CHECK-NOT: math.exp
func.func @unregistered(%x: f32) -> f32 {
  %y = "test.op"(%x) : (f32) -> f32
  %z = math.exp %y : f32
  return %z : f32
}

// -----

// A division by an f32 constant, scalar or splat, becomes a multiplication
// by its reciprocal; its fastmath flags stay.
// CHECK-LABEL: func.func @division_by_constant
// CHECK-NOT: arith.divf
// CHECK: %[[NINTH:.+]] = arith.constant 0.111111112 : f32
// CHECK-NEXT: arith.mulf %{{.+}}, %[[NINTH]] fastmath<reassoc> : f32
// CHECK-NEXT: %[[HALVES:.+]] = arith.constant dense<5.000000e-01> : vector<16xf32>
// CHECK-NEXT: arith.mulf %{{.+}}, %[[HALVES]] : vector<16xf32>
// CHECK-NOT: arith.divf
func.func @division_by_constant(%x: f32, %v: vector<16xf32>) -> (f32, vector<16xf32>) {
  %nine = arith.constant 9.0 : f32
  %twos = arith.constant dense<2.0> : vector<16xf32>
  %a = arith.divf %x, %nine fastmath<reassoc> : f32
  %b = arith.divf %v, %twos : vector<16xf32>
  return %a, %b : f32, vector<16xf32>
}

// -----

// Divisions stay where the reciprocal is no normal number (zero, an
// infinity, a huge divisor), the divisor varies or is no splat, or the type
// is not f32.
// CHECK-LABEL: func.func @divisions_kept
// CHECK-COUNT-7: arith.divf
// CHECK-NOT: arith.mulf
func.func @divisions_kept(%x: f32, %y: f32, %v: vector<2xf32>, %d: f64) -> (f32, f32, f32, f32, f32, vector<2xf32>, f64) {
  %zero = arith.constant 0.0 : f32
  %inf = arith.constant 0x7F800000 : f32
  %huge = arith.constant 3.0e38 : f32
  %nan = arith.constant 0x7FC00000 : f32
  %mixed = arith.constant dense<[2.0, 4.0]> : vector<2xf32>
  %nine = arith.constant 9.0 : f64
  %a = arith.divf %x, %zero : f32
  %b = arith.divf %x, %inf : f32
  %c = arith.divf %x, %huge : f32
  %e = arith.divf %x, %nan : f32
  %f = arith.divf %x, %y : f32
  %g = arith.divf %v, %mixed : vector<2xf32>
  %h = arith.divf %d, %nine : f64
  return %a, %b, %c, %e, %f, %g, %h : f32, f32, f32, f32, f32, vector<2xf32>, f64
}

// RUN: nx-opt %s -split-input-file -nx-approximate-math | FileCheck %s --enable-var-scope

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

// RUN: nx-opt %s -split-input-file -nx-expand-bf16 | FileCheck %s

// bf16 arithmetic runs in f32: each operand widened by shifting its bits,
// the sum rounded back to bf16 on the bits.
// CHECK-LABEL: func.func @add
// CHECK-SAME: (%[[A:.*]]: vector<16xbf16>, %[[B:.*]]: vector<16xbf16>)
// CHECK-DAG: %[[AI:.*]] = arith.bitcast %[[A]] : vector<16xbf16> to vector<16xi16>
// CHECK-DAG: %[[BI:.*]] = arith.bitcast %[[B]] : vector<16xbf16> to vector<16xi16>
// CHECK: %[[SUM:.*]] = arith.addf %{{.*}}, %{{.*}} : vector<16xf32>
// CHECK: %[[CLEAN:.*]] = arith.select %{{.*}}, %{{.*}}, %[[SUM]]
// CHECK: arith.bitcast %[[CLEAN]] : vector<16xf32> to vector<16xi32>
// CHECK: %[[R:.*]] = arith.bitcast %{{.*}} : vector<16xi16> to vector<16xbf16>
// CHECK: return %[[R]]
// CHECK-NOT: arith.truncf
func.func @add(%a: vector<16xbf16>, %b: vector<16xbf16>) -> vector<16xbf16> {
  %s = arith.addf %a, %b : vector<16xbf16>
  return %s : vector<16xbf16>
}

// -----

// f32 to bf16, to nearest with ties to even: a NaN first becomes the quiet
// NaN 0x7fc00000 (a select of f32, which x86 blends in one instruction; a
// select of i16 after narrowing becomes, in LLVM, a select of bf16 that x86
// without AVX-512 BF16 lowers lane by lane), then the bits plus 0x7fff plus
// the lowest bit kept, the upper half taken.
// CHECK-LABEL: func.func @round
// CHECK-SAME: (%[[X:.*]]: f32)
// CHECK-DAG: %[[HALF:.*]] = arith.constant 32767 : i32
// CHECK-DAG: %[[QNAN:.*]] = arith.constant 0x7FC00000 : f32
// CHECK: %[[NAN:.*]] = arith.cmpf uno, %[[X]], %[[X]] : f32
// CHECK: %[[CLEAN:.*]] = arith.select %[[NAN]], %[[QNAN]], %[[X]] : f32
// CHECK: %[[BITS:.*]] = arith.bitcast %[[CLEAN]] : f32 to i32
// CHECK: arith.addi %{{.*}}, %[[HALF]] : i32
// CHECK: %[[KEPT:.*]] = arith.trunci %{{.*}} : i32 to i16
// CHECK-NOT: arith.select
// CHECK: arith.bitcast %[[KEPT]] : i16 to bf16
// CHECK-NOT: arith.truncf
func.func @round(%x: f32) -> bf16 {
  %t = arith.truncf %x : f32 to bf16
  return %t : bf16
}

// -----

// Vectors alike; a rounding mode other than to nearest even is left to
// upstream's expansion, which ignores it.
// CHECK-LABEL: func.func @round_vector
// CHECK: arith.select %{{.*}}, %{{.*}}, %{{.*}} : vector<16xi1>, vector<16xf32>
// CHECK: arith.trunci %{{.*}} : vector<16xi32> to vector<16xi16>
// CHECK-NOT: arith.truncf
func.func @round_vector(%x: vector<16xf32>) -> vector<16xbf16> {
  %t = arith.truncf %x : vector<16xf32> to vector<16xbf16>
  return %t : vector<16xbf16>
}

// -----

// CHECK-LABEL: func.func @widen
// CHECK: arith.extui %{{.*}} : vector<8xi16> to vector<8xi32>
// CHECK: arith.shli
// CHECK: arith.bitcast %{{.*}} : vector<8xi32> to vector<8xf32>
// CHECK-NOT: arith.extf
func.func @widen(%x: vector<8xbf16>) -> vector<8xf32> {
  %t = arith.extf %x : vector<8xbf16> to vector<8xf32>
  return %t : vector<8xf32>
}

// -----

// Other types and ops are left alone: the maximum stays one op for LLVM.
// CHECK-LABEL: func.func @other_types
// CHECK-NEXT: arith.maximumf %{{.*}}, %{{.*}} : f32
// CHECK-NEXT: arith.addf %{{.*}}, %{{.*}} : f16
func.func @other_types(%a: f32, %b: f32, %c: f16) -> (f32, f16) {
  %m = arith.maximumf %a, %b : f32
  %s = arith.addf %c, %c : f16
  return %m, %s : f32, f16
}

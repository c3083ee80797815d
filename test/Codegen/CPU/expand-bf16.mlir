// RUN: nx-opt %s -split-input-file -nx-expand-bf16 | FileCheck %s

// bf16 arithmetic runs in f32: each operand widened by shifting its bits,
// the sum rounded back to bf16 on the bits.
// CHECK-LABEL: func.func @add
// CHECK-SAME: (%[[A:.*]]: vector<16xbf16>, %[[B:.*]]: vector<16xbf16>)
// CHECK-DAG: %[[AI:.*]] = arith.bitcast %[[A]] : vector<16xbf16> to vector<16xi16>
// CHECK-DAG: %[[BI:.*]] = arith.bitcast %[[B]] : vector<16xbf16> to vector<16xi16>
// CHECK: %[[SUM:.*]] = arith.addf %{{.*}}, %{{.*}} : vector<16xf32>
// CHECK: arith.bitcast %[[SUM]] : vector<16xf32> to vector<16xi32>
// CHECK: %[[R:.*]] = arith.bitcast %{{.*}} : vector<16xi16> to vector<16xbf16>
// CHECK: return %[[R]]
// CHECK-NOT: arith.truncf
func.func @add(%a: vector<16xbf16>, %b: vector<16xbf16>) -> vector<16xbf16> {
  %s = arith.addf %a, %b : vector<16xbf16>
  return %s : vector<16xbf16>
}

// -----

// f32 to bf16, to nearest with ties to even: the bits plus 0x7fff plus the
// lowest bit kept, the upper half taken; a NaN becomes the quiet NaN 0x7fc0.
// CHECK-LABEL: func.func @round
// CHECK-DAG: %[[HALF:.*]] = arith.constant 32767 : i32
// CHECK-DAG: %[[QNAN:.*]] = arith.constant 32704 : i16
// CHECK: %[[NAN:.*]] = arith.cmpf une, %[[X:.*]], %[[X]] : f32
// CHECK: %[[BITS:.*]] = arith.bitcast %[[X]] : f32 to i32
// CHECK: arith.addi %{{.*}}, %[[HALF]] : i32
// CHECK: %[[KEPT:.*]] = arith.trunci %{{.*}} : i32 to i16
// CHECK: arith.select %[[NAN]], %[[QNAN]], %[[KEPT]] : i16
// CHECK-NOT: arith.truncf
func.func @round(%x: f32) -> bf16 {
  %t = arith.truncf %x : f32 to bf16
  return %t : bf16
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

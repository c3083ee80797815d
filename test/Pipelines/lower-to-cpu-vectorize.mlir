// Elementwise ops are tiled to the vector width and vectorized in MLIR
// (nx-vectorize-linalg): with 512-bit registers, 16 f32 per load, multiply
// and store, and the 4 left of each 100-element row in one 4-lane vector.
// Reductions along a long innermost loop are split (nx-split-reductions)
// into partial results that vectorize the same way, unless the reductions
// must keep their order; short ones are left to LLVM's loop vectorizer.
// RUN: nx-opt %s --pass-pipeline='builtin.module(nx-lower-to-cpu{vector-bits=512})' | FileCheck %s --enable-var-scope
// RUN: nx-opt %s --pass-pipeline='builtin.module(nx-lower-to-cpu{vector-bits=512 strict-reductions})' | FileCheck %s --enable-var-scope --check-prefix=STRICT
// RUN: nx-opt %s --pass-pipeline='builtin.module(nx-lower-to-cpu{vector-bits=256})' | FileCheck %s --enable-var-scope --check-prefix=AVX
// RUN: nx-opt %s --pass-pipeline='builtin.module(nx-lower-to-cpu{vectorize=false})' | FileCheck %s --enable-var-scope --check-prefix=SCALAR

// CHECK-LABEL: llvm.func @scale
// CHECK-DAG: %[[TWO16:.*]] = llvm.mlir.constant(dense<2.000000e+00> : vector<16xf32>) : vector<16xf32>
// CHECK-DAG: %[[TWO4:.*]] = llvm.mlir.constant(dense<2.000000e+00> : vector<4xf32>) : vector<4xf32>
// CHECK: %[[V:.*]] = llvm.load %{{.*}} : !llvm.ptr -> vector<16xf32>
// CHECK: %[[P:.*]] = llvm.fmul %[[V]], %[[TWO16]] : vector<16xf32>
// CHECK: llvm.store %[[P]], %{{.*}} : vector<16xf32>, !llvm.ptr
// CHECK: %[[R:.*]] = llvm.load %{{.*}} : !llvm.ptr -> vector<4xf32>
// CHECK: %[[Q:.*]] = llvm.fmul %[[R]], %[[TWO4]] : vector<4xf32>
// CHECK: llvm.store %[[Q]], %{{.*}} : vector<4xf32>, !llvm.ptr
// AVX-LABEL: llvm.func @scale
// AVX: llvm.load %{{.*}} : !llvm.ptr -> vector<8xf32>
// AVX: llvm.load %{{.*}} : !llvm.ptr -> vector<4xf32>
// SCALAR-LABEL: llvm.func @scale
// SCALAR-NOT: vector<
// SCALAR: llvm.return
func.func @scale(%x: tensor<8x100xf32>) -> tensor<8x100xf32> {
  %two = arith.constant dense<2.0> : tensor<8x100xf32>
  %y = arith.mulf %x, %two : tensor<8x100xf32>
  return %y : tensor<8x100xf32>
}

// The fill is one 8-lane store; the sum stays scalar code, reassociable.
// CHECK-LABEL: llvm.func @row_sums
// CHECK: llvm.store %{{.*}} : vector<8xf32>, !llvm.ptr
// CHECK-NOT: vector<
// CHECK: llvm.fadd {{.*}} {fastmathFlags = #llvm.fastmath<reassoc>} : f32
// CHECK: llvm.return
func.func @row_sums(%x: tensor<8x100xf32>) -> tensor<8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %s = linalg.reduce ins(%x : tensor<8x100xf32>) outs(%acc : tensor<8xf32>) dimensions = [1]
    (%in: f32, %a: f32) {
      %t = arith.addf %in, %a : f32
      linalg.yield %t : f32
    }
  return %s : tensor<8xf32>
}

// 1024 columns: four rows at a time (rows r, r+2, r+4 and r+6 of the
// eight), each accumulating 4 x 16 partial sums in two vector registers
// (block arguments of the reduction loop, starting from zeros), lane by
// lane, then adding the two and their lanes into the row's sum
// (reassociable): the partial sums are never stored, and no buffer is
// allocated for them.
// CHECK-LABEL: llvm.func @long_row_sums
// CHECK: %[[ZEROS:.*]] = llvm.mlir.constant(dense<0.000000e+00> : vector<16xf32>) : vector<16xf32>
// CHECK: llvm.call @_mlir_memref_to_llvm_alloc
// CHECK-NOT: llvm.call @_mlir_memref_to_llvm_alloc
// CHECK: llvm.br ^[[HEAD:bb[0-9]+]](%{{.*}}, %[[ZEROS]], %[[ZEROS]], %[[ZEROS]], %[[ZEROS]], %[[ZEROS]], %[[ZEROS]], %[[ZEROS]], %[[ZEROS]] : i64, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>)
// CHECK: ^[[HEAD]](%{{.*}}: i64, %[[ACC:.*]]: vector<16xf32>, %{{.*}}: vector<16xf32>, %{{.*}}: vector<16xf32>, %{{.*}}: vector<16xf32>, %{{.*}}: vector<16xf32>, %{{.*}}: vector<16xf32>, %{{.*}}: vector<16xf32>, %{{.*}}: vector<16xf32>):
// CHECK-NOT: llvm.store
// CHECK: %[[IN:.*]] = llvm.load %{{.*}} : !llvm.ptr -> vector<16xf32>
// CHECK-NEXT: %[[SUM:.*]] = llvm.fadd %[[IN]], %[[ACC]] {fastmathFlags = #llvm.fastmath<reassoc>} : vector<16xf32>
// CHECK-NOT: llvm.store
// CHECK: llvm.br ^[[HEAD]](%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : i64, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>)
// CHECK-NOT: llvm.store
// CHECK: %[[ROW:.*]] = "llvm.intr.vector.reduce.fadd"(%{{.*}}, %{{.*}}) <{fastmathFlags = #llvm.fastmath<reassoc>}> : (f32, vector<16xf32>) -> f32
// CHECK: llvm.store %[[ROW]], %{{.*}} : f32, !llvm.ptr
// CHECK-NOT: llvm.call @_mlir_memref_to_llvm_free
// CHECK: llvm.return
// STRICT-LABEL: llvm.func @long_row_sums
// STRICT-NOT: llvm.fadd {{.*}} vector<
// STRICT-NOT: reassoc
// STRICT: llvm.fadd {{.*}} : f32
// STRICT-NOT: reassoc
// STRICT: llvm.return
func.func @long_row_sums(%x: tensor<8x1024xf32>) -> tensor<8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %s = linalg.reduce ins(%x : tensor<8x1024xf32>) outs(%acc : tensor<8xf32>) dimensions = [1]
    (%in: f32, %a: f32) {
      %t = arith.addf %in, %a : f32
      linalg.yield %t : f32
    }
  return %s : tensor<8xf32>
}

// A transpose: 16 rows of 16 floats loaded whole, AVX-512's 16x16 shuffle
// network in registers, 16 rows stored whole; no element moved alone.
// CHECK-LABEL: llvm.func @transpose
// CHECK: llvm.load %{{.*}} : !llvm.ptr -> vector<16xf32>
// CHECK: llvm.shufflevector %{{.*}}, %{{.*}} [0, 16, 1, 17, 4, 20, 5, 21, 8, 24, 9, 25, 12, 28, 13, 29] : vector<16xf32>
// CHECK-NOT: llvm.extractelement
// CHECK: llvm.store %{{.*}} : vector<16xf32>, !llvm.ptr
// CHECK: llvm.return
func.func @transpose(%x: tensor<64x32xf32>) -> tensor<32x64xf32> {
  %e = tensor.empty() : tensor<32x64xf32>
  %t = linalg.transpose ins(%x : tensor<64x32xf32>) outs(%e : tensor<32x64xf32>) permutation = [1, 0]
  return %t : tensor<32x64xf32>
}

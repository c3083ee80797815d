// RUN: nx-opt %s -split-input-file -nx-linalg-to-blas="num-threads-function=threads min-work=1000000" | FileCheck %s --enable-var-scope

// A product of at least min-work multiply-adds (here 128 * 128 * 128) is
// shared among an OpenMP team of @threads() threads: one part per thread,
// each a call of nxrt_gemm_part_f32 with the part, the number of parts and
// the whole product's arguments. A static size needs no if clause.
// CHECK: llvm.func @nxrt_gemm_part_f32(i64, i64, i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64)
// CHECK: func.func private @threads() -> i32
// CHECK-LABEL: func.func @large
// CHECK: %[[PA:.+]] = llvm.inttoptr
// CHECK: %[[PB:.+]] = llvm.inttoptr
// CHECK: %[[PC:.+]] = llvm.inttoptr
// CHECK: %[[THREADS:.+]] = call @threads() : () -> i32
// CHECK: %[[PARTS:.+]] = arith.index_cast %[[THREADS]] : i32 to index
// CHECK: %[[COUNT:.+]] = arith.index_cast %[[PARTS]] : index to i64
// CHECK: %[[FIRST:.+]] = arith.constant 0 : index
// CHECK: %[[STEP:.+]] = arith.constant 1 : index
// CHECK: omp.parallel num_threads(%[[THREADS]] : i32) {
// CHECK-NEXT: omp.wsloop {
// CHECK-NEXT: omp.loop_nest (%[[P:.+]]) : index = (%[[FIRST]]) to (%[[PARTS]]) step (%[[STEP]]) {
// CHECK-NEXT: %[[PART:.+]] = arith.index_cast %[[P]] : index to i64
// CHECK-NEXT: llvm.call @nxrt_gemm_part_f32(%[[PART]], %[[COUNT]], %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %[[PA]], %{{.+}}, %{{.+}}, %{{.+}}, %[[PB]], %{{.+}}, %{{.+}}, %{{.+}}, %[[PC]], %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}})
// CHECK-NEXT: omp.yield
// CHECK-NOT: linalg.matmul
func.func @large(%a: memref<128x128xf32>, %b: memref<128x128xf32>, %c: memref<128x128xf32>) {
  linalg.matmul ins(%a, %b : memref<128x128xf32>, memref<128x128xf32>) outs(%c : memref<128x128xf32>)
  return
}

// -----

// Below min-work (64 * 64 * 64), the product is one call on the calling
// thread, and no team size is asked for.
// CHECK-NOT: @threads
// CHECK-LABEL: func.func @small
// CHECK-NOT: omp.parallel
// CHECK: llvm.call @nxrt_gemm_f32(
func.func @small(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>) {
  linalg.matmul ins(%a, %b : memref<64x64xf32>, memref<64x64xf32>) outs(%c : memref<64x64xf32>)
  return
}

// -----

// A size known only at run time: the region's if clause compares the
// product's multiply-adds (batch * m * n * k) with min-work, and a small
// product runs as one part on the calling thread.
// CHECK-LABEL: func.func @dynamic_batches
// CHECK: %[[THREADS:.+]] = call @threads() : () -> i32
// CHECK: %[[PARTS:.+]] = arith.index_cast %[[THREADS]] : i32 to index
// CHECK: %[[BM:.+]] = arith.muli %[[BATCH:.+]], %[[M:.+]] : i64
// CHECK: %[[BMN:.+]] = arith.muli %[[BM]], %[[N:.+]] : i64
// CHECK: %[[WORK:.+]] = arith.muli %[[BMN]], %[[K:.+]] : i64
// CHECK: %[[MIN:.+]] = arith.constant 1000000 : i64
// CHECK: %[[LARGE:.+]] = arith.cmpi sge, %[[WORK]], %[[MIN]] : i64
// CHECK: %[[ONE:.+]] = arith.constant 1 : index
// CHECK: %[[SHARED:.+]] = arith.select %[[LARGE]], %[[PARTS]], %[[ONE]] : index
// CHECK: %[[COUNT:.+]] = arith.index_cast %[[SHARED]] : index to i64
// CHECK: omp.parallel if(%[[LARGE]]) num_threads(%[[THREADS]] : i32) {
// CHECK: omp.loop_nest (%{{.+}}) : index = (%{{.+}}) to (%[[SHARED]])
// CHECK: llvm.call @nxrt_gemm_part_f32(%{{.+}}, %[[COUNT]], %[[BATCH]], %[[M]], %[[N]], %[[K]],
func.func @dynamic_batches(%a: memref<?x8x8xf32>, %b: memref<?x8x8xf32>, %c: memref<?x8x8xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<?x8x8xf32>, memref<?x8x8xf32>) outs(%c : memref<?x8x8xf32>)
  return
}

// -----

// f64 products are shared through nxrt_gemm_part_f64.
// CHECK-LABEL: func.func @large_f64
// CHECK: omp.parallel
// CHECK: llvm.call @nxrt_gemm_part_f64(
func.func @large_f64(%a: memref<256x64xf64>, %b: memref<64x256xf64>, %c: memref<256x256xf64>) {
  linalg.matmul ins(%a, %b : memref<256x64xf64>, memref<64x256xf64>) outs(%c : memref<256x256xf64>)
  return
}

// -----

// bf16 products into f32 are shared through nxrt_gemm_part_bf16_f32.
// CHECK-LABEL: func.func @large_bf16
// CHECK: omp.parallel
// CHECK: llvm.call @nxrt_gemm_part_bf16_f32(
func.func @large_bf16(%a: memref<256x64xbf16>, %b: memref<64x256xbf16>, %c: memref<256x256xf32>) {
  linalg.matmul ins(%a, %b : memref<256x64xbf16>, memref<64x256xbf16>) outs(%c : memref<256x256xf32>)
  return
}

// -----

// f16 products into f32 are shared through nxrt_gemm_part_f16_f32.
// CHECK-LABEL: func.func @large_f16
// CHECK: omp.parallel
// CHECK: llvm.call @nxrt_gemm_part_f16_f32(
func.func @large_f16(%a: memref<256x64xf16>, %b: memref<64x256xf16>, %c: memref<256x256xf32>) {
  linalg.matmul ins(%a, %b : memref<256x64xf16>, memref<64x256xf16>) outs(%c : memref<256x256xf32>)
  return
}

// -----

// i8 products into i32 are shared through nxrt_gemm_part_i8_i32.
// CHECK-LABEL: func.func @large_i8
// CHECK: omp.parallel
// CHECK: llvm.call @nxrt_gemm_part_i8_i32(
func.func @large_i8(%a: memref<256x64xi8>, %b: memref<64x256xi8>, %c: memref<256x256xi32>) {
  linalg.matmul ins(%a, %b : memref<256x64xi8>, memref<64x256xi8>) outs(%c : memref<256x256xi32>)
  return
}

// -----

// Inside another team's region the product is not shared again: a nested
// team would run on one thread anyway.
// CHECK-LABEL: func.func @nested
// CHECK: omp.parallel {
// CHECK-NOT: omp.parallel
// CHECK: llvm.call @nxrt_gemm_f32(
func.func @nested(%a: memref<128x128xf32>, %b: memref<128x128xf32>, %c: memref<128x128xf32>) {
  omp.parallel {
    linalg.matmul ins(%a, %b : memref<128x128xf32>, memref<128x128xf32>) outs(%c : memref<128x128xf32>)
    omp.terminator
  }
  return
}

// -----

// An existing declaration of the team-size function is used as it is.
// CHECK: func.func private @threads() -> i32
// CHECK-NOT: func.func private @threads
// CHECK-LABEL: func.func @declared
// CHECK: call @threads()
func.func private @threads() -> i32

func.func @declared(%a: memref<128x128xf32>, %b: memref<128x128xf32>, %c: memref<128x128xf32>) {
  linalg.matmul ins(%a, %b : memref<128x128xf32>, memref<128x128xf32>) outs(%c : memref<128x128xf32>)
  return
}

// RUN: nx-opt %s -split-input-file -nx-linalg-to-blas -verify-diagnostics

// expected-error @+1 {{'func.func' op uses the name 'nxrt_gemm_f32', which libnxrt's contractions have; expected their declaration '!llvm.func<void (i64, i64, i64, i64, ptr, i64, i64, i64, ptr, i64, i64, i64, ptr, i64, i64, i64, i64)>'}}
func.func private @nxrt_gemm_f32(memref<4x4xf32>)

func.func @matmul(%a: memref<4x4xf32>, %b: memref<4x4xf32>, %c: memref<4x4xf32>) {
  linalg.matmul ins(%a, %b : memref<4x4xf32>, memref<4x4xf32>) outs(%c : memref<4x4xf32>)
  return
}

// -----

// expected-error @+1 {{'llvm.func' op uses the name 'nxrt_gemm_f64', which libnxrt's contractions have}}
llvm.func @nxrt_gemm_f64(i64)

// -----

// expected-error @+1 {{'llvm.func' op uses the name 'nxrt_gemm_part_f32', which libnxrt's contractions have; expected their declaration '!llvm.func<void (i64, i64, i64, i64, i64, i64, ptr, i64, i64, i64, ptr, i64, i64, i64, ptr, i64, i64, i64, i64)>'}}
llvm.func @nxrt_gemm_part_f32(i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64)

// -----

// expected-error @+1 {{'llvm.func' op uses the name 'nxrt_gemm_part_epilogue_f32', which libnxrt's contractions have; expected their declaration '!llvm.func<void (i64, i64, i64, i64, i64, i64, ptr, i64, i64, i64, ptr, i64, i64, i64, ptr, i64, i64, i64, i64, ptr, i64, i64)>'}}
llvm.func @nxrt_gemm_part_epilogue_f32(i64, i64, i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64)

// -----

// expected-error @+1 {{'llvm.func' op uses the name 'nxrt_gemm_bf16_f32', which libnxrt's contractions have; expected their declaration '!llvm.func<void (i64, i64, i64, i64, ptr, i64, i64, i64, ptr, i64, i64, i64, ptr, i64, i64, i64, i64)>'}}
llvm.func @nxrt_gemm_bf16_f32(i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64)

// -----

// expected-error @+1 {{'llvm.func' op uses the name 'nxrt_gemm_part_bf16_f32', which libnxrt's contractions have}}
llvm.func @nxrt_gemm_part_bf16_f32(i64)

// -----

// expected-error @+1 {{'llvm.func' op uses the name 'nxrt_gemm_f16_f32', which libnxrt's contractions have; expected their declaration '!llvm.func<void (i64, i64, i64, i64, ptr, i64, i64, i64, ptr, i64, i64, i64, ptr, i64, i64, i64, i64)>'}}
llvm.func @nxrt_gemm_f16_f32(i32)

// -----

// expected-error @+1 {{'llvm.func' op uses the name 'nxrt_gemm_part_f16_f32', which libnxrt's contractions have}}
llvm.func @nxrt_gemm_part_f16_f32(i64)

// -----

// expected-error @+1 {{'llvm.func' op uses the name 'nxrt_gemm_i8_i32', which libnxrt's contractions have}}
llvm.func @nxrt_gemm_i8_i32(i64)

// -----

// expected-error @+1 {{'llvm.func' op uses the name 'nxrt_gemm_part_i8_i32', which libnxrt's contractions have}}
llvm.func @nxrt_gemm_part_i8_i32(i64)

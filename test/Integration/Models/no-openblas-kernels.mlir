// No figure of the model and op benchmarks depends on which kernels
// OpenBLAS picks for the CPU (OPENBLAS_CORETYPE; a CPU newer than Debian's
// OpenBLAS gets its generic SSE3 kernels, 4-8x slower): every model and op
// runs, at one thread and on every core, with libnx-bench-blas-trap
// preloaded, which ends the process at the first call of an OpenBLAS
// product. f32 products run on oneDNN, which picks kernels by instruction
// set. The last run shows the trap works: f64 products still go to
// OpenBLAS.
// REQUIRES: nx-bench-models
// RUN: env LD_PRELOAD=%nx_libs/libnx-bench-blas-trap.so %nx_tools/nx-bench-models \
// RUN:   --benchmark_filter='^BM_(Model|Op)/' --benchmark_min_time=0.000001 \
// RUN:   2>&1 | FileCheck %s
// RUN: not env LD_PRELOAD=%nx_libs/libnx-bench-blas-trap.so nx-runner %s \
// RUN:   --input=64x64xf64=1 --input=64x64xf64=1 2>&1 | FileCheck %s --check-prefix=TRAP

// CHECK-NOT: {{ERROR OCCURRED|nx benchmark}}
// CHECK: BM_Model/mlp/threads:1/real_time
// CHECK: BM_Model/transformer/threads:0/real_time
// CHECK: BM_Op/batch-matmul/threads:1/real_time
// CHECK: BM_Op/masked-attention/threads:0/real_time
// CHECK: BM_Op/middle-max/threads:0/real_time
// CHECK-NOT: {{ERROR OCCURRED|nx benchmark}}
// TRAP: nx benchmark: cblas_dgemm ran

func.func @main(%a: tensor<64x64xf64>, %b: tensor<64x64xf64>) -> tensor<64x64xf64> {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<64x64xf64>
  %z = linalg.fill ins(%zero : f64) outs(%e : tensor<64x64xf64>) -> tensor<64x64xf64>
  %c = linalg.matmul ins(%a, %b : tensor<64x64xf64>, tensor<64x64xf64>) outs(%z : tensor<64x64xf64>) -> tensor<64x64xf64>
  return %c : tensor<64x64xf64>
}

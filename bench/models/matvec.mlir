// One op: a 4096x4096 f32 matrix times a vector (linalg.matvec), a dense
// layer at batch 1: memory-bound, 64 MiB read once. On libnxrt's f32 GEMM
// (nx-linalg-to-blas), each thread a share of the rows.
func.func @matvec(%a: tensor<4096x4096xf32>, %x: tensor<4096xf32>) -> tensor<4096xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4096xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4096xf32>) -> tensor<4096xf32>
  %y = linalg.matvec ins(%a, %x : tensor<4096x4096xf32>, tensor<4096xf32>)
      outs(%z : tensor<4096xf32>) -> tensor<4096xf32>
  return %y : tensor<4096xf32>
}

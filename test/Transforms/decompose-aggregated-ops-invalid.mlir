// RUN: nx-opt %s -split-input-file -verify-diagnostics -pass-pipeline='builtin.module(func.func(nx-decompose-aggregated-ops))'

// A softmax on buffers: upstream's decomposition builds tensors, so the
// pass reports it instead of mixing the two.

func.func @softmax_on_buffers(%x: memref<2x16xf32>, %o: memref<2x16xf32>) {
  // expected-error @+1 {{'linalg.softmax' op is decomposed into linalg ops on tensors only, before bufferization; this one has 2 operands, not all tensors}}
  linalg.softmax dimension(1) ins(%x : memref<2x16xf32>) outs(%o : memref<2x16xf32>)
  return
}

// -----

// A softmax of booleans (or integers, or f8): upstream's decomposition
// needs exponentials and infinities, and crashed on i1 (found by fuzzing).

func.func @softmax_of_booleans(%x: tensor<2x16xi1>) -> tensor<2x16xi1> {
  %e = tensor.empty() : tensor<2x16xi1>
  // expected-error @+1 {{'linalg.softmax' op is decomposed for f16, bf16, f32 and f64 elements only; this one has 'i1'}}
  %s = linalg.softmax dimension(1) ins(%x : tensor<2x16xi1>) outs(%e : tensor<2x16xi1>) -> tensor<2x16xi1>
  return %s : tensor<2x16xi1>
}

// -----

func.func @softmax_of_f8(%x: tensor<2x16xf8E4M3FN>) -> tensor<2x16xf8E4M3FN> {
  %e = tensor.empty() : tensor<2x16xf8E4M3FN>
  // expected-error @+1 {{'linalg.softmax' op is decomposed for f16, bf16, f32 and f64 elements only; this one has 'f8E4M3FN'}}
  %s = linalg.softmax dimension(1) ins(%x : tensor<2x16xf8E4M3FN>) outs(%e : tensor<2x16xf8E4M3FN>) -> tensor<2x16xf8E4M3FN>
  return %s : tensor<2x16xf8E4M3FN>
}

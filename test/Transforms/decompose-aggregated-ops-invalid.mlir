// RUN: nx-opt %s -split-input-file -verify-diagnostics -pass-pipeline='builtin.module(func.func(nx-decompose-aggregated-ops))'

// A softmax on buffers: upstream's decomposition builds tensors, so the
// pass reports it instead of mixing the two.

func.func @softmax_on_buffers(%x: memref<2x16xf32>, %o: memref<2x16xf32>) {
  // expected-error @+1 {{'linalg.softmax' op is decomposed into linalg ops on tensors only, before bufferization; this one has 2 operands, not all tensors}}
  linalg.softmax dimension(1) ins(%x : memref<2x16xf32>) outs(%o : memref<2x16xf32>)
  return
}

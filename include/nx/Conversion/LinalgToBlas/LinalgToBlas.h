//===- LinalgToBlas.h - linalg contractions to libnxrt's gemm ---*- C++ -*-===//

#ifndef NX_CONVERSION_LINALGTOBLAS_LINALGTOBLAS_H
#define NX_CONVERSION_LINALGTOBLAS_LINALGTOBLAS_H

namespace mlir {
class RewritePatternSet;
} // namespace mlir

namespace mlir::nx {

/// Patterns that replace `linalg.matmul`, `linalg.batch_matmul` and
/// `linalg.matvec` on f32 or f64 buffers (default indexing maps, one element
/// type) by a call of `nxrt_gemm_f32` / `nxrt_gemm_f64`, declared as an
/// `llvm.func` in the enclosing module. Ops on tensors are left alone.
void populateLinalgToBlasPatterns(RewritePatternSet &patterns);

} // namespace mlir::nx

#endif // NX_CONVERSION_LINALGTOBLAS_LINALGTOBLAS_H

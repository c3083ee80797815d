//===- LinalgToBlas.h - linalg contractions to libnxrt's gemm ---*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef NX_CONVERSION_LINALGTOBLAS_LINALGTOBLAS_H
#define NX_CONVERSION_LINALGTOBLAS_LINALGTOBLAS_H

#include "mlir/IR/Value.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace mlir {
class ModuleOp;
class OpBuilder;
class Type;
class RewritePatternSet;
} // namespace mlir

namespace mlir::nx {

/// Patterns that replace `linalg.matmul`, `linalg.batch_matmul` and
/// `linalg.matvec` on f32 or f64 buffers (default indexing maps, one element
/// type) by a call of `nxrt_gemm_f32` / `nxrt_gemm_f64`, declared as an
/// `llvm.func` in the enclosing module. Ops on tensors are left alone.
/// When `numThreadsFunction` is not empty, it names a `func.func` of type
/// `() -> i32`, which the caller declares: a product that may reach
/// `minWork` multiply-adds then runs as an OpenMP loop over that many parts,
/// each a call of `nxrt_gemm_part_f32` / `_f64`.
/// A buffer as libnxrt's kernels take it: the address of its first element
/// (an `!llvm.ptr`), and its sizes and element strides as i64, read from the
/// memref's descriptor at run time.
struct BufferArguments {
  Value pointer;
  SmallVector<Value> sizes, strides;
};
BufferArguments getBufferArguments(OpBuilder &builder, Location loc,
                                   Value buffer);

/// Fails, with an error at the symbol, when `module` has a symbol `name`
/// that is not an `llvm.func` of type `expected`: the runtime's kernels
/// (`what`, e.g. "contractions") would then silently not be called.
LogicalResult verifyRuntimeDeclaration(ModuleOp module, StringRef name,
                                       Type expected, StringRef what);

void populateLinalgToBlasPatterns(RewritePatternSet &patterns,
                                  StringRef numThreadsFunction = {},
                                  int64_t minWork = 0);

} // namespace mlir::nx

#endif // NX_CONVERSION_LINALGTOBLAS_LINALGTOBLAS_H

//===- FirstRunPreparation.h - what __nx_init sets up -----------*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A program's first run would pay for what later runs find ready: oneDNN's
// GEMM and convolution kernels compiled, the OpenMP team started, heap
// pages mapped. __nx_init, which runs when the program is loaded, calls
// the libnxrt functions that set these up, for what the module uses.
//
//===----------------------------------------------------------------------===//

#ifndef NX_LIB_CONVERSION_NXTOLLVM_FIRSTRUNPREPARATION_H
#define NX_LIB_CONVERSION_NXTOLLVM_FIRSTRUNPREPARATION_H

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"

#include <cstdint>

namespace mlir::nx {

/// The runtime functions __nx_init calls, null where the module needs none,
/// and their arguments.
struct FirstRunPreparation {
  /// oneDNN compiles its GEMM kernels at their first use: a program with f32
  /// products has them compiled when it loads.
  LLVM::LLVMFuncOp gemm;
  /// libomp starts a team's threads at its first parallel region.
  LLVM::LLVMFuncOp threads;
  /// Fresh heap pages fault in one by one as the first run writes them.
  LLVM::LLVMFuncOp heap;
  uint64_t heapBytes = 0;
  /// oneDNN makes a convolution's kernel at its first call: each distinct
  /// convolution call of constant sizes and strides has it made at load.
  LLVM::LLVMFuncOp convolution;
  SmallVector<SmallVector<int64_t>> convolutionArguments;
  /// bf16, f16 and i8 products widen their operands into buffers of each
  /// thread, whose pages would fault in during the first run: the largest
  /// products of constant sizes of each dtype have them mapped at load
  /// (one call per dtype: its nxrt_dtype_t, A's and B's floats, C's
  /// elements), by the runtime where that dtype widens on the CPU.
  LLVM::LLVMFuncOp widening;
  SmallVector<SmallVector<int64_t>> wideningArguments;
  /// On CPUs that read a small product's B in place (AVX2), f32 products
  /// whose B rows lie a multiple of 1 KiB apart copy B with padded rows into
  /// a buffer of each thread: the largest of constant sizes has it mapped at
  /// load (B's floats).
  LLVM::LLVMFuncOp padding;
  int64_t paddedBFloats = 0;
  /// oneDNN makes a bf16 or i8 product's kernel at its first call where the
  /// CPU has instructions for it: each distinct product of constant sizes
  /// and strides has it made at load.
  LLVM::LLVMFuncOp bf16Products, i8Products;
  SmallVector<SmallVector<int64_t>> bf16ProductArguments, i8ProductArguments;
};

/// Declares in `module` what its __nx_init calls. Fails, reporting at the
/// clashing op, when a runtime function's name is taken.
FailureOr<FirstRunPreparation>
declareFirstRunPreparation(RewriterBase &rewriter, ModuleOp module);

/// Calls what `preparation` declared, at the rewriter's insertion point.
void callFirstRunPreparation(RewriterBase &rewriter, Location loc,
                             const FirstRunPreparation &preparation);

} // namespace mlir::nx

#endif // NX_LIB_CONVERSION_NXTOLLVM_FIRSTRUNPREPARATION_H

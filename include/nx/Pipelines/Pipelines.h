//===- Pipelines.h - nx pass pipelines --------------------------*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef NX_PIPELINES_PIPELINES_H
#define NX_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

#include "nx/Transforms/Passes.h"

namespace mlir::nx {

struct LowerToCpuOptions : public PassPipelineOptions<LowerToCpuOptions> {
  PassOptions::Option<bool> lowerBlocksToCustomCalls{
      *this, "lower-blocks",
      llvm::cl::desc("Replace nx.block ops by the custom calls the block "
                     "lowering registry offers (e.g. LAPACK QR/Eigh); "
                     "otherwise always inline their default region"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> blas{
      *this, "blas",
      llvm::cl::desc("Run f32/f64 matmul, batch_matmul and matvec, and 2-D "
                     "convolutions as matrix products (nx-convolutions-to-"
                     "gemm), on libnxrt's optimized BLAS "
                     "(convert-linalg-to-blas); otherwise as loops"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> dnnl{
      *this, "dnnl",
      llvm::cl::desc("With blas, run f32 2-D convolutions (NHWC/HWCF, "
                     "NHWC/FHWC, NCHW/FCHW, depthwise NHWC/HWC) on libnxrt's "
                     "oneDNN (convert-linalg-to-dnnl); otherwise as matrix "
                     "products"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> parallel{
      *this, "parallel",
      llvm::cl::desc("Run large parallel linalg loop nests on every core "
                     "through OpenMP, with nxrt_compute_threads() threads "
                     "(convert-linalg-to-openmp); otherwise serially"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> vectorize{
      *this, "vectorize",
      llvm::cl::desc("Tile and vectorize linalg ops whose innermost loop is "
                     "parallel with MLIR's linalg vectorizer "
                     "(nx-vectorize-linalg); otherwise leave all loops to "
                     "LLVM's loop vectorizer"),
      llvm::cl::init(true)};
  PassOptions::Option<int64_t> vectorBits{
      *this, "vector-bits",
      llvm::cl::desc("Vector register width in bits for nx-vectorize-linalg "
                     "and nx-split-reductions (0: the host's: 512 with "
                     "AVX-512, 256 with AVX, "
                     "otherwise 128)"),
      llvm::cl::init(0)};
  PassOptions::Option<bool> strictReductions{
      *this, "strict-reductions",
      llvm::cl::desc("Keep floating-point reductions in their serial order "
                     "and their maxima's ordered zeros; otherwise they may "
                     "reassociate and vectorize, and a maximum of +0 and -0 "
                     "may be either (nx-split-reductions, "
                     "nx-reassociate-reductions)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> libmMath{
      *this, "libm-math",
      llvm::cl::desc("Call libm for f32 math functions and divide by "
                     "constants; otherwise use MLIR's polynomial "
                     "approximations, which vectorize, and multiply by the "
                     "reciprocal (nx-approximate-math)"),
      llvm::cl::init(false)};
  PassOptions::Option<int64_t> maxFunctionOps{
      *this, "max-function-ops",
      llvm::cl::desc("Functions with more ops are split into pieces of at "
                     "most this many ops (nx-split-functions); 0 keeps "
                     "them whole"),
      llvm::cl::init(SplitFunctionsPassOptions().maxOps)};
};

/// Builds `nx-lower-to-cpu`: func, tensor, arith, math, linalg, tosa and nx
/// in; LLVM dialect out, with nx host interactions calling libnxrt. Every
/// public function of the result has the C interface
/// (`_mlir_ciface_<name>`), and the module defines `__nx_init` (see
/// RuntimeSymbols.h).
void buildLowerToCpuPipeline(OpPassManager &pm,
                             const LowerToCpuOptions &options);

/// The width of the host's vector registers in bits: 512 with AVX-512F,
/// 256 with AVX, otherwise 128.
int64_t getHostVectorBits();

/// Registers `nx-lower-to-cpu` with the global pass registry.
void registerNxPipelines();

} // namespace mlir::nx

#endif // NX_PIPELINES_PIPELINES_H

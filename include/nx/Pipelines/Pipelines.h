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

#include <optional>

namespace mlir::nx {

/// nx-lower-to-cpu's options, one per entry of LowerToCpuOptions.def.
struct LowerToCpuOptions : public PassPipelineOptions<LowerToCpuOptions> {
#define NX_LOWER_TO_CPU_OPTION(type, field, flag, value, description)          \
  PassOptions::Option<type> field{*this, flag, llvm::cl::desc(description),    \
                                  llvm::cl::init(value)};
#include "nx/Pipelines/LowerToCpuOptions.def"
};

/// Builds `nx-lower-to-cpu`: func, tensor, arith, math, linalg, tosa and nx
/// in; LLVM dialect out, with nx host interactions calling libnxrt. Every
/// public function of the result has the C interface
/// (`_mlir_ciface_<name>`), and the module defines `__nx_init` (see
/// RuntimeSymbols.h). It is the six phases below, in order.
void buildLowerToCpuPipeline(OpPassManager &pm,
                             const LowerToCpuOptions &options);

/// The vector widths nx-lower-to-cpu compiles for.
struct VectorWidths {
  /// For nx-vectorize-linalg and nx-split-reductions.
  int64_t vectorBits;
  /// For the reductions that only combine what they read (sums, maxima),
  /// whose loads bound them.
  int64_t reductionVectorBits;
};

/// The one vector-width policy, for the JIT (the host) and the
/// ahead-of-time compiler (its target) alike, chosen by instruction set
/// only, never by CPU model: `hasFeature` says whether the CPU has an LLVM
/// feature ("avx512f"). Nonzero `vectorBits` / `reductionVectorBits` are
/// the user's and win. Otherwise vectors are the widest registers: 512 bits
/// with AVX-512F, 256 with AVX, else 128, and reductions take the vector
/// width.
VectorWidths
selectVectorWidths(llvm::function_ref<bool(llvm::StringRef)> hasFeature,
                   int64_t vectorBits = 0, int64_t reductionVectorBits = 0);

/// selectVectorWidths for the host this process runs on.
VectorWidths selectHostVectorWidths(int64_t vectorBits = 0,
                                    int64_t reductionVectorBits = 0);

//===----------------------------------------------------------------------===//
// The phases of nx-lower-to-cpu, each registered as a pipeline of its own
// (nx-cpu-<phase>) and taking its options from nx-lower-to-cpu's flags.
//===----------------------------------------------------------------------===//

/// Phase 1, `nx-cpu-host-calls`: checks the input, numbers the callbacks,
/// prepares entry points, erases tokens and transfers, and replaces blocks.
struct CpuHostCallOptions {
  /// Blocks become the runtime's kernels where it has one, else their
  /// default region; false: always their default region.
  bool lowerBlocks = true;
};
void buildCpuHostCallPipeline(OpPassManager &pm,
                              const CpuHostCallOptions &options);

/// Phase 2, `nx-cpu-bufferize`: front ends to linalg, fusion, reductions
/// split for vectors, then One-Shot Bufferize and deallocation.
struct CpuBufferizeOptions {
  /// Split innermost reductions into one partial result per vector lane.
  bool splitReductions = true;
  /// Let floating-point reductions reassociate.
  bool reassociateReductions = true;
  /// Multiply by the reciprocal of a divisor many points share.
  bool reciprocalDivisors = true;
  VectorWidths widths = {512, 512};
  /// nx-split-functions' bound; 0 keeps functions whole.
  int64_t maxFunctionOps = NxSplitFunctionsPassOptions().maxOps;
};
void buildCpuBufferizePipeline(OpPassManager &pm,
                               const CpuBufferizeOptions &options);

/// Phase 3, `nx-cpu-library-calls`: contractions and convolutions to
/// libnxrt's BLAS and oneDNN.
struct CpuLibraryCallOptions {
  /// 2-D convolutions on oneDNN; otherwise as matrix products.
  bool dnnl = true;
  /// Large products shared among nxrt_compute_threads() threads.
  bool shareProducts = true;
};
void buildCpuLibraryCallPipeline(OpPassManager &pm,
                                 const CpuLibraryCallOptions &options);

/// Phase 4, `nx-cpu-parallelize`: large parallel loop nests to OpenMP.
struct CpuParallelizeOptions {
  /// Reductions along the outermost loop shared among workers, each into a
  /// row of partial results.
  bool splitOuterReductions = true;
};
void buildCpuParallelizePipeline(OpPassManager &pm,
                                 const CpuParallelizeOptions &options);

/// Phase 5, `nx-cpu-codegen`: transposes tiled, linalg vectorized or to
/// loops, math approximated or to libm.
struct CpuCodegenOptions {
  bool vectorize = true;
  VectorWidths widths = {512, 512};
  /// libm's functions instead of polynomial approximations.
  bool libmMath = false;
  /// Non-temporal stores for large outputs nothing reads before returning.
  bool streamUnreadOutputs = true;
};
void buildCpuCodegenPipeline(OpPassManager &pm,
                             const CpuCodegenOptions &options);

/// Phase 6, `nx-cpu-to-llvm`: loops, vectors, buffers, nx host calls
/// (convert-nx-to-llvm) and OpenMP to the LLVM dialect.
struct CpuToLLVMOptions {
  /// The module has vector ops (codegen's `vectorize`).
  bool vectors = true;
  /// The module has OpenMP ops (the parallelize phase ran).
  bool openMP = true;
};
void buildCpuToLLVMPipeline(OpPassManager &pm, const CpuToLLVMOptions &options);

/// Every phase's options, from nx-lower-to-cpu's flags: the one place where
/// flags become phase options. The vector widths are the host's where the
/// flags leave them to it.
struct CpuPhaseOptions {
  CpuHostCallOptions hostCalls;
  CpuBufferizeOptions bufferize;
  /// Unset: no library calls.
  std::optional<CpuLibraryCallOptions> libraryCalls;
  /// Unset: every loop serial.
  std::optional<CpuParallelizeOptions> parallelize = CpuParallelizeOptions();
  CpuCodegenOptions codegen;
  CpuToLLVMOptions toLLVM;

  static CpuPhaseOptions fromFlags(const LowerToCpuOptions &flags);
};

/// Registers `nx-lower-to-cpu` and its phases with the global pass registry.
void registerNxPipelines();

} // namespace mlir::nx

#endif // NX_PIPELINES_PIPELINES_H

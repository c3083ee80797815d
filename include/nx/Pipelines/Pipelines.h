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
/// RuntimeSymbols.h).
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
/// ahead-of-time compiler (its target) alike. `cpu` is LLVM's name of the
/// CPU, `hasFeature` says whether it has an LLVM feature ("avx512f").
/// Nonzero `vectorBits` / `reductionVectorBits` are the user's and win.
/// Otherwise vectors are the widest registers: 512 bits with AVX-512F, 256
/// with AVX, else 128. Reductions take the vector width, except that on the
/// CPU's own width AMD Zen 4 ("znver4") gets at most 256: it executes a
/// 512-bit operation as two 256-bit halves and streams memory faster
/// through 256-bit loads. An explicit vector width is the reductions' too.
VectorWidths
selectVectorWidths(llvm::StringRef cpu,
                   llvm::function_ref<bool(llvm::StringRef)> hasFeature,
                   int64_t vectorBits = 0, int64_t reductionVectorBits = 0);

/// selectVectorWidths for the host this process runs on.
VectorWidths selectHostVectorWidths(int64_t vectorBits = 0,
                                    int64_t reductionVectorBits = 0);

/// Registers `nx-lower-to-cpu` with the global pass registry.
void registerNxPipelines();

} // namespace mlir::nx

#endif // NX_PIPELINES_PIPELINES_H

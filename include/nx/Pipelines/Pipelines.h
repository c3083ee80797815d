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

/// The width of the host's vector registers in bits: 512 with AVX-512F,
/// 256 with AVX, otherwise 128.
int64_t getHostVectorBits();

/// The vector width in bits for reductions that only combine what they
/// read on CPU `cpu` (LLVM's name) with vectors of `vectorBits`: at most 256
/// on AMD Zen 4 ("znver4"), which executes a 512-bit operation as two
/// 256-bit halves and streams memory faster through 256-bit loads;
/// `vectorBits` elsewhere.
int64_t getReductionVectorBits(llvm::StringRef cpu, int64_t vectorBits);

/// Registers `nx-lower-to-cpu` with the global pass registry.
void registerNxPipelines();

} // namespace mlir::nx

#endif // NX_PIPELINES_PIPELINES_H

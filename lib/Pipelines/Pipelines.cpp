//===- Pipelines.cpp - nx pass pipelines ---------------------------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "nx/Pipelines/Pipelines.h"

#include "mlir/Pass/PassRegistry.h"
#include "llvm/TargetParser/Host.h"

using namespace mlir;

void nx::buildLowerToCpuPipeline(OpPassManager &pm,
                                 const LowerToCpuOptions &options) {
  CpuPhaseOptions phases = CpuPhaseOptions::fromFlags(options);
  buildCpuHostCallPipeline(pm, phases.hostCalls);
  buildCpuBufferizePipeline(pm, phases.bufferize);
  if (phases.libraryCalls)
    buildCpuLibraryCallPipeline(pm, *phases.libraryCalls);
  if (phases.parallelize)
    buildCpuParallelizePipeline(pm, *phases.parallelize);
  buildCpuCodegenPipeline(pm, phases.codegen);
  buildCpuToLLVMPipeline(pm, phases.toLLVM);
}

nx::VectorWidths
nx::selectVectorWidths(llvm::function_ref<bool(llvm::StringRef)> hasFeature,
                       int64_t vectorBits, int64_t reductionVectorBits) {
  int64_t widest = hasFeature("avx512f") ? 512 : hasFeature("avx") ? 256 : 128;
  VectorWidths widths{vectorBits != 0 ? vectorBits : widest,
                      reductionVectorBits};
  if (widths.reductionVectorBits == 0)
    widths.reductionVectorBits = widths.vectorBits;
  return widths;
}

nx::VectorWidths nx::selectHostVectorWidths(int64_t vectorBits,
                                            int64_t reductionVectorBits) {
  llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
  return selectVectorWidths(
      [&](llvm::StringRef name) { return features.lookup(name); }, vectorBits,
      reductionVectorBits);
}

void nx::registerNxPipelines() {
  PassPipelineRegistration<LowerToCpuOptions>(
      "nx-lower-to-cpu",
      "Lowers func/tensor/arith/math/linalg/tosa and nx to the LLVM dialect, "
      "calling libnxrt for host interactions",
      buildLowerToCpuPipeline);
  // Each phase takes nx-lower-to-cpu's flags and reads those it has.
  auto phase = [](StringRef name, StringRef description,
                  void (*build)(OpPassManager &, const CpuPhaseOptions &)) {
    PassPipelineRegistration<LowerToCpuOptions>(
        name, description,
        [build](OpPassManager &pm, const LowerToCpuOptions &flags) {
          build(pm, CpuPhaseOptions::fromFlags(flags));
        });
  };
  phase("nx-cpu-host-calls",
        "nx-lower-to-cpu's first phase: checks the input, numbers callbacks, "
        "prepares entry points, erases tokens and transfers, replaces blocks",
        [](OpPassManager &pm, const CpuPhaseOptions &phases) {
          buildCpuHostCallPipeline(pm, phases.hostCalls);
        });
  phase("nx-cpu-bufferize",
        "nx-lower-to-cpu's second phase: front ends to linalg, fusion, "
        "One-Shot Bufferize and deallocation",
        [](OpPassManager &pm, const CpuPhaseOptions &phases) {
          buildCpuBufferizePipeline(pm, phases.bufferize);
        });
  phase("nx-cpu-library-calls",
        "nx-lower-to-cpu's third phase: products and convolutions to "
        "libnxrt's BLAS and oneDNN (nothing with blas=false)",
        [](OpPassManager &pm, const CpuPhaseOptions &phases) {
          if (phases.libraryCalls)
            buildCpuLibraryCallPipeline(pm, *phases.libraryCalls);
        });
  phase("nx-cpu-parallelize",
        "nx-lower-to-cpu's fourth phase: large loop nests to OpenMP "
        "(nothing with parallel=false)",
        [](OpPassManager &pm, const CpuPhaseOptions &phases) {
          if (phases.parallelize)
            buildCpuParallelizePipeline(pm, *phases.parallelize);
        });
  phase("nx-cpu-codegen",
        "nx-lower-to-cpu's fifth phase: transposes tiled, linalg vectorized "
        "and to loops, math approximated or to libm",
        [](OpPassManager &pm, const CpuPhaseOptions &phases) {
          buildCpuCodegenPipeline(pm, phases.codegen);
        });
  phase("nx-cpu-to-llvm",
        "nx-lower-to-cpu's last phase: loops, vectors, buffers, nx host "
        "calls and OpenMP to the LLVM dialect",
        [](OpPassManager &pm, const CpuPhaseOptions &phases) {
          buildCpuToLLVMPipeline(pm, phases.toLLVM);
        });
}

//===- Pipelines.cpp - nx pass pipelines
//-----------------------------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "nx/Pipelines/Pipelines.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/BufferizationToMemRef/BufferizationToMemRef.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/OpenMPToLLVM/ConvertOpenMPToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVMPass.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/TargetParser/Host.h"

#include "nx/Conversion/NxToLLVM/RuntimeSymbols.h"
#include "nx/Conversion/Passes.h"
#include "nx/Dialect/Nx/Transforms/Passes.h"
#include "nx/Transforms/Passes.h"

using namespace mlir;

void nx::buildLowerToCpuPipeline(OpPassManager &pm,
                                 const LowerToCpuOptions &options) {
  // Input the pipeline would lower wrongly is reported at its op.
  pm.addPass(nx::createNxCheckCpuInputPass());
  // nx: ids for the host to bind callbacks by.
  pm.addPass(createNxAssignCallbackIdsPass());
  pm.addPass(createNxPrepareEntryPointsPass());
  pm.addPass(createNxEraseTokensPass());
  // Segmented programs: on the CPU a device's memory is host memory, so the
  // host <-> device copies are identities.
  pm.addPass(createNxStripTransfersPass());
  // Blocks become native kernels (e.g. LAPACK QR/Eigh custom calls served by
  // the runtime) where the registry offers one on the host, else their
  // default implementation. Callbacks and streams stay: bufferization turns
  // them into runtime invocations directly.
  if (options.lowerBlocks) {
    ConvertNxToCustomCallPassOptions blockOptions;
    blockOptions.platform = nx::Platform::Host;
    blockOptions.blocksOnly = true;
    pm.addPass(createConvertNxToCustomCallPass(blockOptions));
  } else {
    pm.addPass(createNxInlineBlocksPass());
  }

  // Front ends: tosa and elementwise tensor ops become linalg.
  pm.addPass(nx::createNxLowerTosaPass());
  // Sizes that contradict each other are reported at the user's op, before
  // canonicalization and bufferization make them static in ops that would
  // not verify.
  pm.addPass(nx::createNxCheckStaticBoundsPass());
  // One linalg.generic per tree of elementwise ops, so bufferization and the
  // loop lowering see one op per chain between host calls, not one per
  // elementwise op. nx-fuse-elementwise does it in linear time; the passes
  // after it handle what it leaves (dynamic shapes) and fuse the generics of
  // front ends (tosa, hand-written linalg) into their consumers wherever
  // that repeats no work (nx-fuse-linalg).
  pm.addNestedPass<func::FuncOp>(nx::createNxFuseElementwisePass());
  pm.addNestedPass<func::FuncOp>(createConvertElementwiseToLinalgPass());
  pm.addNestedPass<func::FuncOp>(nx::createNxFuseLinalgPass());
  pm.addPass(createCanonicalizerPass());
  VectorWidths widths =
      selectHostVectorWidths(options.vectorBits, options.reductionVectorBits);
  int64_t vectorBits = widths.vectorBits;
  int64_t reductionVectorBits = widths.reductionVectorBits;
  // Innermost reductions keep one partial result per vector lane, which
  // nx-vectorize-linalg turns into vector accumulators after bufferization.
  if (options.vectorize && !options.strictReductions) {
    NxSplitReductionsPassOptions splitReductionsOptions;
    splitReductionsOptions.vectorBits = vectorBits;
    splitReductionsOptions.reductionVectorBits = reductionVectorBits;
    pm.addNestedPass<func::FuncOp>(
        createNxSplitReductionsPass(splitReductionsOptions));
  }
  // An elementwise op writes over an input it is the last user of, so a loop
  // carrying a tensor updates one buffer instead of allocating per iteration.
  pm.addNestedPass<func::FuncOp>(nx::createNxReuseInputsAsOutputsPass());

  // Tensors to buffers; nx ops bufferize through their interfaces.
  bufferization::OneShotBufferizePassOptions bufferizeOptions;
  bufferizeOptions.bufferizeFunctionBoundaries = true;
  bufferizeOptions.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  // A loop body that calls the host (or a stage) yields fresh buffers; the
  // ownership-based deallocation below frees the ones it replaces.
  bufferizeOptions.allowReturnAllocsFromLoops = true;
  // Large functions become pieces of bounded size twice. Around One-Shot
  // Bufferize, whose analysis is quadratic in the uses of a value within a
  // function, the pieces are inlined right back. After it, they stay: every
  // later function pass runs nested on one piece at a time while it is in
  // the cache, so compile time is linear in program size. Those pieces
  // return no buffer they do not own, so deallocation needs no copies.
  NxSplitFunctionsPassOptions splitOptions;
  splitOptions.maxOps = options.maxFunctionOps;
  bool split = options.maxFunctionOps != 0;
  if (split)
    pm.addPass(createNxSplitFunctionsPass(splitOptions));
  pm.addPass(bufferization::createOneShotBufferizePass(bufferizeOptions));
  // Buffers a loop iteration allocates and drops (a host call's results
  // copied into the loop-carried buffer) are allocated once, before the
  // loop; deallocation, which comes next, frees them after it.
  pm.addNestedPass<func::FuncOp>(bufferization::createBufferLoopHoistingPass());
  if (split) {
    pm.addPass(createNxInlinePiecesPass());
    pm.addPass(createNxSplitFunctionsPass(splitOptions));
  }
  // Upstream's buffer-deallocation-pipeline with nx-split-deallocs before
  // the simplification, which is quadratic in the buffers one dealloc frees,
  // and nx-hoist-deallocs after it.
  memref::ExpandReallocPassOptions reallocOptions;
  reallocOptions.emitDeallocs = false;
  pm.addNestedPass<func::FuncOp>(
      memref::createExpandReallocPass(reallocOptions));
  pm.addNestedPass<func::FuncOp>(createCanonicalizerPass());
  pm.addNestedPass<func::FuncOp>(
      bufferization::createOwnershipBasedBufferDeallocationPass());
  pm.addNestedPass<func::FuncOp>(createCanonicalizerPass());
  pm.addNestedPass<func::FuncOp>(nx::createNxSplitDeallocsPass());
  pm.addNestedPass<func::FuncOp>(
      bufferization::createBufferDeallocationSimplificationPass());
  // Frees buffers after their last use rather than at their block's end, so
  // a long straight-line program does not hold every intermediate at once.
  pm.addNestedPass<func::FuncOp>(nx::createNxHoistDeallocsPass());
  pm.addPass(bufferization::createLowerDeallocationsPass());
  pm.addNestedPass<func::FuncOp>(createCSEPass());
  pm.addNestedPass<func::FuncOp>(createCanonicalizerPass());
  // Reductions may reassociate, so LLVM's vectorizer keeps partial sums in
  // vector registers. It marks linalg combiners, so it comes before any
  // pass below that turns linalg ops into loops.
  if (!options.strictReductions)
    pm.addNestedPass<func::FuncOp>(nx::createNxReassociateReductionsPass());
  // The deallocation pipeline clones results a function does not own (its
  // arguments, constants) so the caller always owns what it gets back.
  pm.addPass(createConvertBufferizationToMemRefPass());

  // Contractions: the optimized BLAS beats any loop nest we generate. 2-D
  // convolutions become matrix products (im2col) first.
  if (options.blas) {
    if (options.dnnl)
      pm.addPass(createNxLinalgToDnnlPass());
    pm.addNestedPass<func::FuncOp>(nx::createNxConvolutionsToGemmPass());
    NxLinalgToBlasPassOptions blasOptions;
    // Large products share out their rows among the same OpenMP team as the
    // loop nests; the BLAS itself then runs single-threaded.
    if (options.parallel)
      blasOptions.numThreadsFunction =
          nx::runtime_symbols::kComputeThreads.str();
    pm.addPass(createNxLinalgToBlasPass(blasOptions));
  }

  // Large parallel loop nests share their outermost loop among
  // nxrt_compute_threads() OpenMP threads. Their bodies call no host code.
  if (options.parallel) {
    NxLinalgToOpenMPPassOptions openMPOptions;
    openMPOptions.numThreadsFunction =
        nx::runtime_symbols::kComputeThreads.str();
    pm.addPass(createNxLinalgToOpenMPPass(openMPOptions));
  }

  // Buffers and loops to LLVM. Loops are left for LLVM's vectorizer (the JIT
  // runs LLVM's -O2 pipeline for the host): math functions become
  // arithmetic it can vectorize.
  OpPassManager &functionPm = pm.nest<func::FuncOp>();
  // Transposing copies in cache-sized blocks, within each thread's rows.
  functionPm.addPass(nx::createNxTileTransposesPass());
  if (options.vectorize) {
    NxVectorizeLinalgPassOptions vectorizeOptions;
    vectorizeOptions.vectorBits = vectorBits;
    vectorizeOptions.reductionVectorBits = reductionVectorBits;
    functionPm.addPass(createNxVectorizeLinalgPass(vectorizeOptions));
  }
  functionPm.addPass(createConvertLinalgToLoopsPass());
  if (!options.libmMath)
    functionPm.addPass(nx::createNxApproximateMathPass());
  // libm's functions for every math op libm has (erf has no LLVM intrinsic
  // to fall back on): a module pass, since it declares them, and before the
  // vector lowering, since it unrolls vector operands.
  // libm has no rsqrtf: math.rsqrt becomes 1 / sqrt first.
  OpPassManager *loweringPm = &functionPm;
  if (options.libmMath) {
    math::MathExpandOpsPassOptions expandOptions;
    expandOptions.opMnemonics = {"rsqrt"};
    functionPm.addPass(math::createMathExpandOpsPass(expandOptions));
    pm.addPass(createConvertMathToLibmPass());
    loweringPm = &pm.nest<func::FuncOp>();
  }
  if (options.vectorize) {
    // Transfers of more than one dimension left by the vectorizer become
    // one-dimensional ones, which LLVM lowering takes.
    VectorTransferToSCFOptions transferOptions;
    transferOptions.enableFullUnroll();
    loweringPm->addPass(createConvertVectorToSCFPass(transferOptions));
  }
  loweringPm->addPass(createLowerAffinePass());
  // Without rollback the conversion moves each split block's ops once;
  // with it, every loop's block split records each op it moves, which is
  // quadratic in the ops of a block with many loops.
  SCFToControlFlowPassOptions scfOptions;
  scfOptions.allowPatternRollback = false;
  loweringPm->addPass(createSCFToControlFlowPass(scfOptions));
  loweringPm->addPass(memref::createExpandStridedMetadataPass());
  loweringPm->addPass(createLowerAffinePass());
  if (options.vectorize) {
    // A transposed square of 16 32-bit lanes (nx-vectorize-linalg's tiles
    // of a transpose at 512 bits) as AVX-512's 16x16 shuffle network; any
    // other transpose element by element, which LLVM turns into shuffles.
    ConvertVectorToLLVMPassOptions vectorOptions;
    vectorOptions.vectorTransposeLowering =
        vector::VectorTransposeLowering::Shuffle16x16;
    loweringPm->addPass(createConvertVectorToLLVMPass(vectorOptions));
    // The vectorizer pads transfers with ub.poison.
    loweringPm->addPass(createUBToLLVMConversionPass());
  }
  loweringPm->addPass(createConvertMathToLLVMPass());
  loweringPm->addPass(createArithToLLVMConversionPass());
  loweringPm->addPass(createConvertIndexToLLVMPass());
  // Module passes: they declare runtime and libc functions, or convert
  // function signatures and calls.
  pm.addPass(createConvertNxToLLVMPass());
  // Heap buffers come from libnxrt's definitions of MLIR's generic
  // allocation functions, which remember them per run: code that stops at a
  // failed host call skips its deallocations, and the run frees the rest.
  FinalizeMemRefToLLVMConversionPassOptions memrefOptions;
  memrefOptions.useGenericFunctions = true;
  pm.addPass(createFinalizeMemRefToLLVMConversionPass(memrefOptions));
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  // The OpenMP ops' loop bounds and block arguments are still index-typed.
  if (options.parallel)
    pm.addPass(createConvertOpenMPToLLVMPass());
  OpPassManager &llvmFunctionPm = pm.nest<LLVM::LLVMFuncOp>();
  llvmFunctionPm.addPass(createReconcileUnrealizedCastsPass());
  llvmFunctionPm.addPass(createCanonicalizerPass());
}

nx::VectorWidths
nx::selectVectorWidths(llvm::StringRef cpu,
                       llvm::function_ref<bool(llvm::StringRef)> hasFeature,
                       int64_t vectorBits, int64_t reductionVectorBits) {
  int64_t widest = hasFeature("avx512f") ? 512 : hasFeature("avx") ? 256 : 128;
  VectorWidths widths{vectorBits != 0 ? vectorBits : widest,
                      reductionVectorBits};
  if (widths.reductionVectorBits == 0)
    widths.reductionVectorBits = vectorBits == 0 && cpu == "znver4"
                                     ? std::min<int64_t>(widths.vectorBits, 256)
                                     : widths.vectorBits;
  return widths;
}

nx::VectorWidths nx::selectHostVectorWidths(int64_t vectorBits,
                                            int64_t reductionVectorBits) {
  llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
  return selectVectorWidths(
      llvm::sys::getHostCPUName(),
      [&](llvm::StringRef name) { return features.lookup(name); }, vectorBits,
      reductionVectorBits);
}

void nx::registerNxPipelines() {
  PassPipelineRegistration<LowerToCpuOptions>(
      "nx-lower-to-cpu",
      "Lowers func/tensor/arith/math/linalg/tosa and nx to the LLVM dialect, "
      "calling libnxrt for host interactions",
      buildLowerToCpuPipeline);
}

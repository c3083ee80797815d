//===- CpuPhases.cpp - the phases of nx-lower-to-cpu ----------------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// nx-lower-to-cpu runs six phases in order; each is a builder of its own,
// registered as a pipeline (nx-cpu-<phase>) and tested on its own
// (test/Pipelines/cpu-*.mlir):
//
//   host-calls      what the host calls need first: ids, entry points,
//                   tokens, transfers, blocks
//   bufferize       front ends to linalg, fusion, buffers and deallocation
//   library-calls   contractions and convolutions to BLAS / oneDNN
//   parallelize     large loop nests to OpenMP
//   codegen         tiling, vectorization, loops, math
//   to-llvm         everything to the LLVM dialect, nx host calls included
//
//===----------------------------------------------------------------------===//

#include "nx/Pipelines/Pipelines.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/BufferizationToMemRef/BufferizationToMemRef.h"
#include "mlir/Conversion/ComplexToLLVM/ComplexToLLVM.h"
#include "mlir/Conversion/ComplexToStandard/ComplexToStandard.h"
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
#include "mlir/Transforms/Passes.h"

#include "nx/Codegen/CPU/Passes.h"
#include "nx/Conversion/NxToLLVM/RuntimeSymbols.h"
#include "nx/Conversion/Passes.h"
#include "nx/Dialect/Nx/Transforms/Passes.h"
#include "nx/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::nx;

void nx::buildCpuHostCallPipeline(OpPassManager &pm,
                                  const CpuHostCallOptions &options) {
  // Input the pipeline would lower wrongly is reported at its op.
  pm.addPass(createNxCheckCpuInputPass());
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
  if (!options.lowerBlocks) {
    pm.addPass(createNxInlineBlocksPass());
    return;
  }
  ConvertNxToCustomCallPassOptions blockOptions;
  blockOptions.platform = Platform::Host;
  blockOptions.blocksOnly = true;
  pm.addPass(createConvertNxToCustomCallPass(blockOptions));
}

/// Front ends to linalg, fused, with reductions split for vectors.
static void addFrontEndPasses(OpPassManager &pm,
                              const CpuBufferizeOptions &options) {
  // Front ends: tosa and elementwise tensor ops become linalg.
  pm.addPass(createNxLowerTosaPass());
  // Ops defined by other linalg ops (linalg.softmax) become that definition,
  // which bufferization and every lowering after it know.
  pm.addNestedPass<func::FuncOp>(createNxDecomposeAggregatedOpsPass());
  // 1-D convolutions become 2-D ones, which oneDNN and the GEMM lowering take.
  pm.addNestedPass<func::FuncOp>(createNxConvolutions1DTo2DPass());
  // 3-D convolutions become one 2-D convolution per kernel plane.
  pm.addNestedPass<func::FuncOp>(createNxConvolutions3DTo2DPass());
  // Sizes that contradict each other are reported at the user's op, before
  // canonicalization and bufferization make them static in ops that would
  // not verify.
  pm.addPass(createNxCheckStaticBoundsPass());
  // Elements a generic extracts at affine indices (tosa.reverse's) become
  // inputs of that map, which fusion, threads, views and vectors see.
  pm.addNestedPass<func::FuncOp>(createNxExtractsToInputsPass());
  // One linalg.generic per tree of elementwise ops, so bufferization and the
  // loop lowering see one op per chain between host calls, not one per
  // elementwise op. nx-fuse-elementwise does it in linear time; the passes
  // after it handle what it leaves (dynamic shapes) and fuse the generics of
  // front ends (tosa, hand-written linalg) into their consumers wherever
  // that repeats no work (nx-fuse-linalg).
  pm.addNestedPass<func::FuncOp>(createNxFuseElementwisePass());
  pm.addNestedPass<func::FuncOp>(createConvertElementwiseToLinalgPass());
  pm.addNestedPass<func::FuncOp>(createNxFuseLinalgPass());
  pm.addPass(createCanonicalizerPass());
  // A divisor a generic broadcasts (a softmax's row sums) is inverted once
  // per element: after the fusion, which would compute the reciprocal
  // again for every point it serves.
  if (options.reciprocalDivisors)
    pm.addNestedPass<func::FuncOp>(createNxReciprocalDivisorsPass());
  // Adjacent reduced dimensions become one, so that the reductions' split
  // and their threads, which take one reduction loop, take them.
  pm.addNestedPass<func::FuncOp>(createNxCollapseReductionDimsPass());
  // Innermost reductions keep one partial result per vector lane, which
  // nx-vectorize-linalg turns into vector accumulators after bufferization.
  if (options.splitReductions) {
    NxSplitReductionsPassOptions splitReductionsOptions;
    splitReductionsOptions.vectorBits = options.widths.vectorBits;
    splitReductionsOptions.reductionVectorBits =
        options.widths.reductionVectorBits;
    pm.addNestedPass<func::FuncOp>(
        createNxSplitReductionsPass(splitReductionsOptions));
  }
  // Argmax and argmin keep a (value, index) pair per vector lane. Exact,
  // hence also with strict reductions.
  NxSplitIndexReductionsPassOptions splitIndexOptions;
  splitIndexOptions.vectorBits = options.widths.vectorBits;
  pm.addNestedPass<func::FuncOp>(
      createNxSplitIndexReductionsPass(splitIndexOptions));
  // Each op that writes into a shared fill gets its own, so bufferization
  // fills two buffers instead of copying one, and no copy keeps the op from
  // the team of the op before it.
  pm.addNestedPass<func::FuncOp>(createNxCloneSharedFillsPass());
  // An elementwise op writes over an input it is the last user of, so a loop
  // carrying a tensor updates one buffer instead of allocating per iteration.
  pm.addNestedPass<func::FuncOp>(createNxReuseInputsAsOutputsPass());
}

/// Upstream's buffer-deallocation-pipeline with nx-split-deallocs before
/// the simplification, which is quadratic in the buffers one dealloc frees,
/// and nx-hoist-deallocs after it.
static void addDeallocationPasses(OpPassManager &pm) {
  memref::ExpandReallocPassOptions reallocOptions;
  reallocOptions.emitDeallocs = false;
  pm.addNestedPass<func::FuncOp>(
      memref::createExpandReallocPass(reallocOptions));
  pm.addNestedPass<func::FuncOp>(createCanonicalizerPass());
  pm.addNestedPass<func::FuncOp>(
      bufferization::createOwnershipBasedBufferDeallocationPass());
  pm.addNestedPass<func::FuncOp>(createCanonicalizerPass());
  pm.addNestedPass<func::FuncOp>(createNxSplitDeallocsPass());
  pm.addNestedPass<func::FuncOp>(
      bufferization::createBufferDeallocationSimplificationPass());
  // Frees buffers after their last use rather than at their block's end, so
  // a long straight-line program does not hold every intermediate at once.
  pm.addNestedPass<func::FuncOp>(createNxHoistDeallocsPass());
  pm.addPass(bufferization::createLowerDeallocationsPass());
  pm.addNestedPass<func::FuncOp>(createCSEPass());
  pm.addNestedPass<func::FuncOp>(createCanonicalizerPass());
}

void nx::buildCpuBufferizePipeline(OpPassManager &pm,
                                   const CpuBufferizeOptions &options) {
  addFrontEndPasses(pm, options);
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
  addDeallocationPasses(pm);
  // Reversed reads (a flip) read views of negated strides, which the loop
  // nests' threads share and the vectorizer takes as copies.
  pm.addNestedPass<func::FuncOp>(createNxReversedViewsPass());
  // Reductions may reassociate, so LLVM's vectorizer keeps partial sums in
  // vector registers. It marks linalg combiners, so it comes before any
  // pass that turns linalg ops into loops.
  if (options.reassociateReductions)
    pm.addNestedPass<func::FuncOp>(createNxReassociateReductionsPass());
  // The deallocation pipeline clones results a function does not own (its
  // arguments, constants) so the caller always owns what it gets back.
  pm.addPass(createConvertBufferizationToMemRefPass());
}

void nx::buildCpuLibraryCallPipeline(OpPassManager &pm,
                                     const CpuLibraryCallOptions &options) {
  // Contractions: the optimized BLAS beats any loop nest we generate. 2-D
  // convolutions run on oneDNN, or become matrix products (im2col) first.
  if (options.dnnl)
    pm.addPass(createNxLinalgToDnnlPass());
  pm.addNestedPass<func::FuncOp>(createNxConvolutionsToGemmPass());
  NxLinalgToBlasPassOptions blasOptions;
  // Large products share out their rows among the same OpenMP team as the
  // loop nests; the BLAS itself then runs single-threaded.
  if (options.shareProducts)
    blasOptions.numThreadsFunction = runtime_symbols::kComputeThreads.str();
  pm.addPass(createNxLinalgToBlasPass(blasOptions));
}

void nx::buildCpuParallelizePipeline(OpPassManager &pm,
                                     const CpuParallelizeOptions &options) {
  // Large parallel loop nests share their outermost loop among
  // nxrt_compute_threads() OpenMP threads. Their bodies call no host code.
  NxLinalgToOpenMPPassOptions openMPOptions;
  openMPOptions.numThreadsFunction = runtime_symbols::kComputeThreads.str();
  openMPOptions.splitOuterReductions = options.splitOuterReductions;
  pm.addPass(createNxLinalgToOpenMPPass(openMPOptions));
}

void nx::buildCpuCodegenPipeline(OpPassManager &pm,
                                 const CpuCodegenOptions &options) {
  // Loops are left for LLVM's vectorizer (the JIT runs LLVM's -O2 pipeline
  // for the host): math functions become arithmetic it can vectorize.
  OpPassManager &functionPm = pm.nest<func::FuncOp>();
  // Transposing copies in cache-sized blocks, within each thread's rows.
  functionPm.addPass(createNxTileTransposesPass());
  if (options.vectorize) {
    NxVectorizeLinalgPassOptions vectorizeOptions;
    vectorizeOptions.vectorBits = options.widths.vectorBits;
    vectorizeOptions.reductionVectorBits = options.widths.reductionVectorBits;
    vectorizeOptions.streamUnreadOutputs = options.streamUnreadOutputs;
    functionPm.addPass(createNxVectorizeLinalgPass(vectorizeOptions));
  }
  functionPm.addPass(createConvertLinalgToLoopsPass());
  if (!options.libmMath) {
    functionPm.addPass(createNxApproximateMathPass());
    return;
  }
  // libm's functions for every math op libm has (erf has no LLVM intrinsic
  // to fall back on): a module pass, since it declares them, and before the
  // vector lowering, since it unrolls vector operands.
  // libm has no rsqrtf: math.rsqrt becomes 1 / sqrt first.
  math::MathExpandOpsPassOptions expandOptions;
  expandOptions.opMnemonics = {"rsqrt"};
  functionPm.addPass(math::createMathExpandOpsPass(expandOptions));
  pm.addPass(createConvertMathToLibmPass());
}

/// Loops, vectors and arithmetic of each function to the LLVM dialect.
static void addFunctionToLLVMPasses(OpPassManager &pm,
                                    const CpuToLLVMOptions &options) {
  OpPassManager &functionPm = pm.nest<func::FuncOp>();
  // bf16 in f32 and its conversions as integer operations: LLVM would call
  // the compiler runtime's __truncsfbf2 on CPUs without AVX-512 BF16.
  functionPm.addPass(createNxExpandBf16Pass());
  if (options.vectors) {
    // Transfers of more than one dimension left by the vectorizer become
    // one-dimensional ones, which LLVM lowering takes.
    VectorTransferToSCFOptions transferOptions;
    transferOptions.enableFullUnroll();
    functionPm.addPass(createConvertVectorToSCFPass(transferOptions));
  }
  functionPm.addPass(createLowerAffinePass());
  // Complex arithmetic (a linalg op of complex elements) as arithmetic on
  // its parts, which LLVM lowering takes with the parts' struct.
  functionPm.addPass(createConvertComplexToStandardPass());
  // Without rollback the conversion moves each split block's ops once;
  // with it, every loop's block split records each op it moves, which is
  // quadratic in the ops of a block with many loops.
  SCFToControlFlowPassOptions scfOptions;
  scfOptions.allowPatternRollback = false;
  functionPm.addPass(createSCFToControlFlowPass(scfOptions));
  functionPm.addPass(memref::createExpandStridedMetadataPass());
  functionPm.addPass(createLowerAffinePass());
  if (options.vectors) {
    // A transposed square of 16 32-bit lanes (nx-vectorize-linalg's tiles
    // of a transpose at 512 bits) as AVX-512's 16x16 shuffle network; one
    // of eight lanes is already shuffles (TransposeSquares.cpp), and any
    // other transpose goes element by element, which LLVM turns into
    // shuffles.
    ConvertVectorToLLVMPassOptions vectorOptions;
    vectorOptions.vectorTransposeLowering =
        vector::VectorTransposeLowering::Shuffle16x16;
    functionPm.addPass(createConvertVectorToLLVMPass(vectorOptions));
    // The vectorizer pads transfers with ub.poison.
    functionPm.addPass(createUBToLLVMConversionPass());
  }
  functionPm.addPass(createConvertMathToLLVMPass());
  functionPm.addPass(createConvertComplexToLLVMPass());
  functionPm.addPass(createArithToLLVMConversionPass());
  functionPm.addPass(createConvertIndexToLLVMPass());
}

void nx::buildCpuToLLVMPipeline(OpPassManager &pm,
                                const CpuToLLVMOptions &options) {
  addFunctionToLLVMPasses(pm, options);
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
  if (options.openMP)
    pm.addPass(createConvertOpenMPToLLVMPass());
  OpPassManager &llvmFunctionPm = pm.nest<LLVM::LLVMFuncOp>();
  llvmFunctionPm.addPass(createReconcileUnrealizedCastsPass());
  llvmFunctionPm.addPass(createCanonicalizerPass());
}

CpuPhaseOptions CpuPhaseOptions::fromFlags(const LowerToCpuOptions &flags) {
  VectorWidths widths =
      selectHostVectorWidths(flags.vectorBits, flags.reductionVectorBits);
  CpuPhaseOptions phases;
  phases.hostCalls.lowerBlocks = flags.lowerBlocks;
  phases.bufferize.splitReductions = flags.vectorize && !flags.strictReductions;
  phases.bufferize.reassociateReductions = !flags.strictReductions;
  phases.bufferize.reciprocalDivisors = !flags.libmMath;
  phases.bufferize.widths = widths;
  phases.bufferize.maxFunctionOps = flags.maxFunctionOps;
  if (flags.blas)
    phases.libraryCalls =
        CpuLibraryCallOptions{/*dnnl=*/flags.dnnl,
                              /*shareProducts=*/flags.parallel};
  phases.parallelize = std::nullopt;
  if (flags.parallel)
    phases.parallelize =
        CpuParallelizeOptions{/*splitOuterReductions=*/!flags.strictReductions};
  phases.codegen = {/*vectorize=*/flags.vectorize, widths,
                    /*libmMath=*/flags.libmMath,
                    /*streamUnreadOutputs=*/flags.streamUnreadOutputs};
  phases.toLLVM = {/*vectors=*/flags.vectorize, /*openMP=*/flags.parallel};
  return phases;
}

//===- CompileFlags.cpp - the compilers' shared command-line flags --------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "nx/Runner/CompileFlags.h"

namespace cl = llvm::cl;
using namespace mlir::nx::runner;

cl::OptionCategory &mlir::nx::runner::compileFlagsCategory() {
  static cl::OptionCategory category("compilation options");
  return category;
}

static cl::opt<bool> lowerBlocks(
    "lower-blocks",
    cl::desc("Replace nx.block ops by registered custom calls (LAPACK)"),
    cl::init(true), cl::cat(compileFlagsCategory()));
static cl::opt<bool> blas(
    "blas",
    cl::desc("Run f32/f64 matmul, batch_matmul, matvec and 2-D convolutions "
             "on the optimized BLAS (nx-lower-to-cpu's blas); =false "
             "compiles them as loops"),
    cl::init(true), cl::cat(compileFlagsCategory()));
static cl::opt<bool> dnnl(
    "dnnl",
    cl::desc("With --blas, run f32 2-D convolutions on oneDNN through "
             "libnxrt (nx-lower-to-cpu's dnnl); =false runs them as matrix "
             "products on the BLAS"),
    cl::init(true), cl::cat(compileFlagsCategory()));
static cl::opt<bool> parallel(
    "parallel",
    cl::desc("Run large parallel loop nests on every core through OpenMP "
             "(nx-lower-to-cpu's parallel); =false runs them serially"),
    cl::init(true), cl::cat(compileFlagsCategory()));
static cl::opt<bool> vectorize(
    "vectorize",
    cl::desc("Tile and vectorize elementwise loop nests in MLIR at the "
             "target's vector width (nx-lower-to-cpu's vectorize); =false "
             "leaves them to LLVM's loop vectorizer"),
    cl::init(true), cl::cat(compileFlagsCategory()));
static cl::opt<bool> strictReductions(
    "strict-reductions",
    cl::desc("Keep floating-point reductions in their serial order and "
             "their maxima's ordered zeros (nx-lower-to-cpu's "
             "strict-reductions); by default they may reassociate and "
             "vectorize, and a maximum of +0 and -0 may be either"),
    cl::init(false), cl::cat(compileFlagsCategory()));
static cl::opt<bool> libmMath(
    "libm-math",
    cl::desc("Call libm for f32 math functions (nx-lower-to-cpu's "
             "libm-math); by default they are polynomial approximations"),
    cl::init(false), cl::cat(compileFlagsCategory()));
static cl::opt<int64_t> maxFunctionOps(
    "max-function-ops",
    cl::desc("Compile functions with more ops as pieces of at most this many "
             "(nx-lower-to-cpu's max-function-ops; 0: whole)"),
    cl::init(CompileOptions().maxFunctionOps), cl::cat(compileFlagsCategory()));
static cl::opt<bool> passStatistics(
    "pass-statistics",
    cl::desc("Print to stderr the statistics of nx-lower-to-cpu's passes "
             "(as mlir-opt's --mlir-pass-statistics)"),
    cl::init(false), cl::cat(compileFlagsCategory()));
static cl::opt<unsigned> optLevel(
    "O", cl::desc("LLVM optimization and code generation level (0-3)"),
    cl::Prefix, cl::init(CompileOptions().optLevel),
    cl::cat(compileFlagsCategory()));

static cl::opt<ProgressMode> progress(
    "progress",
    cl::desc("Show each compile phase as it starts, on stderr"),
    cl::values(clEnumValN(ProgressMode::Auto, "auto",
                          "on a terminal, as one status line that is erased "
                          "when the compile ends (default)"),
               clEnumValN(ProgressMode::Always, "always",
                          "always; one line per phase when stderr is no "
                          "terminal"),
               clEnumValN(ProgressMode::Never, "never", "never")),
    cl::init(ProgressMode::Auto), cl::cat(compileFlagsCategory()));

ProgressMode mlir::nx::runner::readProgressFlag() { return progress; }

llvm::Expected<CompileOptions> mlir::nx::runner::readCompileFlags() {
  if (optLevel > 3)
    return llvm::createStringError("-O must be 0 to 3, got " +
                                   llvm::Twine(optLevel.getValue()));
  CompileOptions options;
  options.lowerBlocks = lowerBlocks;
  options.blas = blas;
  options.dnnl = dnnl;
  options.parallel = parallel;
  options.vectorize = vectorize;
  options.strictReductions = strictReductions;
  options.libmMath = libmMath;
  options.maxFunctionOps = maxFunctionOps;
  options.passStatistics = passStatistics;
  options.optLevel = optLevel;
  return options;
}

//===- CompileFlags.h - the compilers' shared command-line flags -*- C++ -*-===//
//
// The nx-lower-to-cpu and code generation flags that nx-runner (JIT) and
// nx-compile (ahead of time) both take, defined once so they mean the same in
// both: --lower-blocks, --blas, --dnnl, --parallel, --vectorize, --strict-reductions,
// --libm-math, --max-function-ops, --pass-statistics and -O.
//
//===----------------------------------------------------------------------===//

#ifndef NX_RUNNER_COMPILEFLAGS_H
#define NX_RUNNER_COMPILEFLAGS_H

#include "nx/Runner/Runner.h"

#include "llvm/Support/CommandLine.h"

namespace mlir::nx::runner {

/// The category the flags are registered in (for cl::HideUnrelatedOptions).
llvm::cl::OptionCategory &compileFlagsCategory();

/// CompileOptions as the flags set them, or an error for a bad value.
llvm::Expected<CompileOptions> readCompileFlags();

} // namespace mlir::nx::runner

#endif // NX_RUNNER_COMPILEFLAGS_H

//===- CompileFlags.h - the compilers' shared flags -------------*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The nx-lower-to-cpu and code generation flags that nx-runner (JIT) and
// nx-compile (ahead of time) both take, defined once so they mean the same in
// both: --lower-blocks, --blas, --dnnl, --parallel, --vectorize,
// --strict-reductions,
// --libm-math, --max-function-ops, --pass-statistics, -O and --progress.
//
//===----------------------------------------------------------------------===//

#ifndef NX_RUNNER_COMPILEFLAGS_H
#define NX_RUNNER_COMPILEFLAGS_H

#include "nx/Runner/CompileProgress.h"
#include "nx/Runner/Runner.h"

#include "llvm/Support/CommandLine.h"

namespace mlir::nx::runner {

/// The category the flags are registered in (for cl::HideUnrelatedOptions).
llvm::cl::OptionCategory &compileFlagsCategory();

/// CompileOptions as the flags set them, or an error for a bad value.
llvm::Expected<CompileOptions> readCompileFlags();

/// --progress: when the tool shows its compile phases (CompileProgress).
ProgressMode readProgressFlag();

/// Fails with `usage` when `path` is "-" (the default: standard input)
/// and standard input is a terminal, where the tool would wait silently for
/// a program typed by hand.
llvm::Error checkInputGiven(llvm::StringRef path, llvm::StringRef usage);

} // namespace mlir::nx::runner

#endif // NX_RUNNER_COMPILEFLAGS_H

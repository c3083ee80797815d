//===- CompileFlags.cpp - the compilers' shared command-line flags --------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "nx/Runner/CompileFlags.h"

#include "llvm/Support/Process.h"

namespace cl = llvm::cl;
using namespace mlir::nx::runner;

cl::OptionCategory &mlir::nx::runner::compileFlagsCategory() {
  static cl::OptionCategory category("compilation options");
  return category;
}

// nx-lower-to-cpu's options, as flags named as the pipeline names them
// (`lower-blocks` is `--lower-blocks`); the vector width comes from the
// machine compiled for.
#define NX_LOWER_TO_CPU_OPTION(type, field, flag, value, description)          \
  static cl::opt<type> field##Flag(                                            \
      flag, cl::desc(description " (default: " #value ")"),                    \
      cl::init(CompileOptions().field), cl::cat(compileFlagsCategory()));
#define NX_LOWER_TO_CPU_TARGET_OPTION(type, field, flag, value, description)
#include "nx/Pipelines/LowerToCpuOptions.def"
static cl::opt<bool> passStatistics(
    "pass-statistics",
    cl::desc("Print to stderr the statistics of nx-lower-to-cpu's passes "
             "(as mlir-opt's --mlir-pass-statistics)"),
    cl::init(false), cl::cat(compileFlagsCategory()));
static cl::opt<unsigned>
    optLevel("O",
             cl::desc("LLVM optimization and code generation level (0-3; "
                      "default: 2)"),
             cl::Prefix, cl::init(CompileOptions().optLevel),
             cl::cat(compileFlagsCategory()));

static cl::opt<bool> printOpOnDiagnostic(
    "mlir-print-op-on-diagnostic",
    cl::desc("Attach the op, in generic form, to each diagnostic (default: "
             "false)"),
    cl::init(false), cl::cat(compileFlagsCategory()));

static cl::opt<ProgressMode> progress(
    "progress", cl::desc("Show each compile phase as it starts, on stderr"),
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
#define NX_LOWER_TO_CPU_OPTION(type, field, flag, value, description)          \
  options.field = field##Flag;
#define NX_LOWER_TO_CPU_TARGET_OPTION(type, field, flag, value, description)
#include "nx/Pipelines/LowerToCpuOptions.def"
  options.passStatistics = passStatistics;
  options.optLevel = optLevel;
  options.printOpOnDiagnostic = printOpOnDiagnostic;
  return options;
}

llvm::Error mlir::nx::runner::checkInputGiven(llvm::StringRef path,
                                              llvm::StringRef usage) {
  if (path != "-" || !llvm::sys::Process::StandardInIsUserInput())
    return llvm::Error::success();
  return llvm::createStringError(
      "no input file given, and standard input is a terminal (usage: " + usage +
      "; '-' reads the program from standard input)");
}

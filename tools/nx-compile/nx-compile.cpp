//===- nx-compile.cpp - ahead-of-time compilation of nx programs ----------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
//   nx-compile model.mlir -o model.so [--emit-header=model.h] [--prefix=P]
//   nx-compile model.mlir -o model.o  [-mcpu=x86-64-v3] [-O3]
//
// Lowers the module with nx-lower-to-cpu and generates code as nx-runner's
// JIT does (same pipeline flags, -O level and, by default, the host's CPU),
// but into a relocatable object (.o) or a shared object (.so, linked by the
// system's C compiler driver against libnxrt). What the object exports is
// nxrt/nxrt_aot.h: P_<entry>, P_nx_init and P_program, P defaulting to the
// output file's stem. nxrt-run runs it; a C host links it.
//
//===----------------------------------------------------------------------===//

#include "nx/Aot/AotCompiler.h"
#include "nx/Runner/CompileFlags.h"
#include "nx/Support/ParseDiagnostics.h"
#include "nxhost/AotProgram.h"
#include "nxhost/Version.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::nx;
namespace cl = llvm::cl;

static cl::OptionCategory category("nx-compile options");

static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<input.mlir>"),
                                      cl::init("-"), cl::cat(category));
static cl::opt<std::string>
    outputFile("o",
               cl::desc("Output: an object file (.o) or a shared object "
                        "(.so)"),
               cl::value_desc("file"), cl::Required, cl::cat(category));
static cl::opt<std::string>
    headerFile("emit-header",
               cl::desc("Also write a C header declaring the exports"),
               cl::value_desc("file.h"), cl::cat(category));
static cl::opt<std::string> prefix(
    "prefix",
    cl::desc("Prefix of the exported symbols (default: the output file's "
             "stem as a C identifier)"),
    cl::cat(category));
static cl::opt<std::string>
    cpu("mcpu",
        cl::desc("CPU to generate code for ('native': this machine's, as "
                 "the JIT; e.g. x86-64-v3)"),
        cl::init("native"), cl::cat(category));
static cl::opt<std::string> linker(
    "cc",
    cl::desc("C compiler driver that links shared objects (default: $CC, "
             "else cc)"),
    cl::cat(category));
static cl::opt<std::string> runtimeDir(
    "runtime-dir",
    cl::desc("Directory holding libnxrt.so to link against (default: "
             "../lib beside nx-compile)"),
    cl::cat(category));
static cl::opt<bool>
    printLowered("print-lowered",
                 cl::desc("Print the lowered LLVM-dialect module to stdout"),
                 cl::init(false), cl::cat(category));
static cl::opt<bool>
    timing("timing", cl::desc("Print to stderr how long each phase took"),
           cl::init(false), cl::cat(category));

/// The compile's status line, erased before an error is printed.
static runner::CompileProgress *activeProgress = nullptr;

static int fail(const llvm::Twine &message) {
  if (activeProgress)
    activeProgress->finish();
  llvm::WithColor::error(llvm::errs(), "nx-compile") << message << "\n";
  return 1;
}

/// libnxrt's directory: --runtime-dir, else ../lib beside this program (the
/// build tree's and an installed prefix's layout).
static std::string findRuntimeDir(const char *argv0) {
  if (!runtimeDir.empty())
    return runtimeDir;
  static int anchor;
  std::string self = llvm::sys::fs::getMainExecutable(argv0, &anchor);
  llvm::SmallString<256> dir(llvm::sys::path::parent_path(self));
  llvm::sys::path::append(dir, "..", "lib");
  return std::string(dir);
}

/// Links `object` into the shared object `output` with the C compiler
/// driver: libnxrt (and libomp for parallel loops) as dependencies, no
/// undefined symbol left, and a RUNPATH of $ORIGIN, so libraries carried
/// beside it are found, then of the libnxrt it was linked against (an
/// installed nx-compile's is the prefix's), so it loads anywhere on this
/// machine without LD_LIBRARY_PATH.
static llvm::Error linkSharedObject(StringRef object, StringRef output,
                                    bool usesOpenMP, const char *argv0) {
  std::string driver = linker;
  if (driver.empty())
    if (const char *cc = std::getenv("CC"))
      driver = cc;
  if (driver.empty())
    driver = "cc";
  auto program = llvm::sys::findProgramByName(driver);
  if (!program || !llvm::sys::fs::can_execute(*program))
    return llvm::createStringError("cannot find the C compiler driver '" +
                                   driver +
                                   "' to link the shared object (set --cc "
                                   "or CC, or write an object file with -o "
                                   "FILE.o)");
  std::string libDir = findRuntimeDir(argv0);
  SmallString<256> resolvedLibDir;
  if (llvm::sys::fs::real_path(libDir, resolvedLibDir))
    resolvedLibDir = libDir;
  SmallVector<std::string> args = {
      *program,      "-shared",
      "-o",          output.str(),
      object.str(),  "-Wl,-soname," + llvm::sys::path::filename(output).str(),
      "-Wl,-z,defs", "-Wl,-rpath,$ORIGIN:" + resolvedLibDir.str().str(),
      "-L" + libDir, "-lnxrt"};
  if (usesOpenMP)
    args.push_back("-lomp");
  args.push_back("-lm");
  SmallVector<StringRef> argRefs(args.begin(), args.end());
  std::string error;
  int rc = llvm::sys::ExecuteAndWait(*program, argRefs, std::nullopt, {}, 0, 0,
                                     &error);
  if (rc != 0) {
    std::string command;
    for (StringRef arg : argRefs)
      command += (command.empty() ? "" : " ") + arg.str();
    return llvm::createStringError("linking failed" +
                                   (error.empty() ? "" : " (" + error + ")") +
                                   ": " + command);
  }
  return llvm::Error::success();
}

static llvm::Error writeFile(StringRef path, StringRef contents) {
  std::string error;
  auto file = mlir::openOutputFile(path, &error);
  if (!file)
    return llvm::createStringError(error);
  file->os() << contents;
  file->keep();
  return llvm::Error::success();
}

/// Fails where `output`'s directory is missing or not writable.
static llvm::Error checkOutputDirectory(StringRef output) {
  StringRef directory = llvm::sys::path::parent_path(output);
  if (directory.empty())
    directory = ".";
  if (!llvm::sys::fs::is_directory(directory))
    return llvm::createStringError("-o '" + output + "' is in '" + directory +
                                   "', which is no directory");
  if (llvm::sys::fs::access(directory, llvm::sys::fs::AccessMode::Write))
    return llvm::createStringError("-o '" + output + "' is in '" + directory +
                                   "', which is not writable");
  return llvm::Error::success();
}

/// Parses and verifies the input file; on failure reports it (fail) and
/// returns null.
static OwningOpRef<ModuleOp> parseProgram(MLIRContext &context,
                                          runner::CompileProgress &progress,
                                          TimingScope &rootTiming) {
  progress.phase("parse");
  TimingScope parseTiming = rootTiming.nest("parse");
  std::string error;
  auto buffer = openInputFile(inputFile, &error);
  if (!buffer) {
    fail(error);
    return nullptr;
  }
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  // Registered last, so it runs first: MLIR's advice to pass a flag
  // nx-compile does not have is reworded.
  ScopedDiagnosticHandler reworded(&context, [&](Diagnostic &diag) {
    progress.finish();
    diagnostics.emitDiagnostic(
        diag.getLocation(), nx::rewordParseDiagnostic(diag.str(), "nx-compile"),
        diag.getSeverity());
    for (Diagnostic &note : diag.getNotes())
      diagnostics.emitDiagnostic(note.getLocation(), note.str(),
                                 note.getSeverity());
    return success();
  });
  // Verified apart, so that an invalid op is not called a parse error.
  ParserConfig config(&context, /*verifyAfterParse=*/false);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, config);
  if (!module) {
    fail("cannot parse '" + inputFile + "'");
    return nullptr;
  }
  if (failed(verify(*module))) {
    fail("'" + inputFile + "' fails verification");
    return nullptr;
  }
  return module;
}

/// Writes the object to `output`, or links it there into a shared object.
static llvm::Error writeOutput(StringRef output, const aot::AotObject &object,
                               const char *argv0,
                               runner::CompileProgress &progress,
                               TimingScope &rootTiming) {
  if (!output.ends_with(".so"))
    return writeFile(output, object.objectFile);
  progress.phase("link");
  TimingScope linkTiming = rootTiming.nest("link");
  llvm::SmallString<128> temp;
  if (auto ec = llvm::sys::fs::createTemporaryFile("nx-compile", "o", temp))
    return llvm::createStringError("cannot create a temporary object file: " +
                                   ec.message());
  llvm::FileRemover removeTemp(temp);
  if (auto err = writeFile(temp, object.objectFile))
    return err;
  return linkSharedObject(temp, output, object.usesOpenMP, argv0);
}

static int compileMain(const char *argv0) {
  auto flags = runner::readCompileFlags();
  if (!flags)
    return fail(llvm::toString(flags.takeError()));
  StringRef output = outputFile;
  bool shared = output.ends_with(".so");
  if (!shared && !output.ends_with(".o"))
    return fail("-o must name a .o or .so file, got '" + output + "'");
  std::string symbolPrefix = prefix.empty()
                                 ? nxhost::AotProgram::defaultPrefix(output)
                                 : prefix.getValue();
  if (!aot::isValidPrefix(symbolPrefix))
    return fail("--prefix must be a C identifier, got '" + symbolPrefix + "'");
  if (auto err = runner::checkInputGiven(
          inputFile, "nx-compile model.mlir -o model.so [options]"))
    return fail(llvm::toString(std::move(err)));
  // Before compiling: the linker's own message would name a temporary file.
  if (auto err = checkOutputDirectory(output))
    return fail(llvm::toString(std::move(err)));

  DefaultTimingManager timingManager;
  timingManager.setEnabled(timing);
  TimingScope rootTiming = timingManager.getRootScope();

  runner::CompileProgress progress("nx-compile", runner::readProgressFlag());
  activeProgress = &progress;
  llvm::scope_exit forgetProgress([] { activeProgress = nullptr; });

  DialectRegistry registry;
  runner::registerRunnerDialects(registry);
  MLIRContext context(registry);
  context.disableMultithreading();
  context.printOpOnDiagnostic(flags->printOpOnDiagnostic);
  OwningOpRef<ModuleOp> module = parseProgram(context, progress, rootTiming);
  if (!module)
    return 1;

  aot::AotOptions options;
  options.prefix = symbolPrefix;
  options.cpu = cpu;
  runner::CompileOptions &compile = options.compile;
  compile = *flags;
  compile.programName = inputFile;
  std::string lowered;
  if (printLowered)
    compile.loweredIR = &lowered;
  if (timing)
    compile.timing = &rootTiming;
  compile.progress = &progress;
  auto object = aot::compileAot(*module, options);
  if (!object)
    return fail(llvm::toString(object.takeError()));
  if (printLowered)
    llvm::outs() << lowered;

  if (auto err = writeOutput(output, *object, argv0, progress, rootTiming))
    return fail(llvm::toString(std::move(err)));
  if (!headerFile.empty())
    if (auto err =
            writeFile(headerFile, aot::emitCHeader(*object, symbolPrefix)))
      return fail(llvm::toString(std::move(err)));
  return 0;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions({&category, &runner::compileFlagsCategory()});
  cl::AddExtraVersionPrinter([](llvm::raw_ostream &os) {
    nxhost::printToolVersion(os, "nx-compile", std::nullopt, /*aotAbi=*/true);
  });
  cl::ParseCommandLineOptions(
      argc, argv,
      "nx-compile: compile an nx program ahead of time into an object or a "
      "shared object\n");
  return compileMain(argv[0]);
}

//===- nx-runner.cpp - compile and run nx programs on the CPU -------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
//   nx-runner model.mlir --entry=main --input='[1,2,3,4]:tensor<4xf32>' \
//       --input=@x.npy --callbacks=libmine.so --output=out.npy
//
// Lowers the module with nx-lower-to-cpu, JIT-compiles it, binds the host
// callbacks (built-in nx.debug.* ones and those of --callbacks libraries),
// runs the entry (optionally from several threads, several times) and prints
// the results. Any failure - bad input, compile error, a failed run - is
// reported on stderr with exit code 1; the process never aborts on bad input.
//
//===----------------------------------------------------------------------===//

#include "nx/Runner/CompileFlags.h"
#include "nxhost/RunDriver.h"
#include "nxhost/Version.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/Timing.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

using namespace mlir;
using namespace mlir::nx::runner;
using nxhost::createSession;
using nxhost::DriverOptions;
using nxhost::parseInputs;
using nxhost::readRunFlags;
using nxhost::renameThreadsFlag;
using nxhost::reportError;
using nxhost::runAndReport;
namespace cl = llvm::cl;

static cl::OptionCategory category("nx-runner options");

static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<input.mlir>"),
                                      cl::init("-"), cl::cat(category));
static cl::opt<bool> timing(
    "timing",
    cl::desc("Print to stderr how long each phase took (parse, nx-lower-to-cpu "
             "and its passes, translation, JIT code generation, load, runs), "
             "each run (and its compiled entry, with the page faults the "
             "process took in it), and each callback's calls, total and "
             "longest time"),
    cl::init(false), cl::cat(category));
static cl::opt<bool> separateStages(
    "separate-stages",
    cl::desc("Compile and JIT every nx.device function (a segmented "
             "program's stages) as its own unit, like a device executable"),
    cl::init(false), cl::cat(category));
static cl::opt<bool>
    printLowered("print-lowered",
                 cl::desc("Print the lowered LLVM-dialect module and exit"),
                 cl::init(false), cl::cat(category));
static constexpr llvm::StringLiteral kTool = "nx-runner";

static int fail(const llvm::Twine &message) {
  return reportError(kTool, message);
}

static int runMain() {
  auto flags = readCompileFlags();
  if (!flags)
    return fail(llvm::toString(flags.takeError()));
  CompileOptions compileOptions = *flags;
  if (auto err = checkInputGiven(inputFile, "nx-runner model.mlir [options]"))
    return fail(llvm::toString(std::move(err)));
  DriverOptions options = readRunFlags(kTool);
  options.timing = timing;
  auto parsed = parseInputs(options);
  if (!parsed)
    return fail(llvm::toString(parsed.takeError()));
  auto session = createSession(options);
  if (!session)
    return fail(llvm::toString(session.takeError()));
  nxrt_runtime_t *runtime = session->runtime->get();

  DefaultTimingManager timingManager;
  timingManager.setEnabled(timing);
  TimingScope rootTiming = timingManager.getRootScope();
  if (timing)
    compileOptions.timing = &rootTiming;
  CompileProgress progress(kTool, readProgressFlag());
  compileOptions.progress = &progress;
  compileOptions.programName = inputFile;
  compileOptions.separateStages = separateStages;
  // A file of many programs: compile the one that runs.
  compileOptions.onlyEntry = options.entry;
  std::string lowered;
  if (printLowered)
    compileOptions.loweredIR = &lowered;
  auto exe = Executable::compileFile(inputFile, runtime, compileOptions);
  progress.finish();
  if (!exe)
    return fail(llvm::toString(exe.takeError()));
  if (printLowered) {
    llvm::outs() << lowered;
    return 0;
  }
  const nxhost::EntrySignature *entry = (*exe)->findEntry(options.entry);
  if (!entry)
    return fail(llvm::toString(
        nxhost::noSuchEntryError(options.entry, (*exe)->entries())));
  if (auto err = nxhost::checkAgainstEntry(options, *entry, *parsed))
    return fail(llvm::toString(std::move(err)));
  // Built-ins after compiling, to bind the aliases the module declares (an
  // unbound name only fails once a run calls it).
  if (options.debugCallbacks)
    if (auto err =
            nxhost::registerDebugCallbacks(runtime, (*exe)->callbackNames()))
      return fail(llvm::toString(std::move(err)));

  const Executable &compiled = **exe;
  nxhost::RunEntryFn run = [&](llvm::ArrayRef<nxhost::HostTensor> inputs,
                               const nxhost::RunOptions &runOptions) {
    return compiled.run(options.entry, inputs, runOptions);
  };
  std::optional<TimingScope> runsTiming;
  auto runsTimer = [&](bool begin) {
    if (begin)
      runsTiming.emplace(rootTiming.nest("runs"));
    else
      runsTiming->stop();
  };
  std::vector<const nxrt_program_t *> programs = {compiled.program()};
  for (const std::unique_ptr<Executable> &stage : compiled.stages())
    programs.push_back(stage->program());
  std::vector<std::string> outfeeds = nxhost::getOutfeedStreams(programs);
  int rc = runAndReport(options, run, *session, *parsed, outfeeds, runsTimer);
  // Requests that outlived their calls (timed out, still being served by
  // a dispatcher or a library's own threads) point into the program: stop
  // serving before the program goes.
  session->dispatcher.reset();
  session->runtime->shutdown();
  exe->reset();
  return rc;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(
      {&category, &compileFlagsCategory(), &nxhost::runFlagsCategory()});
  // Ours is the version that matters for nx programs; the libnxrt actually
  // loaded may be newer than the one this runner was built with.
  cl::SetVersionPrinter([](llvm::raw_ostream &os) {
    nxhost::printToolVersion(os, "nx-runner", nxrt_api_version(),
                             /*aotAbi=*/false);
  });
  // "--threads=N" / "--threads N" mean "--run-threads" (see
  // renameThreadsFlag).
  std::vector<std::string> storage;
  std::vector<const char *> args = renameThreadsFlag(argc, argv, storage);
  cl::ParseCommandLineOptions(
      static_cast<int>(args.size()), args.data(),
      "nx-runner: compile an nx program with nx-lower-to-cpu and run it\n");
  return runMain();
}

//===- nxrt-run.cpp - run ahead-of-time compiled nx programs --------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
//   nxrt-run model.so --entry=main --input='[1,2,3,4]:tensor<4xf32>' \
//       --input=@x.npy --callbacks=libmine.so --output=out.npy
//
// Loads an object written by nx-compile (nxrt/nxrt_aot.h), binds the host
// callbacks (built-in nx.debug.* ones and those of --callbacks libraries),
// runs the entry (optionally from several threads, several times) and prints
// the results exactly as nx-runner does for the same program and flags. It
// needs libnxrt only: no MLIR, no LLVM installation. Failures are reported
// on stderr as "nxrt-run: error: ..." with exit code 1.
//
//===----------------------------------------------------------------------===//

#include "nxhost/AotProgram.h"
#include "nxhost/DebugCallbacks.h"
#include "nxhost/RunDriver.h"
#include "nxhost/Version.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <optional>

using namespace nxhost;
namespace cl = llvm::cl;

static constexpr llvm::StringLiteral kTool = "nxrt-run";

static cl::OptionCategory category("nxrt-run options");

static cl::opt<std::string> objectFile(cl::Positional, cl::desc("<object.so>"),
                                       cl::cat(category));
static cl::opt<std::string>
    prefix("prefix",
           cl::desc("Symbol prefix the object was compiled with (nx-compile "
                    "--prefix); default: the file's stem as a C identifier "
                    "(my-net.so -> my_net)"),
           cl::cat(category));
static cl::opt<bool>
    timing("timing",
           cl::desc("Print to stderr how long loading the object, its init "
                    "(<prefix>_nx_init) and each run took (and its compiled "
                    "entry, with the page faults the process took in it), "
                    "and each callback's calls, total and longest time"),
           cl::init(false), cl::cat(category));

namespace {
/// Wall-clock phases printed with --timing.
class PhaseTimer {
public:
  void start() { begin = std::chrono::steady_clock::now(); }
  void stop(llvm::StringRef phase) {
    if (!timing)
      return;
    std::chrono::duration<double> elapsed =
        std::chrono::steady_clock::now() - begin;
    llvm::errs() << phase << ": " << llvm::format("%.4f", elapsed.count() * 1e3)
                 << " ms\n";
  }

private:
  std::chrono::steady_clock::time_point begin;
};
} // namespace

static void printVersion(llvm::raw_ostream &os) {
  printToolVersion(os, "nxrt-run", nxrt_api_version(), /*aotAbi=*/true);
}

static int runMain() {
  DriverOptions options = readRunFlags(kTool);
  options.timing = timing;
  if (objectFile.empty())
    return reportError(kTool, "no object given (usage: nxrt-run model.so "
                              "[options]; see --help)");
  auto parsed = parseInputs(options);
  if (!parsed)
    return reportError(kTool, llvm::toString(parsed.takeError()));
  auto session = createSession(options);
  if (!session)
    return reportError(kTool, llvm::toString(session.takeError()));
  nxrt_runtime_t *runtime = session->runtime->get();

  PhaseTimer timer;
  timer.start();
  std::string symbolPrefix = prefix.getNumOccurrences()
                                 ? prefix.getValue()
                                 : AotProgram::defaultPrefix(objectFile);
  auto program = AotProgram::load(objectFile, symbolPrefix, runtime);
  if (!program)
    return reportError(kTool, llvm::toString(program.takeError()));
  timer.stop("load");
  timer.start();
  if (auto err = (*program)->initialize())
    return reportError(kTool, llvm::toString(std::move(err)));
  timer.stop("init");

  llvm::ArrayRef<EntrySignature> entries = (*program)->entries();
  const auto *entry = llvm::find_if(entries, [&](const EntrySignature &e) {
    return e.name == options.entry;
  });
  if (entry == entries.end())
    return reportError(
        kTool, llvm::toString(noSuchEntryError(options.entry, entries)));
  if (auto err = checkAgainstEntry(options, *entry, *parsed))
    return reportError(kTool, llvm::toString(std::move(err)));

  // Built-ins after loading, to bind the aliases the program declares.
  if (options.debugCallbacks)
    if (auto err = registerDebugCallbacks(runtime, (*program)->callbackNames()))
      return reportError(kTool, llvm::toString(std::move(err)));

  const AotProgram &loaded = **program;
  RunEntryFn run = [&](llvm::ArrayRef<HostTensor> inputs,
                       const RunOptions &runOptions) {
    return loaded.run(options.entry, inputs, runOptions);
  };
  auto runsTimer = [&](bool begin) {
    if (begin)
      timer.start();
    else
      timer.stop("runs");
  };
  std::vector<std::string> outfeeds = getOutfeedStreams({loaded.program()});
  int rc = runAndReport(options, run, *session, *parsed, outfeeds, runsTimer);
  // Requests that outlived their calls point into the program: stop serving
  // before it goes.
  session->dispatcher.reset();
  session->runtime->shutdown();
  program->reset();
  return rc;
}

int main(int argc, char **argv) {
  cl::HideUnrelatedOptions({&category, &runFlagsCategory()});
  cl::SetVersionPrinter(printVersion);
  std::vector<std::string> storage;
  std::vector<const char *> args = renameThreadsFlag(argc, argv, storage);
  cl::ParseCommandLineOptions(
      static_cast<int>(args.size()), args.data(),
      "nxrt-run: run an object written by nx-compile against libnxrt\n\n"
      "The object's symbols are <prefix>_program, <prefix>_nx_init and\n"
      "<prefix>_<entry>; --prefix defaults to the file's stem with every\n"
      "character that cannot appear in a C identifier replaced by '_'.\n");
  return runMain();
}

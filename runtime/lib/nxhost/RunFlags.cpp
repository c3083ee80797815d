//===- RunFlags.cpp - the command-line flags both runners share -----------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Registered in whichever LLVM Support the tool links (libLLVM for
// nx-runner, the static archive for nxrt-run); read by readRunFlags.
//
//===----------------------------------------------------------------------===//

#include "nxhost/RunDriver.h"

namespace cl = llvm::cl;
using namespace nxhost;

cl::OptionCategory &nxhost::runFlagsCategory() {
  static cl::OptionCategory category("Run options");
  return category;
}

namespace {
enum class Dispatch { Inline, Bridge };

struct RunFlags {
  cl::opt<std::string> entry{"entry",
                             cl::desc("Function to run (default: main)"),
                             cl::init("main"), cl::cat(runFlagsCategory())};
  // iree-run-module's name for it.
  cl::alias function{"function", cl::desc("Alias for --entry"),
                     cl::aliasopt(entry), cl::cat(runFlagsCategory())};
  cl::list<std::string> inputs{
      "input",
      cl::desc("An argument, in order: VALUE:TYPE (e.g. "
               "'[1, 2]:tensor<2xf32>', VALUE as in dense<...>), "
               "SHAPExTYPE=VALUES as iree-run-module takes it (e.g. "
               "'2x2xf32=1 2 3 4'), or @file.npy"),
      cl::cat(runFlagsCategory())};
  cl::list<std::string> outputs{
      "output",
      cl::desc("Write result #i to the i-th path (.npy; a leading @, as "
               "iree-run-module writes it, is dropped)"),
      cl::cat(runFlagsCategory())};
  cl::list<std::string> callbackLibs{
      "callbacks",
      cl::desc("Shared library exporting nx_register_callbacks (repeatable)"),
      cl::cat(runFlagsCategory())};
  cl::list<std::string> ffiLibs{
      "ffi-library",
      cl::desc("Shared library of XLA FFI handlers, registered as it loads "
               "(XLA_FFI_REGISTER_HANDLER) or named with --ffi-target "
               "(repeatable)"),
      cl::cat(runFlagsCategory())};
  cl::list<std::string> ffiTargets{
      "ffi-target",
      cl::desc("NAME=SYMBOL: binds custom-call target NAME to the XLA FFI "
               "handler SYMBOL that an --ffi-library exports (repeatable)"),
      cl::cat(runFlagsCategory())};
  cl::opt<bool> debugCallbacks{
      "debug-callbacks",
      cl::desc("Bind the built-in nx.debug.* callbacks (on by default; "
               "--debug-callbacks=false turns it off)"),
      cl::init(true), cl::cat(runFlagsCategory())};
  cl::opt<Dispatch> dispatch{
      "dispatch",
      cl::desc("How host callbacks are dispatched (default: inline)"),
      cl::values(clEnumValN(Dispatch::Inline, "inline",
                            "the compute thread calls the handler"),
                 clEnumValN(Dispatch::Bridge, "bridge",
                            "requests are served by dispatcher threads")),
      cl::init(Dispatch::Inline), cl::cat(runFlagsCategory())};
  cl::opt<unsigned> dispatchThreads{
      "dispatch-threads",
      cl::desc("Dispatcher threads in bridge mode (default: 2)"), cl::init(2),
      cl::cat(runFlagsCategory())};
  cl::opt<int64_t> timeoutMs{
      "timeout-ms", cl::desc("Deadline of each run (ms; default: 0, none)"),
      cl::init(0), cl::cat(runFlagsCategory())};
  cl::opt<int64_t> callbackTimeoutMs{
      "callback-timeout-ms",
      cl::desc("Reply timeout of each bridge callback call (ms; default: 0, "
               "only the run's deadline)"),
      cl::init(0), cl::cat(runFlagsCategory())};
  // See renameThreadsFlag.
  cl::opt<unsigned> threads{
      "run-threads",
      cl::desc("Run concurrently from N threads (alias: --threads; default: "
               "1)"),
      cl::init(1), cl::cat(runFlagsCategory())};
  cl::opt<unsigned> repeat{"repeat", cl::desc("Runs per thread (default: 1)"),
                           cl::init(1), cl::cat(runFlagsCategory())};
  cl::opt<bool> reuseInputs{
      "reuse-inputs",
      cl::desc("Let every run read the inputs in place, as a host program "
               "that holds its buffers calls the entry, instead of fresh "
               "copies (whose writes by the runner put them in one core's "
               "cache); fails if a run wrote them"),
      cl::init(false), cl::cat(runFlagsCategory())};
  cl::opt<bool> keepGoing{
      "keep-going",
      cl::desc("Run every run even after one fails, report each run's "
               "outcome and results (which may differ between runs), and "
               "exit 1 if any failed"),
      cl::init(false), cl::cat(runFlagsCategory())};
  cl::list<std::string> infeeds{
      "infeed",
      cl::desc("Push one infeed value before running: NAME=T1[;T2...], each "
               "tensor as for --input (repeatable, in order)"),
      cl::cat(runFlagsCategory())};
  cl::list<std::string> outfeeds{
      "outfeed",
      cl::desc("Open stream NAME and print its outfeed values after the runs "
               "(repeatable)"),
      cl::cat(runFlagsCategory())};
  cl::list<std::string> streams{"stream",
                                cl::desc("Open stream NAME (repeatable)"),
                                cl::cat(runFlagsCategory())};
  cl::opt<int> computeThreads{
      "compute-threads",
      cl::desc("Threads compiled compute may use: its parallel loop nests "
               "and its contractions on the optimized BLAS "
               "(nxrt_set_compute_threads; 0, the default: one per core)"),
      cl::init(0), cl::cat(runFlagsCategory())};
  cl::opt<bool> quiet{"quiet", cl::desc("Do not print results"),
                      cl::init(false), cl::cat(runFlagsCategory())};
  cl::opt<bool> traceCallbacks{
      "trace-callbacks",
      cl::desc("Log each host call to stderr as it returns: callback, "
               "location, dispatch and duration (NXRT_TRACE=1 does the same "
               "in any host)"),
      cl::init(false), cl::cat(runFlagsCategory())};
};

/// Constructed (registered) on first use, which is before
/// cl::ParseCommandLineOptions: tools call runFlags() from main first.
RunFlags &runFlags() {
  static RunFlags flags;
  return flags;
}

// Registers the flags when a tool links this file (it refers to
// readRunFlags), before main parses the command line.
[[maybe_unused]] RunFlags &registered = runFlags();
} // namespace

DriverOptions nxhost::readRunFlags(llvm::StringRef tool) {
  RunFlags &flags = runFlags();
  DriverOptions options;
  options.tool = tool.str();
  options.entry = flags.entry;
  options.inputs = flags.inputs;
  for (const std::string &output : flags.outputs)
    options.outputs.push_back(
        llvm::StringRef(output).starts_with("@") ? output.substr(1) : output);
  options.callbackLibraries = flags.callbackLibs;
  options.ffiLibraries = flags.ffiLibs;
  options.ffiTargets = flags.ffiTargets;
  options.infeeds = flags.infeeds;
  options.outfeeds = flags.outfeeds;
  options.streams = flags.streams;
  options.debugCallbacks = flags.debugCallbacks;
  options.bridge = flags.dispatch == Dispatch::Bridge;
  options.dispatchThreads = flags.dispatchThreads;
  options.timeoutMs = flags.timeoutMs;
  options.callbackTimeoutMs = flags.callbackTimeoutMs;
  options.threads = flags.threads;
  options.repeat = flags.repeat;
  options.keepGoing = flags.keepGoing;
  options.reuseInputs = flags.reuseInputs;
  options.traceCallbacks = flags.traceCallbacks;
  options.computeThreads = flags.computeThreads;
  options.quiet = flags.quiet;
  return options;
}

std::vector<const char *>
nxhost::renameThreadsFlag(int argc, char **argv,
                          std::vector<std::string> &storage) {
  storage.clear();
  storage.reserve(argc);
  std::vector<const char *> args;
  for (int i = 0; i < argc; ++i) {
    llvm::StringRef rest = argv[i];
    if (i > 0 &&
        (rest.consume_front("--threads") || rest.consume_front("-threads")) &&
        (rest.empty() || rest.starts_with("="))) {
      storage.push_back(("--run-threads" + rest).str());
      args.push_back(storage.back().c_str());
      continue;
    }
    args.push_back(argv[i]);
  }
  return args;
}

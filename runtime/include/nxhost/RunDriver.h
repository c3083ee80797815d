//===- RunDriver.h - what nx-runner and nxrt-run share ----------*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The two runners differ only in how they get a program (nx-runner compiles
// MLIR with a JIT, nxrt-run loads an ahead-of-time object); everything
// around it is here, once: the flags they share, the runtime set-up
// (dispatch mode, callback libraries), --input / --infeed parsing, the
// streams, --threads x --repeat runs and their report. Their stdout is
// therefore byte-identical for the same program and flags.
//
//===----------------------------------------------------------------------===//

#ifndef NXHOST_RUNDRIVER_H
#define NXHOST_RUNDRIVER_H

#include "nxhost/BridgeDispatcher.h"
#include "nxhost/CallbackTimes.h"
#include "nxhost/EntryCall.h"
#include "nxhost/HostRuntime.h"
#include "nxhost/HostTensor.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/CommandLine.h"

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace nxhost {

/// What the shared flags (RunnerFlags.cpp) say.
struct DriverOptions {
  /// Names the tool in warnings.
  std::string tool;
  std::string entry = "main";
  std::vector<std::string> inputs, outputs, callbackLibraries;
  /// --ffi-library paths and --ffi-target NAME=SYMBOL bindings.
  std::vector<std::string> ffiLibraries, ffiTargets;
  std::vector<std::string> infeeds, outfeeds, streams;
  bool debugCallbacks = true;
  bool bridge = false;
  unsigned dispatchThreads = 2;
  int64_t timeoutMs = 0;
  int64_t callbackTimeoutMs = 0;
  unsigned threads = 1;
  unsigned repeat = 1;
  bool keepGoing = false;
  /// --reuse-inputs: every run reads the parsed inputs in place (see
  /// RunOptions::reuseInputs); the driver fails if a run wrote them.
  bool reuseInputs = false;
  int computeThreads = 0;
  bool quiet = false;
  /// --trace-callbacks: the runtime's trace log (one line per host call).
  bool traceCallbacks = false;
  /// Set by each tool (see readRunFlags); adds the per-callback table.
  bool timing = false;
};

/// The category of the shared flags, for cl::HideUnrelatedOptions.
llvm::cl::OptionCategory &runFlagsCategory();
/// Reads the shared flags after cl::ParseCommandLineOptions. `--timing` is
/// each tool's own (its phases differ): set it afterwards.
DriverOptions readRunFlags(llvm::StringRef tool);
/// argv with "--threads[=N]" renamed "--run-threads": libLLVM owns a global
/// "-threads" option, so the shared flag is registered under the longer
/// name. `storage` keeps the renamed arguments alive.
std::vector<const char *> renameThreadsFlag(int argc, char **argv,
                                            std::vector<std::string> &storage);

/// Prints "<tool>: error: <message>" to stderr; returns exit code 1.
int reportError(llvm::StringRef tool, const llvm::Twine &message);

/// A runtime set up as the flags say: bridge dispatcher (--dispatch=bridge;
/// inline, one thread that answers callbacks bound BRIDGE that no hook
/// takes) and callback libraries, compute threads set.
/// With --timing, the runtime's tracer gathers per-callback times.
struct HostSession {
  std::unique_ptr<HostRuntime> runtime;
  std::unique_ptr<BridgeDispatcher> dispatcher;
  std::unique_ptr<CallbackTimes> callbackTimes;
};
llvm::Expected<HostSession> createSession(const DriverOptions &options);

/// Inputs and infeed values, parsed before the program is loaded so that bad
/// flags fail fast.
struct ParsedInputs {
  std::vector<HostTensor> args;
  std::vector<std::pair<std::string, std::vector<HostTensor>>> infeeds;
};
llvm::Expected<ParsedInputs> parseInputs(const DriverOptions &options);

/// Runs the entry point on the given inputs.
using RunEntryFn = std::function<llvm::Expected<std::vector<HostTensor>>(
    llvm::ArrayRef<HostTensor> inputs, const RunOptions &options)>;

/// Checks the command line against the entry point before anything runs:
/// the --input values fit its arguments and no more --output paths are
/// given than it has results.
llvm::Error checkAgainstEntry(const DriverOptions &options,
                              const EntrySignature &entry,
                              const ParsedInputs &parsed);

/// Opens the streams, pushes the --infeed values and ends the streams'
/// infeed (a read past those values fails at once, and a note says how to
/// feed the stream), runs `run` --threads x --repeat times, prints the
/// results (or each run's outcome with --keep-going), the bridge count and
/// the outfeeds (also those of `programOutfeeds` that no flag names, with
/// a note), writes --output files; returns the exit code, errors
/// reported on stderr. `runsTimer` (optional) is called with true before
/// the runs and false after them.
int runAndReport(const DriverOptions &options, const RunEntryFn &run,
                 const HostSession &session, const ParsedInputs &parsed,
                 llvm::ArrayRef<std::string> programOutfeeds,
                 llvm::function_ref<void(bool)> runsTimer = {});

/// The streams the outfeeds of `programs` write, in site order, each once.
std::vector<std::string>
getOutfeedStreams(llvm::ArrayRef<const nxrt_program_t *> programs);

} // namespace nxhost

#endif // NXHOST_RUNDRIVER_H

//===- RunDriver.cpp - inputs, streams, runs and their report -------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "nxhost/RunDriver.h"

#include "nxrt/nxrt_ffi.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <optional>
#include <system_error>
#include <thread>

using namespace nxhost;

int nxhost::reportError(llvm::StringRef tool, const llvm::Twine &message) {
  llvm::errs().flush();
  llvm::WithColor::error(llvm::errs(), tool) << message << "\n";
  return 1;
}

/// Loads the --ffi-library libraries and binds the --ffi-target symbols,
/// process-wide. A library must register a handler as it loads unless
/// --ffi-target names what it exports.
static llvm::Error loadFfiHandlers(const DriverOptions &opts) {
  for (const std::string &lib : opts.ffiLibraries)
    if (auto err = statusToError(nxrt_ffi_load_library(
            lib.c_str(), opts.ffiTargets.empty() ? 1 : 0, nullptr)))
      return err;
  for (llvm::StringRef binding : opts.ffiTargets) {
    auto [name, symbol] = binding.split('=');
    if (name.empty() || symbol.empty())
      return llvm::createStringError(
          "--ffi-target='" + binding +
          "' is not NAME=SYMBOL (a custom-call target and the XLA FFI "
          "handler an --ffi-library exports)");
    if (auto err = statusToError(nxrt_ffi_register_symbol(
            nullptr, name.str().c_str(), symbol.str().c_str())))
      return err;
  }
  return llvm::Error::success();
}

/// The most run threads (--threads) and dispatcher threads a runner starts,
/// as many as compute threads (NXRT_MAX_COMPUTE_THREADS); the system may
/// refuse fewer, which is an error too (runConcurrently, BridgeDispatcher).
static constexpr unsigned kMaxHostThreads = 4096;

llvm::Expected<HostSession> nxhost::createSession(const DriverOptions &opts) {
  if (opts.computeThreads < 0 || opts.computeThreads > NXRT_MAX_COMPUTE_THREADS)
    return llvm::createStringError("--compute-threads must be from 0 to " +
                                   std::to_string(NXRT_MAX_COMPUTE_THREADS) +
                                   ", got " +
                                   std::to_string(opts.computeThreads));
  if (opts.threads > kMaxHostThreads)
    return llvm::createStringError("--threads must be at most " +
                                   std::to_string(kMaxHostThreads) + ", got " +
                                   std::to_string(opts.threads));
  if (opts.dispatchThreads > kMaxHostThreads)
    return llvm::createStringError("--dispatch-threads must be at most " +
                                   std::to_string(kMaxHostThreads) + ", got " +
                                   std::to_string(opts.dispatchThreads));
  // 0 is "no deadline"; a negative one would read as none too, silently.
  if (opts.timeoutMs < 0)
    return llvm::createStringError("--timeout-ms must be at least 0, got " +
                                   std::to_string(opts.timeoutMs));
  if (opts.callbackTimeoutMs < 0)
    return llvm::createStringError(
        "--callback-timeout-ms must be at least 0, got " +
        std::to_string(opts.callbackTimeoutMs));
  // Zero runs would succeed having run nothing.
  if (opts.repeat == 0)
    return llvm::createStringError("--repeat must be at least 1, got 0");
  if (opts.threads == 0)
    return llvm::createStringError("--threads must be at least 1, got 0");
  if (opts.bridge && opts.dispatchThreads == 0)
    return llvm::createStringError(
        "--dispatch-threads must be at least 1 with --dispatch=bridge, got 0");
  nxrt_set_compute_threads(opts.computeThreads);
  // One runtime serves the program, the callback libraries and, in bridge
  // mode, the dispatcher threads.
  HostSession session;
  session.runtime = HostRuntime::create();
  if (opts.traceCallbacks)
    nxrt_runtime_set_trace_log(session.runtime->get(), 1);
  if (opts.timing) {
    session.callbackTimes = std::make_unique<CallbackTimes>();
    session.callbackTimes->attach(session.runtime->get());
  }
  // Without --dispatch=bridge a library may still bind a callback BRIDGE
  // and install no hook; its calls would wait in the pull queue forever.
  auto dispatcher =
      opts.bridge ? BridgeDispatcher::create(session.runtime->get(),
                                             opts.dispatchThreads,
                                             opts.callbackTimeoutMs, opts.tool)
                  : BridgeDispatcher::createForBridgeCallbacks(
                        session.runtime->get(), opts.tool);
  if (!dispatcher)
    return dispatcher.takeError();
  session.dispatcher = std::move(*dispatcher);
  for (const std::string &lib : opts.callbackLibraries)
    if (auto err = session.runtime->loadCallbackLibrary(lib))
      return err;
  if (auto err = loadFfiHandlers(opts))
    return err;
  return session;
}

//===----------------------------------------------------------------------===//
// Inputs
//===----------------------------------------------------------------------===//

static llvm::Expected<HostTensor> parseTensor(llvm::StringRef text) {
  text = text.trim();
  if (text.consume_front("@"))
    return HostTensor::readNpy(text);
  return HostTensor::parseLiteral(text);
}

/// Splits "a;b" at top-level ';' (a literal has none of its own).
static llvm::SmallVector<llvm::StringRef> splitValues(llvm::StringRef text) {
  llvm::SmallVector<llvm::StringRef> parts;
  text.split(parts, ';', -1, /*KeepEmpty=*/false);
  return parts;
}

llvm::Expected<ParsedInputs> nxhost::parseInputs(const DriverOptions &opts) {
  ParsedInputs parsed;
  for (auto [i, text] : llvm::enumerate(opts.inputs)) {
    auto t = parseTensor(text);
    if (!t)
      return llvm::createStringError("--input #" + llvm::Twine(i) + ": " +
                                     llvm::toString(t.takeError()));
    parsed.args.push_back(std::move(*t));
  }
  for (const std::string &spec : opts.infeeds) {
    auto [name, values] = llvm::StringRef(spec).split('=');
    // "x=;;" has no value either: the stream would get nothing.
    if (name.empty() || splitValues(values).empty())
      return llvm::createStringError(
          "--infeed expects NAME=VALUE[;VALUE...], got '" + spec + "'");
    std::vector<HostTensor> tensors;
    for (llvm::StringRef v : splitValues(values)) {
      auto t = parseTensor(v);
      if (!t)
        return llvm::createStringError("--infeed " + name + ": " +
                                       llvm::toString(t.takeError()));
      tensors.push_back(std::move(*t));
    }
    parsed.infeeds.emplace_back(name.str(), std::move(tensors));
  }
  return parsed;
}

//===----------------------------------------------------------------------===//
// Streams
//===----------------------------------------------------------------------===//

/// The names that follow `prefix` in `errors` (up to `end`), each once: the
/// streams or callbacks the runs' messages name.
static llvm::SmallVector<llvm::StringRef>
namesAfter(llvm::ArrayRef<std::string> errors, llvm::StringRef prefix,
           char end) {
  llvm::SmallVector<llvm::StringRef> names;
  for (llvm::StringRef error : errors) {
    size_t at = error.find(prefix);
    if (at == llvm::StringRef::npos)
      continue;
    llvm::StringRef name =
        error.drop_front(at + prefix.size()).take_until([&](char c) {
          return c == end;
        });
    if (!llvm::is_contained(names, name))
      names.push_back(name);
  }
  return names;
}

namespace {

/// The streams the flags opened (--stream, --outfeed, --infeed); closes them
/// when destroyed. Only the runner holds their handles, so nothing but its
/// --infeed values can ever feed them: once those are pushed, it ends their
/// infeed, and a run reading past them fails at once instead of waiting
/// forever.
class StreamSet {
public:
  StreamSet(nxrt_runtime_t *runtime, const DriverOptions &opts)
      : runtime(runtime), opts(opts) {}
  StreamSet(const StreamSet &) = delete;
  StreamSet &operator=(const StreamSet &) = delete;
  ~StreamSet() {
    for (auto &entry : streams)
      nxrt_stream_destroy(entry.second.handle);
  }

  /// Opens the streams the flags name and pushes the infeed values, then
  /// opens, for printing, the program's outfeed streams no flag names.
  llvm::Error open(
      const std::vector<std::pair<std::string, std::vector<HostTensor>>> &feeds,
      llvm::ArrayRef<std::string> programOutfeeds) {
    for (const std::string &name : opts.streams)
      if (auto err = openStream(name))
        return llvm::createStringError("--stream " + name + ": " +
                                       llvm::toString(std::move(err)));
    for (const std::string &name : opts.outfeeds) {
      if (auto err = openStream(name))
        return llvm::createStringError("--outfeed " + name + ": " +
                                       llvm::toString(std::move(err)));
      streams[name].printOutfeed = true;
    }
    for (const auto &[name, tensors] : feeds) {
      if (auto err = openStream(name))
        return llvm::createStringError("--infeed " + name + ": " +
                                       llvm::toString(std::move(err)));
      std::vector<nxrt_tensor_t> views;
      for (const HostTensor &t : tensors)
        views.push_back(t.view());
      if (auto err = statusToError(nxrt_stream_push_infeed(
              streams[name].handle, views.data(), views.size())))
        return llvm::createStringError("--infeed " + name + ": " +
                                       llvm::toString(std::move(err)));
      ++streams[name].pushed;
    }
    for (const std::string &name : programOutfeeds) {
      if (streams.count(name))
        continue;
      if (auto err = openStream(name))
        return llvm::createStringError("outfeed stream " + name + ": " +
                                       llvm::toString(std::move(err)));
      streams[name].printOutfeed = true;
      streams[name].unnamed = true;
    }
    for (auto &entry : streams)
      nxrt_stream_end_infeed(entry.second.handle);
    return llvm::Error::success();
  }

  /// For each stream that a failed run read past its last --infeed value
  /// (`errors` holds the runs' messages), notes how to feed it.
  void noteReadsPastEnd(llvm::ArrayRef<std::string> errors, unsigned runs) {
    for (auto &[name, stream] : streams) {
      // The runtime's message for such a read (nxrt_stream_end_infeed).
      std::string past = "no more infeed values on stream '" + name + "'";
      if (llvm::none_of(errors, [&](const std::string &error) {
            return llvm::StringRef(error).contains(past);
          }))
        continue;
      // After the --keep-going outcomes it refers to.
      llvm::outs().flush();
      llvm::raw_ostream &os = llvm::WithColor::note(llvm::errs(), opts.tool);
      os << "only --infeed feeds stream '" << name << "' (" << stream.pushed
         << " value(s) given): pass --infeed=" << name
         << "=VALUE once for each value the program reads";
      if (runs > 1)
        os << ", in each of the " << runs << " runs";
      os << "\n";
    }
  }

  /// When a run read or wrote a stream the command line did not open,
  /// notes the flags that open it.
  void noteUnopenedStreams(llvm::ArrayRef<std::string> errors) {
    for (llvm::StringRef name : namesAfter(errors, "no stream named '", '\'')) {
      if (streams.count(name.str()))
        continue;
      llvm::outs().flush();
      llvm::WithColor::note(llvm::errs(), opts.tool)
          << "no flag opens stream '" << name << "': pass --outfeed=" << name
          << " to print what the program writes to it, --infeed=" << name
          << "=VALUE to feed it, or --stream=" << name
          << " to open it without either\n";
    }
  }

  /// Prints every value the --outfeed streams hold, then warns about infeed
  /// values no run consumed.
  llvm::Error drain() {
    for (auto &[name, stream] : streams) {
      if (!stream.printOutfeed)
        continue;
      if (stream.unnamed && nxrt_stream_outfeed_size(stream.handle) > 0) {
        llvm::outs().flush();
        llvm::WithColor::note(llvm::errs(), opts.tool)
            << "printing stream '" << name
            << "', which the program writes and no --outfeed names\n";
      }
      for (size_t k = 0; nxrt_stream_outfeed_size(stream.handle) > 0; ++k) {
        nxrt_value_t *value = nullptr;
        if (auto err = statusToError(
                nxrt_stream_pop_outfeed(stream.handle, 1000, &value)))
          return llvm::createStringError("outfeed " + name + ": " +
                                         llvm::toString(std::move(err)));
        printValue(name, k, value);
        nxrt_value_free(value);
      }
    }
    for (auto &[name, stream] : streams)
      if (size_t left = nxrt_stream_infeed_size(stream.handle))
        llvm::errs() << opts.tool << ": warning: " << left
                     << " infeed value(s) left unconsumed in stream \"" << name
                     << "\"\n";
    return llvm::Error::success();
  }

private:
  struct Stream {
    nxrt_stream_t *handle = nullptr;
    bool printOutfeed = false;
    /// Opened for an outfeed of the program that no flag names.
    bool unnamed = false;
    /// --infeed values pushed.
    size_t pushed = 0;
  };

  llvm::Error openStream(const std::string &name) {
    Stream &stream = streams[name];
    if (stream.handle)
      return llvm::Error::success();
    return statusToError(
        nxrt_stream_open(runtime, name.c_str(), &stream.handle));
  }

  static void printValue(llvm::StringRef name, size_t k,
                         const nxrt_value_t *value) {
    size_t n = nxrt_value_size(value);
    if (n == 0)
      llvm::outs() << "outfeed \"" << name << "\" #" << k << ": ()\n";
    for (size_t j = 0; j < n; ++j) {
      const nxrt_tensor_t *t = nxrt_value_tensor(value, j);
      llvm::outs() << "outfeed \"" << name << "\" #" << k;
      if (n > 1)
        llvm::outs() << "." << j;
      llvm::outs() << ": " << formatType(*t) << " = " << formatValues(*t)
                   << "\n";
    }
  }

  nxrt_runtime_t *runtime;
  const DriverOptions &opts;
  std::map<std::string, Stream> streams;
};

/// What --threads x --repeat runs of the entry point produced.
struct RunSummary {
  unsigned numThreads = 1;
  unsigned numRepeats = 1;
  /// The first run's results; every later run is compared with them.
  std::optional<std::vector<HostTensor>> reference;
  std::string firstError;
  /// The system refused a run thread: nothing ran, --keep-going or not.
  std::string startError;
  unsigned mismatches = 0;
  /// --keep-going: each run's outcome, by thread and repeat.
  std::vector<std::string> outcomes;
  unsigned failedRuns = 0;
  /// --timing: each run's wall time, by thread and repeat.
  std::vector<double> seconds;
  /// --timing: how long the compiled entry itself ran in each run.
  std::vector<double> entrySeconds;
  /// --timing: the page faults the process took during each entry.
  std::vector<int64_t> entryPageFaults;

  unsigned total() const { return numThreads * numRepeats; }
};

} // namespace

//===----------------------------------------------------------------------===//
// Runs
//===----------------------------------------------------------------------===//

/// Runs `worker(0)` .. `worker(threads - 1)` on threads of their own, all
/// started before any runs, so that they run concurrently. When the system
/// refuses a thread, none runs and the refusal is returned.
static std::optional<std::string>
runConcurrently(unsigned threads, llvm::function_ref<void(unsigned)> worker) {
  std::mutex mutex;
  std::condition_variable opened;
  bool open = false, cancelled = false;
  auto gated = [&](unsigned thread) {
    {
      std::unique_lock<std::mutex> lock(mutex);
      opened.wait(lock, [&] { return open; });
      if (cancelled)
        return;
    }
    worker(thread);
  };
  std::vector<std::thread> pool;
  std::optional<std::string> error;
  try {
    for (unsigned t = 0; t < threads; ++t)
      pool.emplace_back(gated, t);
  } catch (const std::system_error &e) {
    error = "cannot start run thread " + std::to_string(pool.size() + 1) +
            " of " + std::to_string(threads) + ": " + e.what();
  }
  {
    std::lock_guard<std::mutex> lock(mutex);
    open = true;
    cancelled = error.has_value();
  }
  opened.notify_all();
  for (std::thread &t : pool)
    t.join();
  return error;
}

/// Runs the entry point --threads x --repeat times.
static RunSummary runAll(const DriverOptions &opts, const RunEntryFn &run,
                         const std::vector<HostTensor> &args) {
  RunSummary summary;
  summary.numThreads = std::max(1u, opts.threads);
  summary.numRepeats = std::max(1u, opts.repeat);
  summary.outcomes.resize(summary.total());
  summary.seconds.resize(summary.total());
  summary.entrySeconds.resize(summary.total());
  summary.entryPageFaults.resize(summary.total());
  RunOptions runOptions;
  runOptions.timeoutMs = opts.timeoutMs;
  runOptions.reuseInputs = opts.reuseInputs;
  std::mutex mutex;
  auto worker = [&](unsigned thread) {
    for (unsigned r = 0; r < summary.numRepeats; ++r) {
      double entrySeconds = 0;
      int64_t entryPageFaults = 0;
      RunOptions mine = runOptions;
      mine.entrySeconds = &entrySeconds;
      mine.entryPageFaults = &entryPageFaults;
      auto start = std::chrono::steady_clock::now();
      auto results = run(args, mine);
      std::chrono::duration<double> elapsed =
          std::chrono::steady_clock::now() - start;
      unsigned index = thread * summary.numRepeats + r;
      std::lock_guard<std::mutex> lock(mutex);
      summary.seconds[index] = elapsed.count();
      summary.entrySeconds[index] = entrySeconds;
      summary.entryPageFaults[index] = entryPageFaults;
      if (opts.keepGoing) {
        std::string &outcome = summary.outcomes[index];
        if (!results) {
          ++summary.failedRuns;
          outcome = "error: " + llvm::toString(results.takeError()) + "\n";
          continue;
        }
        outcome = "ok\n";
        if (!opts.quiet)
          for (auto [i, t] : llvm::enumerate(*results))
            outcome +=
                "  result #" + std::to_string(i) + ": " + t.toString() + "\n";
        continue;
      }
      if (!results) {
        std::string message = llvm::toString(results.takeError());
        if (summary.firstError.empty())
          summary.firstError = message;
        return;
      }
      if (!summary.reference) {
        summary.reference = std::move(*results);
        continue;
      }
      bool same = summary.reference->size() == results->size();
      for (size_t i = 0; same && i < results->size(); ++i)
        same = (*summary.reference)[i] == (*results)[i];
      if (!same)
        ++summary.mismatches;
    }
  };
  if (summary.numThreads == 1)
    worker(0);
  else if (std::optional<std::string> error =
               runConcurrently(summary.numThreads, worker))
    summary.startError = *error;
  return summary;
}

/// A digest of `tensor`'s bytes: a run that changes them changes it (but
/// for a chance of 2^-64).
static uint64_t digestOf(const HostTensor &tensor) {
  return llvm::xxh3_64bits(llvm::ArrayRef<uint8_t>(
      static_cast<const uint8_t *>(tensor.data()), tensor.byteSize()));
}

/// --reuse-inputs: the runs shared the inputs, which they must only have
/// read; `before` holds their digests from before the runs (empty without
/// the flag). Digests, not copies: a copy as large as the inputs would take
/// the heap that the program's __nx_init faulted in for its first run
/// (nxrt_heap_prepare), whose buffers would then fault in their pages.
static llvm::Error checkInputsUnchanged(llvm::ArrayRef<uint64_t> before,
                                        llvm::ArrayRef<HostTensor> inputs) {
  for (auto [i, digest] : llvm::enumerate(before))
    if (digest != digestOf(inputs[i]))
      return llvm::createStringError(
          "--reuse-inputs: a run wrote input #" + llvm::Twine(i) +
          " in place, so later runs read changed values; run this program "
          "without --reuse-inputs");
  return llvm::Error::success();
}

/// "run 3" or "run 3 (thread 2)".
static std::string runName(const RunSummary &summary, size_t index) {
  std::string name = "run " + std::to_string(index + 1);
  if (summary.numThreads > 1)
    name += " (thread " + std::to_string(index / summary.numRepeats + 1) + ")";
  return name;
}

/// --timing: each run's wall time, its compiled entry's share (the rest is
/// the runner's copies of inputs and results) and the page faults the
/// process took during the entry, then each host call's counts and times.
static void reportTimes(const RunSummary &summary,
                        const CallbackTimes *callbackTimes) {
  for (auto [index, seconds] : llvm::enumerate(summary.seconds))
    llvm::errs() << runName(summary, index) << ": "
                 << llvm::format("%.4f", seconds * 1e3) << " ms (entry "
                 << llvm::format("%.4f", summary.entrySeconds[index] * 1e3)
                 << " ms, " << summary.entryPageFaults[index]
                 << " page faults)\n";
  if (callbackTimes)
    callbackTimes->print(llvm::errs());
}

/// Prints what the runs produced; fails when a run failed (unless
/// --keep-going) or results differed.
static llvm::Error reportRuns(const DriverOptions &opts,
                              const RunSummary &summary) {
  if (!summary.startError.empty())
    return llvm::createStringError(summary.startError);
  if (opts.keepGoing) {
    for (auto [index, outcome] : llvm::enumerate(summary.outcomes))
      llvm::outs() << runName(summary, index) << ": " << outcome;
    llvm::outs() << (summary.total() - summary.failedRuns) << " of "
                 << summary.total() << " runs succeeded\n";
    return llvm::Error::success();
  }
  if (!summary.firstError.empty())
    return llvm::createStringError(summary.firstError);
  if (summary.mismatches)
    return llvm::createStringError(
        llvm::Twine(summary.mismatches) + " of " +
        llvm::Twine(summary.total()) +
        " runs produced results different from the first run");
  if (!opts.quiet)
    for (auto [i, r] : llvm::enumerate(*summary.reference))
      llvm::outs() << "result #" << i << ": " << r.toString() << "\n";
  if (summary.total() > 1)
    llvm::outs() << "all " << summary.total() << " runs (" << summary.numThreads
                 << " threads x " << summary.numRepeats
                 << ") produced identical results\n";
  return llvm::Error::success();
}

static llvm::Error writeOutputs(const DriverOptions &opts,
                                const std::vector<HostTensor> &results) {
  if (opts.outputs.size() > results.size())
    return llvm::createStringError(llvm::Twine(opts.outputs.size()) +
                                   " --output paths for " +
                                   llvm::Twine(results.size()) + " result(s)");
  for (auto [i, path] : llvm::enumerate(opts.outputs))
    if (auto err = results[i].writeNpy(path))
      return llvm::createStringError("--output #" + llvm::Twine(i) +
                                     " (result #" + llvm::Twine(i) +
                                     "): " + llvm::toString(std::move(err)));
  return llvm::Error::success();
}

llvm::Error nxhost::checkAgainstEntry(const DriverOptions &opts,
                                      const EntrySignature &entry,
                                      const ParsedInputs &parsed) {
  if (auto err = checkEntryInputs(entry, parsed.args))
    return err;
  if (opts.outputs.size() > entry.results.size())
    return llvm::createStringError(
        llvm::Twine(opts.outputs.size()) + " --output paths for the " +
        llvm::Twine(entry.results.size()) + " result(s) of @" + entry.name);
  return llvm::Error::success();
}

/// When a run called a callback or target nothing bound, notes how to bind
/// it.
static void noteUnboundCallbacks(const DriverOptions &opts,
                                 llvm::ArrayRef<std::string> errors) {
  for (llvm::StringRef name : namesAfter(errors, "unknown callback @", ' ')) {
    llvm::outs().flush();
    llvm::raw_ostream &os = llvm::WithColor::note(llvm::errs(), opts.tool);
    os << "nothing binds callback @" << name
       << ": pass --callbacks=LIB, a shared library whose "
          "nx_register_callbacks registers it";
    if (name.starts_with("nx.debug.") && !opts.debugCallbacks)
      os << ", or drop --debug-callbacks=false to bind the built-in "
            "nx.debug.* ones";
    os << "\n";
  }
  for (llvm::StringRef name :
       namesAfter(errors, "unknown custom-call target @", ' ')) {
    llvm::outs().flush();
    llvm::WithColor::note(llvm::errs(), opts.tool)
        << "nothing binds custom-call target @" << name
        << ": pass --ffi-library=LIB for an XLA FFI handler LIB registers "
           "as it loads, with --ffi-target="
        << name << "=SYMBOL if LIB only exports it, or --callbacks=LIB for "
        << "a library whose nx_register_callbacks binds it\n";
  }
}

/// Checks each --output path before anything runs: a .npy file in an
/// existing, writable directory.
static llvm::Error checkOutputPaths(const DriverOptions &opts) {
  for (auto [i, path] : llvm::enumerate(opts.outputs)) {
    auto fail = [&, i = i, path = path](const llvm::Twine &why) {
      return llvm::createStringError("--output #" + llvm::Twine(i) + ": '" +
                                     path + "' " + why);
    };
    if (!llvm::StringRef(path).ends_with(".npy"))
      return fail("is not a .npy path (results are written as NumPy .npy "
                  "files)");
    llvm::StringRef directory = llvm::sys::path::parent_path(path);
    if (directory.empty())
      directory = ".";
    if (!llvm::sys::fs::is_directory(directory))
      return fail("is in '" + directory + "', which is no directory");
    if (llvm::sys::fs::access(directory, llvm::sys::fs::AccessMode::Write))
      return fail("is in '" + directory + "', which is not writable");
  }
  return llvm::Error::success();
}

std::vector<std::string>
nxhost::getOutfeedStreams(llvm::ArrayRef<const nxrt_program_t *> programs) {
  std::vector<std::string> names;
  for (const nxrt_program_t *program : programs) {
    for (size_t id = 0, e = nxrt_program_num_sites(program); id < e; ++id) {
      const nxrt_site_t *site =
          nxrt_program_site(program, static_cast<uint32_t>(id));
      if (nxrt_site_kind(site) != NXRT_SITE_OUTFEED)
        continue;
      std::string name = nxrt_site_name(site);
      if (!llvm::is_contained(names, name))
        names.push_back(std::move(name));
    }
  }
  return names;
}

int nxhost::runAndReport(const DriverOptions &opts, const RunEntryFn &run,
                         const HostSession &session, const ParsedInputs &parsed,
                         llvm::ArrayRef<std::string> programOutfeeds,
                         llvm::function_ref<void(bool)> runsTimer) {
  StreamSet streamSet(session.runtime->get(), opts);
  if (auto err = streamSet.open(parsed.infeeds, programOutfeeds))
    return reportError(opts.tool, llvm::toString(std::move(err)));
  if (opts.keepGoing && !opts.outputs.empty())
    return reportError(opts.tool,
                       "--output cannot be combined with --keep-going, whose "
                       "runs may produce different results");
  if (auto err = checkOutputPaths(opts))
    return reportError(opts.tool, llvm::toString(std::move(err)));
  if (runsTimer)
    runsTimer(true);
  std::vector<uint64_t> digests;
  if (opts.reuseInputs)
    for (const HostTensor &input : parsed.args)
      digests.push_back(digestOf(input));
  RunSummary summary = runAll(opts, run, parsed.args);
  if (runsTimer)
    runsTimer(false);
  if (auto err = checkInputsUnchanged(digests, parsed.args))
    return reportError(opts.tool, llvm::toString(std::move(err)));
  if (opts.timing)
    reportTimes(summary, session.callbackTimes.get());
  std::vector<std::string> errors = summary.outcomes;
  errors.push_back(summary.firstError);
  if (auto err = reportRuns(opts, summary)) {
    int rc = reportError(opts.tool, llvm::toString(std::move(err)));
    streamSet.noteReadsPastEnd(errors, summary.total());
    streamSet.noteUnopenedStreams(errors);
    noteUnboundCallbacks(opts, errors);
    return rc;
  }
  streamSet.noteReadsPastEnd(errors, summary.total());
  streamSet.noteUnopenedStreams(errors);
  noteUnboundCallbacks(opts, errors);
  if (opts.bridge)
    llvm::outs() << "bridge: served " << session.dispatcher->numServed()
                 << " callback request(s)\n";
  if (auto err = streamSet.drain())
    return reportError(opts.tool, llvm::toString(std::move(err)));
  llvm::outs().flush();
  if (opts.keepGoing)
    return summary.failedRuns ? 1 : 0;
  if (auto err = writeOutputs(opts, *summary.reference))
    return reportError(opts.tool, llvm::toString(std::move(err)));
  return 0;
}

//===- nx-runner.cpp - compile and run nx programs on the CPU -------------===//
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

#include "nx/Runner/Runner.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/Timing.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <thread>

using namespace mlir;
using namespace mlir::nx::runner;
namespace cl = llvm::cl;

static cl::OptionCategory category("nx-runner options");

static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<input.mlir>"),
                                      cl::init("-"), cl::cat(category));
static cl::opt<std::string> entry("entry", cl::desc("Function to run"),
                                  cl::init("main"), cl::cat(category));
static cl::list<std::string>
    inputs("input",
           cl::desc("An argument, in order: VALUE:TYPE (e.g. "
                    "'[1, 2]:tensor<2xf32>', VALUE as in dense<...>) or "
                    "@file.npy"),
           cl::cat(category));
static cl::list<std::string>
    outputs("output", cl::desc("Write result #i to the i-th path (.npy)"),
            cl::cat(category));
static cl::list<std::string> callbackLibs(
    "callbacks",
    cl::desc("Shared library exporting nx_register_callbacks (repeatable)"),
    cl::cat(category));
static cl::opt<bool> debugCallbacks(
    "debug-callbacks", cl::desc("Bind the built-in nx.debug.* callbacks"),
    cl::init(true), cl::cat(category));
enum class Dispatch { Inline, Bridge };
static cl::opt<Dispatch> dispatch(
    "dispatch", cl::desc("How host callbacks are dispatched"),
    cl::values(clEnumValN(Dispatch::Inline, "inline",
                          "the compute thread calls the handler"),
               clEnumValN(Dispatch::Bridge, "bridge",
                          "requests are served by dispatcher threads")),
    cl::init(Dispatch::Inline), cl::cat(category));
static cl::opt<unsigned>
    dispatchThreads("dispatch-threads",
                    cl::desc("Dispatcher threads in bridge mode"),
                    cl::init(2), cl::cat(category));
static cl::opt<int64_t> timeoutMs("timeout-ms",
                                  cl::desc("Deadline of each run (ms)"),
                                  cl::init(0), cl::cat(category));
static cl::opt<int64_t> callbackTimeoutMs(
    "callback-timeout-ms",
    cl::desc("Reply timeout of each bridge callback call (ms)"), cl::init(0),
    cl::cat(category));
// libLLVM already owns a global "-threads" option, so ours is registered as
// "-run-threads" and main() maps "--threads" onto it.
static cl::opt<unsigned>
    threads("run-threads",
            cl::desc("Run concurrently from N threads (alias: --threads)"),
            cl::init(1), cl::cat(category));
static cl::opt<unsigned> repeat("repeat",
                                cl::desc("Runs per thread"), cl::init(1),
                                cl::cat(category));
static cl::opt<bool> keepGoing(
    "keep-going",
    cl::desc("Run every run even after one fails, report each run's outcome "
             "and results (which may differ between runs), and exit 1 if any "
             "failed"),
    cl::init(false), cl::cat(category));
static cl::list<std::string> infeeds(
    "infeed",
    cl::desc("Push one infeed value before running: NAME=T1[;T2...], each "
             "tensor as for --input (repeatable, in order)"),
    cl::cat(category));
static cl::list<std::string>
    outfeeds("outfeed",
             cl::desc("Open stream NAME and print its outfeed values after "
                      "the runs (repeatable)"),
             cl::cat(category));
static cl::list<std::string>
    streamNames("stream", cl::desc("Open stream NAME (repeatable)"),
            cl::cat(category));
static cl::opt<bool> lowerBlocks(
    "lower-blocks",
    cl::desc("Replace nx.block ops by registered custom calls (LAPACK)"),
    cl::init(true), cl::cat(category));
static cl::opt<bool> blas(
    "blas",
    cl::desc("Run f32/f64 matmul, batch_matmul and matvec on the optimized "
             "BLAS (nx-lower-to-cpu's blas); =false compiles them as loops"),
    cl::init(true), cl::cat(category));
static cl::opt<bool> parallel(
    "parallel",
    cl::desc("Run large parallel loop nests on every core through OpenMP "
             "(nx-lower-to-cpu's parallel); =false runs them serially"),
    cl::init(true), cl::cat(category));
static cl::opt<bool> vectorize(
    "vectorize",
    cl::desc("Tile and vectorize elementwise loop nests in MLIR at the "
             "host's vector width (nx-lower-to-cpu's vectorize); =false "
             "leaves them to LLVM's loop vectorizer"),
    cl::init(true), cl::cat(category));
static cl::opt<bool> strictReductions(
    "strict-reductions",
    cl::desc("Keep floating-point reductions in their serial order "
             "(nx-lower-to-cpu's strict-reductions); by default they may "
             "reassociate and vectorize"),
    cl::init(false), cl::cat(category));
static cl::opt<bool> libmMath(
    "libm-math",
    cl::desc("Call libm for f32 math functions (nx-lower-to-cpu's "
             "libm-math); by default they are polynomial approximations"),
    cl::init(false), cl::cat(category));
static cl::opt<int> computeThreads(
    "compute-threads",
    cl::desc("Threads compiled compute may use: its parallel loop nests and "
             "its contractions on the optimized BLAS "
             "(nxrt_set_compute_threads; 0: one per core)"),
    cl::init(0), cl::cat(category));
static cl::opt<int64_t> maxFunctionOps(
    "max-function-ops",
    cl::desc("Compile functions with more ops as pieces of at most this many "
             "(nx-lower-to-cpu's max-function-ops; 0: whole)"),
    cl::init(CompileOptions().maxFunctionOps), cl::cat(category));
static cl::opt<bool> timing(
    "timing",
    cl::desc("Print to stderr how long each phase took (parse, nx-lower-to-cpu "
             "and its passes, translation, JIT code generation, load, runs) "
             "and each run"),
    cl::init(false), cl::cat(category));
static cl::opt<bool> separateStages(
    "separate-stages",
    cl::desc("Compile and JIT every nx.device function (a segmented "
             "program's stages) as its own unit, like a device executable"),
    cl::init(false), cl::cat(category));
static cl::opt<bool> printLowered(
    "print-lowered", cl::desc("Print the lowered LLVM-dialect module and exit"),
    cl::init(false), cl::cat(category));
static cl::opt<bool> quiet("quiet", cl::desc("Do not print results"),
                           cl::init(false), cl::cat(category));

static int fail(const llvm::Twine &message) {
  llvm::errs().flush();
  llvm::WithColor::error(llvm::errs(), "nx-runner") << message << "\n";
  return 1;
}

static llvm::Expected<HostTensor> parseTensor(llvm::StringRef text,
                                              MLIRContext &context) {
  text = text.trim();
  if (text.consume_front("@"))
    return HostTensor::readNpy(text);
  return HostTensor::parseLiteral(text, context);
}

/// Splits "a;b" at top-level ';' (a literal has none of its own).
static llvm::SmallVector<llvm::StringRef> splitValues(llvm::StringRef text) {
  llvm::SmallVector<llvm::StringRef> parts;
  text.split(parts, ';', -1, /*KeepEmpty=*/false);
  return parts;
}

namespace {

/// Inputs and infeed values, parsed before compiling so that bad flags fail
/// fast.
struct ParsedInputs {
  std::vector<HostTensor> args;
  std::vector<std::pair<std::string, std::vector<HostTensor>>> infeeds;
};

/// The streams nx-runner opened (--stream, --outfeed, --infeed); closes them
/// when destroyed.
class StreamSet {
public:
  explicit StreamSet(nxrt_runtime_t *runtime) : runtime(runtime) {}
  StreamSet(const StreamSet &) = delete;
  StreamSet &operator=(const StreamSet &) = delete;
  ~StreamSet() {
    for (auto &entry : streams)
      nxrt_stream_destroy(entry.second.handle);
  }

  /// Opens the streams the flags name and pushes the infeed values.
  llvm::Error open(const std::vector<std::pair<std::string,
                                               std::vector<HostTensor>>> &feeds) {
    for (const std::string &name : streamNames)
      if (auto err = openStream(name))
        return llvm::createStringError("--stream " + name + ": " +
                                       llvm::toString(std::move(err)));
    for (const std::string &name : outfeeds) {
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
    }
    return llvm::Error::success();
  }

  /// Prints every value the --outfeed streams hold, then warns about infeed
  /// values no run consumed.
  llvm::Error drain() {
    for (auto &[name, stream] : streams) {
      if (!stream.printOutfeed)
        continue;
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
        llvm::errs() << "nx-runner: warning: " << left
                     << " infeed value(s) left unconsumed in stream \"" << name
                     << "\"\n";
    return llvm::Error::success();
  }

private:
  struct Stream {
    nxrt_stream_t *handle = nullptr;
    bool printOutfeed = false;
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
  std::map<std::string, Stream> streams;
};

/// What --threads x --repeat runs of the entry point produced.
struct RunSummary {
  unsigned numThreads = 1;
  unsigned numRepeats = 1;
  /// The first run's results; every later run is compared with them.
  std::optional<std::vector<HostTensor>> reference;
  std::string firstError;
  unsigned mismatches = 0;
  /// --keep-going: each run's outcome, by thread and repeat.
  std::vector<std::string> outcomes;
  unsigned failedRuns = 0;
  /// --timing: each run's wall time, by thread and repeat.
  std::vector<double> seconds;

  unsigned total() const { return numThreads * numRepeats; }
};

} // namespace

static llvm::Expected<ParsedInputs> parseInputs(MLIRContext &context) {
  ParsedInputs parsed;
  for (auto [i, text] : llvm::enumerate(inputs)) {
    auto t = parseTensor(text, context);
    if (!t)
      return llvm::createStringError("--input #" + llvm::Twine(i) + ": " +
                                     llvm::toString(t.takeError()));
    parsed.args.push_back(std::move(*t));
  }
  for (const std::string &spec : infeeds) {
    auto [name, values] = llvm::StringRef(spec).split('=');
    if (name.empty() || values.empty())
      return llvm::createStringError(
          "--infeed expects NAME=VALUE[;VALUE...], got '" + spec + "'");
    std::vector<HostTensor> tensors;
    for (llvm::StringRef v : splitValues(values)) {
      auto t = parseTensor(v, context);
      if (!t)
        return llvm::createStringError("--infeed " + name + ": " +
                                       llvm::toString(t.takeError()));
      tensors.push_back(std::move(*t));
    }
    parsed.infeeds.emplace_back(name.str(), std::move(tensors));
  }
  return parsed;
}

/// Runs the entry point --threads x --repeat times.
static RunSummary runAll(Executable &exe, const std::vector<HostTensor> &args) {
  RunSummary summary;
  summary.numThreads = std::max(1u, threads.getValue());
  summary.numRepeats = std::max(1u, repeat.getValue());
  summary.outcomes.resize(summary.total());
  summary.seconds.resize(summary.total());
  RunOptions runOptions;
  runOptions.timeoutMs = timeoutMs;
  std::mutex mutex;
  auto worker = [&](unsigned thread) {
    for (unsigned r = 0; r < summary.numRepeats; ++r) {
      auto start = std::chrono::steady_clock::now();
      auto results = exe.run(entry, args, runOptions);
      std::chrono::duration<double> elapsed =
          std::chrono::steady_clock::now() - start;
      unsigned index = thread * summary.numRepeats + r;
      std::lock_guard<std::mutex> lock(mutex);
      summary.seconds[index] = elapsed.count();
      if (keepGoing) {
        std::string &outcome = summary.outcomes[index];
        if (!results) {
          ++summary.failedRuns;
          outcome = "error: " + llvm::toString(results.takeError()) + "\n";
          continue;
        }
        outcome = "ok\n";
        if (!quiet)
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
  if (summary.numThreads == 1) {
    worker(0);
  } else {
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < summary.numThreads; ++t)
      pool.emplace_back(worker, t);
    for (std::thread &t : pool)
      t.join();
  }
  return summary;
}

/// "run 3" or "run 3 (thread 2)".
static std::string runName(const RunSummary &summary, size_t index) {
  std::string name = "run " + std::to_string(index + 1);
  if (summary.numThreads > 1)
    name += " (thread " + std::to_string(index / summary.numRepeats + 1) + ")";
  return name;
}

/// Prints what the runs produced; fails when a run failed (unless
/// --keep-going) or results differed.
static llvm::Error reportRuns(const RunSummary &summary) {
  if (timing)
    for (auto [index, seconds] : llvm::enumerate(summary.seconds))
      llvm::errs() << runName(summary, index) << ": "
                   << llvm::format("%.4f", seconds * 1e3) << " ms\n";
  if (keepGoing) {
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
  if (!quiet)
    for (auto [i, r] : llvm::enumerate(*summary.reference))
      llvm::outs() << "result #" << i << ": " << r.toString() << "\n";
  if (summary.total() > 1)
    llvm::outs() << "all " << summary.total() << " runs ("
                 << summary.numThreads << " threads x " << summary.numRepeats
                 << ") produced identical results\n";
  return llvm::Error::success();
}

static llvm::Error writeOutputs(const std::vector<HostTensor> &results) {
  if (outputs.size() > results.size())
    return llvm::createStringError(llvm::Twine(outputs.size()) +
                                   " --output paths for " +
                                   llvm::Twine(results.size()) + " result(s)");
  for (auto [i, path] : llvm::enumerate(outputs))
    if (auto err = results[i].writeNpy(path))
      return err;
  return llvm::Error::success();
}

/// Opens the streams, runs the entry point and reports; the exit code.
static int runAndReport(Executable &exe, nxrt_runtime_t *runtime,
                        const ParsedInputs &parsed,
                        const BridgeDispatcher *dispatcher,
                        TimingScope &rootTiming) {
  StreamSet streamSet(runtime);
  if (auto err = streamSet.open(parsed.infeeds))
    return fail(llvm::toString(std::move(err)));
  if (keepGoing && !outputs.empty())
    return fail("--output cannot be combined with --keep-going, whose runs "
                "may produce different results");
  TimingScope runsTiming = rootTiming.nest("runs");
  RunSummary summary = runAll(exe, parsed.args);
  runsTiming.stop();
  if (auto err = reportRuns(summary))
    return fail(llvm::toString(std::move(err)));
  if (dispatcher)
    llvm::outs() << "bridge: served " << dispatcher->numServed()
                 << " callback request(s)\n";
  if (auto err = streamSet.drain())
    return fail(llvm::toString(std::move(err)));
  llvm::outs().flush();
  if (keepGoing)
    return summary.failedRuns ? 1 : 0;
  if (auto err = writeOutputs(*summary.reference))
    return fail(llvm::toString(std::move(err)));
  return 0;
}

static int runMain() {
  // One runtime serves the program, the callback libraries and, in bridge
  // mode, the dispatcher threads.
  auto runtime = Runtime::create();
  std::unique_ptr<BridgeDispatcher> dispatcher;
  if (dispatch == Dispatch::Bridge) {
    auto d = BridgeDispatcher::create(runtime->get(), dispatchThreads,
                                      callbackTimeoutMs);
    if (!d)
      return fail(llvm::toString(d.takeError()));
    dispatcher = std::move(*d);
  }
  for (const std::string &lib : callbackLibs)
    if (auto err = runtime->loadCallbackLibrary(lib))
      return fail(llvm::toString(std::move(err)));

  DialectRegistry registry;
  registerRunnerDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  auto parsed = parseInputs(context);
  if (!parsed)
    return fail(llvm::toString(parsed.takeError()));

  DefaultTimingManager timingManager;
  timingManager.setEnabled(timing);
  TimingScope rootTiming = timingManager.getRootScope();
  CompileOptions compileOptions;
  if (timing)
    compileOptions.timing = &rootTiming;
  compileOptions.programName = inputFile;
  compileOptions.lowerBlocks = lowerBlocks;
  compileOptions.separateStages = separateStages;
  compileOptions.maxFunctionOps = maxFunctionOps;
  compileOptions.blas = blas;
  compileOptions.parallel = parallel;
  compileOptions.vectorize = vectorize;
  compileOptions.strictReductions = strictReductions;
  compileOptions.libmMath = libmMath;
  if (computeThreads < 0)
    return fail("--compute-threads must be at least 0, got " +
                std::to_string(computeThreads));
  nxrt_set_compute_threads(computeThreads);
  std::string lowered;
  if (printLowered)
    compileOptions.loweredIR = &lowered;
  auto exe = Executable::compileFile(inputFile, runtime->get(), compileOptions);
  if (!exe)
    return fail(llvm::toString(exe.takeError()));
  if (printLowered) {
    llvm::outs() << lowered;
    return 0;
  }
  // Built-ins after compiling, to bind the aliases the module declares (an
  // unbound name only fails once a run calls it).
  if (debugCallbacks)
    if (auto err =
            registerDebugCallbacks(runtime->get(), (*exe)->callbackNames()))
      return fail(llvm::toString(std::move(err)));

  int rc = runAndReport(**exe, runtime->get(), *parsed, dispatcher.get(),
                        rootTiming);
  // Requests that outlived their calls (timed out, still being served by
  // a dispatcher or a library's own threads) point into the program: stop
  // serving before the program goes.
  dispatcher.reset();
  runtime->shutdown();
  exe->reset();
  return rc;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(category);
  // "--threads=N" / "--threads N" mean "--run-threads" (see above).
  std::vector<std::string> storage;
  storage.reserve(argc);
  std::vector<const char *> args;
  for (int i = 0; i < argc; ++i) {
    llvm::StringRef arg = argv[i];
    llvm::StringRef rest = arg;
    if (i > 0 && (rest.consume_front("--threads") ||
                  rest.consume_front("-threads")) &&
        (rest.empty() || rest.starts_with("="))) {
      storage.push_back(("--run-threads" + rest).str());
      args.push_back(storage.back().c_str());
      continue;
    }
    args.push_back(argv[i]);
  }
  cl::ParseCommandLineOptions(
      static_cast<int>(args.size()), args.data(),
      "nx-runner: compile an nx program with nx-lower-to-cpu and run it\n");
  return runMain();
}

//===- ModelBench.cpp - whole models compiled by nx-lower-to-cpu ----------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The models of bench/models/, each a .mlir file written as a front end
// writes it (linalg named ops and generics on tensors), compiled by
// nx-lower-to-cpu and JIT-compiled as Executable does, and called on
// preallocated inputs:
//
//  BM_Model/<model>/threads:<t>    one call of the model with
//                                  nxrt_set_compute_threads(t) (0: one per
//                                  core); the result buffer is freed inside
//                                  the timed loop.
//  BM_Compile/<model>              parse, nx-lower-to-cpu, translation and
//                                  JIT code generation of the file.
//  BM_Op/<op>/threads:<t>          one call of a single-op program of
//                                  bench/models (kOps: convolutions,
//                                  pooling, batched matmuls, a transpose,
//                                  reductions over each kind of axis).
//  BM_ModelVariant/..., BM_OpVariant/...
//                                  with NX_BENCH_VARIANT set to
//                                  nx-lower-to-cpu options
//                                  ("reduction-vector-bits=512"): the same,
//                                  compiled with those options. With
//                                  --benchmark_enable_random_interleaving,
//                                  the two builds' repetitions alternate in
//                                  one process: a comparison free of the
//                                  memory layout that changes between
//                                  processes.
//
// <model> is mlp, cnn or transformer, and each again with "-callbacks": the
// same model with an nx.io_callback per layer that logs its activations and
// an nx.elixir_call in the middle (a host clip whose limit no value
// reaches), bound inline here. Before timing, each -callbacks model's
// result is compared with its plain model's (they must agree exactly) and
// the callbacks' call counts are checked.
//
// The peer, PyTorch eager, is timed by bench/models/models.py; the script
// bench/models/compare.py runs both in one go and prints the ratios:
//
//   ninja -C <build> nx-bench-models
//   python3 bench/models/compare.py --nx-bench <build>/bin/nx-bench-models
//
//===----------------------------------------------------------------------===//

#include "AlignedVector.h"
#include "BenchJit.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"

#include "llvm/Support/MemoryBuffer.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#ifndef NX_BENCH_MODELS_DIR
#error "NX_BENCH_MODELS_DIR must name bench/models"
#endif

using nx_bench::check;
using nx_bench::die;
using nx_bench::JitModule;
using nx_bench::ScopedComputeThreads;
using nx_bench::ScopedRun;

namespace {

const char *const kModels[] = {"mlp", "cnn", "transformer"};

/// Single ops of the classes models are made of (bench/models/<op>.mlir),
/// each timed as a model without callbacks.
const char *const kOps[] = {"conv",
                            "conv-strided",
                            "conv-dilated",
                            "conv-nchw",
                            "conv-fhwc",
                            "conv-grouped",
                            "depthwise-conv",
                            "depthwise-conv-strided",
                            "max-pool",
                            "avg-pool",
                            "batch-matmul",
                            "batch-matmul-transposed",
                            "batch-matmul-transposed-a",
                            "masked-attention",
                            "transpose",
                            "column-sum",
                            "batch-sum",
                            "row-sum",
                            "middle-max",
                            "matmul-i8",
                            "matmul-bf16",
                            "matmul-f16",
                            "conv1d",
                            "conv3d",
                            "conv3d-ncdhw",
                            "concat",
                            "pad",
                            "reverse",
                            "full-sum",
                            "matvec",
                            "softmax",
                            "argmax",
                            "dot"};

std::string readModel(const std::string &file) {
  std::string path = std::string(NX_BENCH_MODELS_DIR) + "/" + file + ".mlir";
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    die("cannot read " + path);
  return (*buffer)->getBuffer().str();
}

/// The function a model file defines: its name with '-' as '_'.
std::string entryOf(const std::string &file) {
  std::string name = file;
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

//===----------------------------------------------------------------------===//
// Host callbacks of the -callbacks models
//===----------------------------------------------------------------------===//

std::atomic<int64_t> logCalls{0}, clipCalls{0};

/// io_callback: reads the activations in place, as a logger that keeps a
/// running maximum would.
nxrt_status_t *logActivations(void *, const nxrt_call_t *call) {
  const nxrt_tensor_t &t = call->args[0];
  size_t n = nxrt_tensor_byte_size(&t) / sizeof(float);
  const float *data = static_cast<const float *>(t.data);
  float largest = 0.0f;
  for (size_t i = 0; i < n; ++i)
    largest = std::max(largest, std::abs(data[i]));
  benchmark::DoNotOptimize(largest);
  ++logCalls;
  return nullptr;
}

/// elixir_call: result = clamp(arg, -limit, limit), limit a static arg.
nxrt_status_t *clip(void *, const nxrt_call_t *call) {
  const nxrt_attr_t *limitAttr = nxrt_attrs_find(call->attrs, "limit");
  float limit = 0.0f;
  if (!limitAttr)
    return nxrt_status_create(NXRT_INVALID_ARGUMENT, "clip: no 'limit'");
  if (nxrt_status_t *status = nxrt_attr_f32(limitAttr, &limit))
    return status;
  const nxrt_tensor_t &in = call->args[0];
  size_t n = nxrt_tensor_byte_size(&in) / sizeof(float);
  const float *x = static_cast<const float *>(in.data);
  float *y = static_cast<float *>(call->results[0].data);
  for (size_t i = 0; i < n; ++i)
    y[i] = std::min(std::max(x[i], -limit), limit);
  ++clipCalls;
  return nullptr;
}

nxrt_runtime_t *runtime() {
  static nxrt_runtime_t *instance = [] {
    nxrt_runtime_t *r = nxrt_runtime_create();
    for (const char *name : {"log_hidden", "log_logits", "log_block1",
                             "log_block2", "log_residual"}) {
      nxrt_callback_desc_t desc{NXRT_DISPATCH_INLINE, &logActivations, nullptr,
                                0};
      check(nxrt_register_callback(r, name, &desc));
    }
    nxrt_callback_desc_t desc{NXRT_DISPATCH_INLINE, &clip, nullptr, 0};
    check(nxrt_register_callback(r, "clip", &desc));
    return r;
  }();
  return instance;
}

//===----------------------------------------------------------------------===//
// Calling a compiled model
//===----------------------------------------------------------------------===//

/// A memref descriptor of any rank, laid out as the C interface takes it:
/// allocated and aligned pointers, offset, sizes, strides.
struct Descriptor {
  std::vector<int64_t> words;

  static Descriptor dense(float *data, const std::vector<int64_t> &shape) {
    Descriptor d;
    size_t rank = shape.size();
    d.words.assign(3 + 2 * rank, 0);
    d.words[0] = reinterpret_cast<int64_t>(data);
    d.words[1] = reinterpret_cast<int64_t>(data);
    int64_t stride = 1;
    for (size_t k = rank; k-- > 0;) {
      d.words[3 + k] = shape[k];
      d.words[3 + rank + k] = stride;
      stride *= shape[k];
    }
    return d;
  }
  void *allocated() const { return reinterpret_cast<void *>(words[0]); }
  float *data() const { return reinterpret_cast<float *>(words[1]); }
};

/// A compiled model with random inputs of its signature's shapes.
class Model {
public:
  Model(const std::string &file, const std::string &options)
      : entry(entryOf(file)) {
    std::string source = readModel(file);
    readSignature(source);
    compiled = std::make_unique<JitModule>(source, runtime(), options);
    fn = compiled->lookupPacked(entry);
    std::mt19937 generator(1234);
    std::uniform_real_distribution<float> distribution(-0.5f, 0.5f);
    for (const std::vector<int64_t> &shape : argShapes) {
      int64_t size = 1;
      for (int64_t d : shape)
        size *= d;
      inputs.emplace_back(size);
      for (float &v : inputs.back())
        v = distribution(generator);
      args.push_back(Descriptor::dense(inputs.back().data(), shape));
    }
  }

  /// Calls the model in an nxrt run; the caller frees the result.
  Descriptor call() {
    Descriptor result;
    result.words.assign(3 + 2 * resultRank, 0);
    std::vector<void *> pointers{result.words.data()};
    for (Descriptor &arg : args)
      pointers.push_back(arg.words.data());
    std::vector<void *> packed;
    for (void *&p : pointers)
      packed.push_back(&p);
    ScopedRun run(runtime());
    fn(packed.data());
    return result;
  }

  int64_t resultSize() const {
    int64_t size = 1;
    for (int64_t d : resultShape)
      size *= d;
    return size;
  }

private:
  void readSignature(const std::string &source) {
    auto context = nx_bench::makeContext();
    auto module = nx_bench::parse(source, context.get());
    if (!module)
      die("cannot parse " + entry);
    auto func = module->lookupSymbol<mlir::func::FuncOp>(entry);
    if (!func || func.getNumResults() != 1)
      die("no function @" + entry + " with one result");
    // The inputs are filled with floats; a result of 32-bit integers (an
    // argmax's positions) is timed, and compared, as well as one of f32.
    auto shapeOf = [&](mlir::Type type, bool isResult) {
      auto tensor = mlir::dyn_cast<mlir::RankedTensorType>(type);
      mlir::Type element = tensor ? tensor.getElementType() : mlir::Type();
      if (!tensor || !tensor.hasStaticShape() ||
          !(element.isF32() || (isResult && element.isInteger(32))))
        die("@" + entry +
            " takes static f32 tensors and returns one of f32 or i32 only");
      return std::vector<int64_t>(tensor.getShape().begin(),
                                  tensor.getShape().end());
    };
    for (mlir::Type type : func.getArgumentTypes())
      argShapes.push_back(shapeOf(type, /*isResult=*/false));
    resultShape = shapeOf(func.getResultTypes()[0], /*isResult=*/true);
    resultRank = resultShape.size();
  }

  std::string entry;
  std::unique_ptr<JitModule> compiled;
  JitModule::PackedFn fn = nullptr;
  std::vector<std::vector<int64_t>> argShapes;
  std::vector<int64_t> resultShape;
  size_t resultRank = 0;
  std::vector<nx_bench::AlignedVector<float>> inputs;
  std::vector<Descriptor> args;
};

/// One compiled model per file and nx-lower-to-cpu options for the whole
/// process (Google Benchmark calls a benchmark function several times).
/// Never destroyed: at exit, LLVM's own statics may already be gone when a
/// JIT would be torn down.
Model &model(const std::string &file, const std::string &options) {
  static auto *models =
      new std::map<std::pair<std::string, std::string>, std::unique_ptr<Model>>;
  std::unique_ptr<Model> &m = (*models)[{file, options}];
  if (!m)
    m = std::make_unique<Model>(file, options);
  return *m;
}

/// A -callbacks model must compute exactly what its plain model does, and
/// call its callbacks: once per logged layer and once for the clip.
bool checkCallbacksVariant(benchmark::State &state, const std::string &base,
                           const std::string &options) {
  Model &plain = model(base, options);
  Model &withCallbacks = model(base + "-callbacks", options);
  Descriptor expected = plain.call();
  int64_t logsBefore = logCalls, clipsBefore = clipCalls;
  Descriptor actual = withCallbacks.call();
  bool same = std::memcmp(expected.data(), actual.data(),
                          plain.resultSize() * sizeof(float)) == 0;
  bool called = logCalls > logsBefore && clipCalls == clipsBefore + 1;
  std::free(expected.allocated());
  std::free(actual.allocated());
  if (!same)
    state.SkipWithError("the -callbacks model's result differs");
  else if (!called)
    state.SkipWithError("the -callbacks model did not call its callbacks");
  return same && called;
}

void runModel(benchmark::State &state, const std::string &file,
              const std::string &options) {
  static const std::string suffix = "-callbacks";
  if (file.size() > suffix.size() &&
      file.compare(file.size() - suffix.size(), suffix.size(), suffix) == 0 &&
      !checkCallbacksVariant(state, file.substr(0, file.size() - suffix.size()),
                             options))
    return;
  Model &m = model(file, options);
  ScopedComputeThreads threads(static_cast<int>(state.range(0)));
  for (auto _ : state)
    std::free(m.call().allocated());
}

void compileModel(benchmark::State &state, const std::string &file) {
  std::string source = readModel(file);
  for (auto _ : state)
    JitModule compiled(source, runtime());
}

/// Registers every model and its -callbacks variant, and every op, under
/// `prefix` (BM_Model, BM_Op) + `suffix`, compiled with `options`.
void registerAll(const std::string &suffix, const std::string &options) {
  for (const char *name : kModels)
    for (const std::string &file :
         {std::string(name), std::string(name) + "-callbacks"}) {
      benchmark::RegisterBenchmark(("BM_Model" + suffix + "/" + file).c_str(),
                                   runModel, file, options)
          ->ArgName("threads")
          ->Arg(1)
          ->Arg(0)
          ->UseRealTime()
          ->Unit(benchmark::kMillisecond);
      if (options.empty())
        benchmark::RegisterBenchmark(("BM_Compile/" + file).c_str(),
                                     compileModel, file)
            ->Unit(benchmark::kMillisecond)
            ->Iterations(3);
    }
  for (const char *name : kOps)
    benchmark::RegisterBenchmark(("BM_Op" + suffix + "/" + name).c_str(),
                                 runModel, std::string(name), options)
        ->ArgName("threads")
        ->Arg(1)
        ->Arg(0)
        ->UseRealTime()
        ->Unit(benchmark::kMicrosecond);
}

int registerModels() {
  registerAll("", "");
  if (const char *variant = std::getenv("NX_BENCH_VARIANT");
      variant && *variant)
    registerAll("Variant", variant);
  return 0;
}

[[maybe_unused]] int registered = registerModels();

} // namespace

BENCHMARK_MAIN();

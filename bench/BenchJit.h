//===- BenchJit.h - nx-lower-to-cpu + JIT for the compiled-code benchmarks
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//-===//
//
// What Executable::compile does, with raw access to the compiled functions'
// C interfaces, so a benchmark calls them on preallocated buffers (Executable
// copies its inputs, which would time a memcpy).
//
//===----------------------------------------------------------------------===//

#ifndef NX_BENCH_BENCHJIT_H
#define NX_BENCH_BENCHJIT_H

#include "nx/Pipelines/Pipelines.h"
#include "nx/Runner/JitMemory.h"
#include "nxrt/nxrt.h"

#include "mlir/ExecutionEngine/CRunnerUtils.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"

#include <array>
#include <cstdint>
#include <memory>
#include <string>

namespace nx_bench {

/// The descriptor of a dense row-major f32 buffer of `shape`, as compiled
/// code's C interface takes it.
template <int Rank>
StridedMemRefType<float, Rank>
describe(float *data, const std::array<int64_t, Rank> &shape) {
  StridedMemRefType<float, Rank> d{};
  d.basePtr = data;
  d.data = data;
  d.offset = 0;
  int64_t stride = 1;
  for (int k = Rank - 1; k >= 0; --k) {
    d.sizes[k] = shape[k];
    d.strides[k] = stride;
    stride *= shape[k];
  }
  return d;
}

/// Prints `message` and exits: a benchmark that cannot set up measures
/// nothing.
[[noreturn]] void die(const std::string &message);

/// Dies with the status's message when `status` is an error.
void check(nxrt_status_t *status);

/// A context with the runner's dialects loaded, single-threaded as
/// Executable's.
std::unique_ptr<mlir::MLIRContext> makeContext();

mlir::OwningOpRef<mlir::ModuleOp> parse(const std::string &source,
                                        mlir::MLIRContext *context);

/// nx-lower-to-cpu with its defaults, or with functions kept whole
/// (max-function-ops=0, the baseline of nx-split-functions).
mlir::LogicalResult lower(mlir::ModuleOp module, bool split = true,
                          llvm::StringRef options = "");

/// The lowered module JIT-compiled as Executable does it (its target
/// machine, translation and LLVM optimization at -O2). `memory` must outlive
/// the engine.
std::unique_ptr<mlir::ExecutionEngine> jit(mlir::ModuleOp lowered,
                                           mlir::nx::runner::JitMemory &memory);

/// A module lowered with nx-lower-to-cpu and JIT-compiled, its call sites
/// loaded into an nxrt program of `runtime` (what Executable::compile does).
class JitModule {
public:
  /// `options`: nx-lower-to-cpu's, as its textual form takes them
  /// ("reduction-vector-bits=512"); empty for the defaults.
  JitModule(const std::string &source, nxrt_runtime_t *runtime,
            llvm::StringRef options = "");
  ~JitModule();
  JitModule(const JitModule &) = delete;
  JitModule &operator=(const JitModule &) = delete;

  /// The packed form of `_mlir_ciface_<name>`: one pointer per parameter
  /// (the result descriptor's address first, then each argument's).
  using PackedFn = void (*)(void **);
  PackedFn lookupPacked(const std::string &name);

  /// Address of `_mlir_ciface_<name>` as a function pointer of type F.
  template <typename F> F lookup(const std::string &name) {
    return reinterpret_cast<F>(lookupAddress("_mlir_ciface_" + name));
  }

private:
  void *lookupAddress(const std::string &symbol);

  std::unique_ptr<mlir::MLIRContext> context;
  mlir::nx::runner::JitMemory memory; // outlives engine
  std::unique_ptr<mlir::ExecutionEngine> engine;
  nxrt_program_t *program = nullptr;
};

/// Begins an nxrt run on this thread for the lifetime of the object and
/// fails the benchmark process if the run recorded an error.
class ScopedRun {
public:
  explicit ScopedRun(nxrt_runtime_t *runtime)
      : run(nxrt_run_begin(runtime, nullptr)) {}
  ~ScopedRun() { check(nxrt_run_end(run)); }
  ScopedRun(const ScopedRun &) = delete;
  ScopedRun &operator=(const ScopedRun &) = delete;

private:
  nxrt_run_t *run;
};

/// Runs compiled compute (parallel loop nests, contractions) on `threads`
/// threads (nxrt_set_compute_threads; 0: one per core) while in scope.
class ScopedComputeThreads {
public:
  explicit ScopedComputeThreads(int threads)
      : previous(nxrt_compute_threads()) {
    nxrt_set_compute_threads(threads);
  }
  ~ScopedComputeThreads() { nxrt_set_compute_threads(previous); }
  ScopedComputeThreads(const ScopedComputeThreads &) = delete;
  ScopedComputeThreads &operator=(const ScopedComputeThreads &) = delete;

private:
  int previous;
};

} // namespace nx_bench

#endif // NX_BENCH_BENCHJIT_H

//===- SegmentCallbacksBench.cpp - nx-segment-callbacks vs canonicalize
//----===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Times nx-segment-callbacks on a generated function of N ops with N/100 host
// callbacks, against upstream `canonicalize` on the same module, in the same
// binary. The pass is meant to be linear in the number of ops: the time per
// op should stay flat as N grows (compare the `ops` sizes) and stay in the
// same order as a canonicalize sweep.
//
//   ninja -C <build> nx-bench-segment && <build>/bin/nx-bench-segment
//
//===----------------------------------------------------------------------===//

#include "nx/Dialect/Nx/IR/NxDialect.h"
#include "nx/Dialect/Nx/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

#include "llvm/Support/raw_ostream.h"

#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>

namespace {

/// One function of `numOps` ops on tensor<16xf32>, every 100th an
/// nx.elixir_call (alternately pure and effectful). Each op reads the previous
/// result (so everything is live) and one earlier value picked by a fixed
/// LCG, so values live across many boundaries and some callbacks only depend
/// on old values (they share early boundaries).
std::string generateModule(int64_t numOps, int64_t numCallbacks) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "nx.callback @cb : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>\n"
     << "func.func @big(%arg0: tensor<16xf32>) -> tensor<16xf32> {\n"
     << "  %v0 = arith.addf %arg0, %arg0 : tensor<16xf32>\n";
  int64_t every = numCallbacks > 0 ? numOps / numCallbacks : numOps + 1;
  uint64_t seed = 12345;
  int64_t callbacks = 0;
  for (int64_t i = 1; i < numOps; ++i) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    int64_t other =
        static_cast<int64_t>((seed >> 33) % static_cast<uint64_t>(i));
    os << "  %v" << i << " = ";
    if (i % every == 0 && callbacks < numCallbacks) {
      ++callbacks;
      os << "nx.elixir_call " << (callbacks % 2 ? "pure " : "") << "@cb(%v"
         << i - 1 << ", %v" << other
         << ") : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>\n";
      continue;
    }
    static const char *kOps[] = {"arith.addf", "arith.mulf", "arith.subf",
                                 "arith.maximumf"};
    os << kOps[i % 4] << " %v" << i - 1 << ", %v" << other
       << " : tensor<16xf32>\n";
  }
  os << "  return %v" << numOps - 1 << " : tensor<16xf32>\n}\n";
  return text;
}

class Fixture {
public:
  Fixture(int64_t numOps, int64_t numCallbacks) {
    context.loadDialect<mlir::nx::NxDialect, mlir::arith::ArithDialect,
                        mlir::func::FuncDialect>();
    module = mlir::parseSourceString<mlir::ModuleOp>(
        generateModule(numOps, numCallbacks), &context);
  }
  mlir::MLIRContext context{mlir::MLIRContext::Threading::DISABLED};
  mlir::OwningOpRef<mlir::ModuleOp> module;
};

/// Runs `pm` on a fresh clone of the module per iteration; cloning and
/// destruction are not timed.
void runPipeline(benchmark::State &state, void (*build)(mlir::PassManager &)) {
  Fixture fixture(state.range(0), state.range(1));
  if (!fixture.module) {
    state.SkipWithError("failed to parse the generated module");
    return;
  }
  mlir::PassManager pm(&fixture.context);
  pm.enableVerifier(false);
  build(pm);
  for (auto _ : state) {
    state.PauseTiming();
    mlir::OwningOpRef<mlir::ModuleOp> copy = fixture.module->clone();
    state.ResumeTiming();
    if (mlir::failed(pm.run(*copy))) {
      state.SkipWithError("pass pipeline failed");
      return;
    }
    state.PauseTiming();
    copy = nullptr;
    state.ResumeTiming();
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
  state.counters["ops"] = static_cast<double>(state.range(0));
  state.counters["callbacks"] = static_cast<double>(state.range(1));
}

void BM_SegmentCallbacksHost(benchmark::State &state) {
  runPipeline(state, [](mlir::PassManager &pm) {
    pm.addPass(mlir::nx::createNxSegmentCallbacksPass());
  });
}

void BM_SegmentCallbacksCuda(benchmark::State &state) {
  runPipeline(state, [](mlir::PassManager &pm) {
    mlir::nx::NxSegmentCallbacksPassOptions options;
    options.device = mlir::nx::Platform::Cuda;
    pm.addPass(mlir::nx::createNxSegmentCallbacksPass(options));
  });
}

void BM_Canonicalize(benchmark::State &state) {
  runPipeline(state, [](mlir::PassManager &pm) {
    pm.addPass(mlir::createCanonicalizerPass());
  });
}

// {ops, callbacks}: 10x steps show the scaling, 100k/1k is the reference.
#define NX_SIZES                                                               \
  Args({10000, 100})                                                           \
      ->Args({100000, 1000})                                                   \
      ->Args({200000, 2000})                                                   \
      ->Unit(benchmark::kMillisecond)

BENCHMARK(BM_SegmentCallbacksHost)->NX_SIZES;
BENCHMARK(BM_SegmentCallbacksCuda)->NX_SIZES;
BENCHMARK(BM_Canonicalize)->NX_SIZES;

} // namespace

BENCHMARK_MAIN();

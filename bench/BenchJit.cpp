//===- BenchJit.cpp - nx-lower-to-cpu + JIT for the compiled-code benchmarks =//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "BenchJit.h"

#include "nx/Conversion/NxToLLVM/RuntimeSymbols.h"
#include "nx/Runner/Runner.h"
#include "nx/Runner/RuntimeSymbolMap.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include "llvm/Support/Error.h"

#include <cstdio>
#include <cstdlib>

using namespace mlir;
namespace runner = mlir::nx::runner;

void nx_bench::die(const std::string &message) {
  std::fprintf(stderr, "nx benchmark: %s\n", message.c_str());
  std::exit(1);
}

void nx_bench::check(nxrt_status_t *status) {
  if (!status)
    return;
  std::string message = nxrt_status_message(status);
  nxrt_status_free(status);
  die("nxrt error: " + message);
}

std::unique_ptr<MLIRContext> nx_bench::makeContext() {
  DialectRegistry registry;
  runner::registerRunnerDialects(registry);
  auto context = std::make_unique<MLIRContext>(registry);
  context->disableMultithreading();
  context->loadAllAvailableDialects();
  return context;
}

OwningOpRef<ModuleOp> nx_bench::parse(const std::string &source,
                                      MLIRContext *context) {
  return parseSourceString<ModuleOp>(source, context, "bench.mlir");
}

LogicalResult nx_bench::lower(ModuleOp module, bool split,
                              llvm::StringRef textOptions) {
  nx::LowerToCpuOptions options;
  if (!split)
    options.maxFunctionOps = 0;
  if (failed(options.parseFromString(textOptions)))
    die("invalid nx-lower-to-cpu options '" + textOptions.str() + "'");
  PassManager pm(module.getContext());
  nx::buildLowerToCpuPipeline(pm, options);
  return pm.run(module);
}

std::unique_ptr<ExecutionEngine> nx_bench::jit(ModuleOp lowered,
                                               runner::JitMemory &memory) {
  constexpr unsigned kOptLevel = 2; // Executable's default
  auto machine = runner::createHostTargetMachine(kOptLevel);
  if (!machine)
    die("cannot target the host: " + llvm::toString(machine.takeError()));
  auto optimize = runner::makeJitOptimizer(kOptLevel);
  if (!optimize)
    die("cannot target the host: " + llvm::toString(optimize.takeError()));
  ExecutionEngineOptions options;
  options.llvmModuleBuilder = runner::translateForJit;
  options.transformer = *optimize;
  options.sectionMemoryMapper = &memory;
  options.enableGDBNotificationListener = false;
  options.enablePerfNotificationListener = false;
  auto engine = ExecutionEngine::create(lowered, options, std::move(*machine));
  if (!engine)
    die("JIT compilation failed: " + llvm::toString(engine.takeError()));
  (*engine)->registerSymbols(runner::runtimeSymbolMap);
  (*engine)->initialize();
  return std::move(*engine);
}

nx_bench::JitModule::JitModule(const std::string &source,
                               nxrt_runtime_t *runtime, llvm::StringRef options)
    : context(makeContext()) {
  OwningOpRef<ModuleOp> module = parse(source, context.get());
  if (!module)
    die("cannot parse the benchmark module");
  if (failed(lower(*module, /*split=*/true, options)))
    die("nx-lower-to-cpu failed");
  engine = jit(*module, memory);
  program = nxrt_program_create(runtime, "nx-bench");
  auto init = engine->lookup(nx::runtime_symbols::kInitFunction);
  if (!init)
    die("no __nx_init: " + llvm::toString(init.takeError()));
  check(reinterpret_cast<nxrt_status_t *(*)(nxrt_program_t *)>(*init)(program));
}

nx_bench::JitModule::~JitModule() {
  engine.reset(); // the code refers to the program's sites
  nxrt_program_destroy(program);
}

nx_bench::JitModule::PackedFn
nx_bench::JitModule::lookupPacked(const std::string &name) {
  auto address = engine->lookupPacked("_mlir_ciface_" + name);
  if (!address)
    die("no packed function for " + name + ": " +
        llvm::toString(address.takeError()));
  return *address;
}

void *nx_bench::JitModule::lookupAddress(const std::string &symbol) {
  auto address = engine->lookup(symbol);
  if (!address)
    die("no symbol " + symbol + ": " + llvm::toString(address.takeError()));
  return *address;
}

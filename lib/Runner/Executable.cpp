//===- Executable.cpp - lower, JIT and run nx programs
//---------------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "nx/Runner/CompileProgress.h"
#include "nx/Runner/JitMemory.h"
#include "nx/Runner/Runner.h"
#include "nx/Runner/RuntimeSymbolMap.h"

#include "nx/Conversion/NxToLLVM/RuntimeSymbols.h"
#include "nx/Dialect/Nx/IR/NxOps.h"
#include "nx/Dialect/Nx/IR/RuntimeTypes.h"
#include "nx/InitNx.h"
#include "nx/Pipelines/Pipelines.h"
#include "nx/Support/ParseDiagnostics.h"
#include "nx/Support/PassStatistics.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/Timing.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/Mangling.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

#include <cstdlib>
#include <cstring>
#include <mutex>

using namespace mlir;
using namespace mlir::nx::runner;
using llvm::Expected;
using llvm::StringRef;

void mlir::nx::runner::registerRunnerDialects(DialectRegistry &registry) {
  registerAllDialects(registry);
  registerAllExtensions(registry);
  nx::registerNxDialects(registry);
  registerAllToLLVMIRTranslations(registry);
}

//===----------------------------------------------------------------------===//
// Diagnostics
//===----------------------------------------------------------------------===//

namespace {
/// Collects diagnostics as nx-opt prints them: "file:line:col: error:
/// message", the source line and a caret. Lines come from the buffer added
/// with addSource, or else from the file a location names.
class DiagnosticCollector {
public:
  explicit DiagnosticCollector(MLIRContext *context)
      : stream(text), sourceHandler(sourceMgr, context, stream),
        handler(context, [this](Diagnostic &diag) {
          sourceHandler.emitDiagnostic(
              diag.getLocation(), nx::rewordParseDiagnostic(diag.str(), tool),
              diag.getSeverity());
          for (Diagnostic &note : diag.getNotes())
            sourceHandler.emitDiagnostic(note.getLocation(), note.str(),
                                         note.getSeverity());
          return success();
        }) {}

  /// Makes `source`, named `name` in locations, show in the diagnostics.
  void addSource(StringRef source, StringRef name) {
    sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBufferCopy(source, name), llvm::SMLoc());
  }

  std::string take() {
    std::string result = std::move(text);
    text.clear();
    while (!result.empty() && result.back() == '\n')
      result.pop_back();
    return result;
  }

private:
  std::string text;
  llvm::raw_string_ostream stream;
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler sourceHandler;
  // Also the Elixir binding's compiler, so no tool name.
  std::string tool = "nx's compiler";
  ScopedDiagnosticHandler handler;
};
} // namespace

//===----------------------------------------------------------------------===//
// Signatures
//===----------------------------------------------------------------------===//

static std::string typeToString(Type type) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << type;
  return s;
}

static bool toSpec(Type type, nxhost::TensorSpec &spec, std::string &reason) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || tensor.getEncoding()) {
    reason = "type '" + typeToString(type) +
             "' is not a ranked tensor (the runner passes tensors only)";
    return false;
  }
  spec.dtype = nx::getRuntimeDType(tensor.getElementType());
  if (spec.dtype == NXRT_DTYPE_INVALID) {
    reason = "unsupported element type in '" + typeToString(type) + "'";
    return false;
  }
  spec.shape.assign(tensor.getShape().begin(), tensor.getShape().end());
  spec.type = typeToString(type);
  return true;
}

std::vector<std::string> mlir::nx::runner::getCallbackNames(ModuleOp module) {
  std::vector<std::string> names;
  module.walk([&](nx::CallbackOp callback) {
    names.push_back(callback.getSymName().str());
  });
  return names;
}

nxhost::EntrySignature mlir::nx::runner::getEntrySignature(func::FuncOp func) {
  nxhost::EntrySignature sig;
  sig.name = func.getSymName().str();
  FunctionType type = func.getFunctionType();
  // nx-lower-to-cpu drops tokens from signatures (nx-erase-tokens): they are
  // neither passed nor returned.
  auto isToken = [](Type t) { return isa<nx::TokenType>(t); };
  for (auto [i, t] : llvm::enumerate(type.getInputs())) {
    if (isToken(t))
      continue;
    nxhost::TensorSpec spec;
    std::string reason;
    if (!toSpec(t, spec, reason) && sig.unsupported.empty())
      sig.unsupported = "argument #" + std::to_string(i) + ": " + reason;
    sig.args.push_back(std::move(spec));
  }
  for (auto [i, t] : llvm::enumerate(type.getResults())) {
    if (isToken(t))
      continue;
    nxhost::TensorSpec spec;
    std::string reason;
    if (!toSpec(t, spec, reason) && sig.unsupported.empty())
      sig.unsupported = "result #" + std::to_string(i) + ": " + reason;
    sig.results.push_back(std::move(spec));
  }
  return sig;
}

//===----------------------------------------------------------------------===//
// Compilation
//===----------------------------------------------------------------------===//

Executable::Executable() = default;

Executable::~Executable() {
  // Compiled code refers to the program's sites: release the code first.
  jitEngine.reset();
  nxrt_program_destroy(programHandle);
}

const nxhost::EntrySignature *Executable::findEntry(StringRef name) const {
  for (const nxhost::EntrySignature &e : entrySignatures)
    if (e.name == name)
      return &e;
  return nullptr;
}

static void initializeNativeTarget() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    llvm::InitializeNativeTargetAsmParser();
  });
}

/// The functions CompileOptions::separateStages compiles on their own.
static bool isSeparateStage(func::FuncOp func) {
  return !func.isExternal() &&
         func->hasAttr(nx::NxDialect::getDeviceAttrName()) &&
         !func->hasAttr(nx::NxDialect::getHostOrchestratorAttrName());
}

/// A copy of `module` holding `stage` (now public) and the private symbols it
/// references; callback declarations and every other public symbol are
/// dropped.
static Expected<OwningOpRef<ModuleOp>> extractStage(ModuleOp module,
                                                    StringRef stage) {
  OwningOpRef<ModuleOp> result(cast<ModuleOp>(module->clone()));
  for (Operation &op : llvm::make_early_inc_range(*result->getBody())) {
    if (isa<nx::CallbackOp>(op)) {
      op.erase();
      continue;
    }
    auto symbol = dyn_cast<SymbolOpInterface>(op);
    if (!symbol)
      continue;
    if (symbol.getName() == stage)
      symbol.setPublic();
    else if (auto func = dyn_cast<func::FuncOp>(op))
      func.setPrivate();
  }
  DiagnosticCollector diagnostics(module.getContext());
  PassManager pm(module.getContext());
  pm.addPass(createSymbolDCEPass());
  if (failed(pm.run(*result)))
    return llvm::createStringError("cannot extract stage @" + stage + ": " +
                                   diagnostics.take());
  return result;
}

/// Marks for -O0 code generation (optnone, which needs noinline) every
/// function that has no loop and makes at least kGlueHostCalls host calls:
/// the glue of callback-heavy programs. Each of its instructions runs at
/// most once per call, so the optimizing code generator saves little at run
/// time, while it costs about three times as much at compile time there, and
/// more than linearly in the function's size. Functions with loops, where
/// compute lives, keep the requested level.
static void generateHostGlueWithoutOptimization(llvm::Module &module) {
  constexpr unsigned kGlueHostCalls = 8;
  llvm::Function *invoke = module.getFunction(nx::runtime_symbols::kInvoke);
  if (!invoke)
    return;
  llvm::DenseMap<llvm::Function *, unsigned> hostCalls;
  for (llvm::User *user : invoke->users())
    if (auto *call = llvm::dyn_cast<llvm::CallBase>(user))
      ++hostCalls[call->getFunction()];
  for (auto [function, calls] : hostCalls) {
    if (calls < kGlueHostCalls ||
        function->hasFnAttribute(llvm::Attribute::AlwaysInline))
      continue;
    llvm::SmallVector<
        std::pair<const llvm::BasicBlock *, const llvm::BasicBlock *>>
        backEdges;
    llvm::FindFunctionBackedges(*function, backEdges);
    if (!backEdges.empty())
      continue;
    function->addFnAttr(llvm::Attribute::OptimizeNone);
    function->addFnAttr(llvm::Attribute::NoInline);
  }
}

llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
nx::runner::createHostTargetMachine(unsigned optLevel) {
  // The small code model and position-independent code rather than the
  // JIT's default, the large code model: that one materializes every
  // global's and callee's 64-bit address in a register and keeps the fast
  // instruction selector from handling them, which made code generation of
  // call-heavy functions take half again as long. The engine must then map
  // the module within 2 GiB (JitMemory); calls and data of other libraries
  // go through stubs and the GOT.
  initializeNativeTarget();
  auto machineBuilder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!machineBuilder)
    return machineBuilder.takeError();
  machineBuilder->setCodeGenOptLevel(
      static_cast<llvm::CodeGenOptLevel>(std::min(optLevel, 3u)));
  machineBuilder->setCodeModel(llvm::CodeModel::Small);
  machineBuilder->setRelocationModel(llvm::Reloc::PIC_);
  return machineBuilder->createTargetMachine();
}

/// Whether `function` has a loop the optimizer may work on.
static bool hasLoops(const llvm::Function &function) {
  if (function.isDeclaration() || function.hasOptNone())
    return false;
  llvm::SmallVector<
      std::pair<const llvm::BasicBlock *, const llvm::BasicBlock *>>
      backEdges;
  llvm::FindFunctionBackedges(function, backEdges);
  return !backEdges.empty();
}

llvm::Expected<std::function<llvm::Error(llvm::Module *)>>
nx::runner::makeJitOptimizer(unsigned optLevel) {
  // A machine of its own: ExecutionEngine takes the one it generates code
  // with, and may drop it before it calls the optimizer.
  auto machine = createHostTargetMachine(optLevel);
  if (!machine)
    return machine.takeError();
  std::shared_ptr<llvm::TargetMachine> shared = std::move(*machine);
  auto optimize = makeOptimizingTransformer(std::min(optLevel, 3u),
                                            /*sizeLevel=*/0, shared.get());
  // ExecutionEngine sets the module's target only after this runs; without
  // it, LLVM's cost models see a target without vectors and vectorize
  // nothing.
  return [shared, optimize](llvm::Module *module) -> llvm::Error {
    module->setTargetTriple(shared->getTargetTriple());
    module->setDataLayout(shared->createDataLayout());
    // The pipeline pays off in loops, where compute lives. A module without
    // any (host glue, call-site chains) would only pay its compile time:
    // about half a millisecond per call site.
    if (!llvm::any_of(*module, hasLoops))
      return llvm::Error::success();
    return optimize(module);
  };
}

std::unique_ptr<llvm::Module>
nx::runner::translateForJit(Operation *module, llvm::LLVMContext &context) {
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, context);
  if (llvmModule)
    generateHostGlueWithoutOptimization(*llvmModule);
  return llvmModule;
}

TimingScope nx::runner::startPhase(const CompileOptions &options,
                                   StringRef name) {
  if (options.progress)
    options.progress->phase(name);
  return options.timing ? options.timing->nest(name) : TimingScope();
}

llvm::Error nx::runner::lowerToCpu(ModuleOp module,
                                   const CompileOptions &options) {
  MLIRContext *context = module.getContext();
  TimingScope timing = startPhase(options, "nx-lower-to-cpu");
  DiagnosticCollector diagnostics(context);
  PassManager pm(context);
  if (options.timing)
    pm.enableTiming(timing);
  if (options.passStatistics) {
    nx::registerNxPassStatistics();
    nx::enablePassStatistics(pm);
  }
  nx::LowerToCpuOptions pipelineOptions;
#define NX_LOWER_TO_CPU_OPTION(type, field, flag, value, description)          \
  pipelineOptions.field = options.field;
#include "nx/Pipelines/LowerToCpuOptions.def"
  nx::buildLowerToCpuPipeline(pm, pipelineOptions);
  if (failed(pm.run(module))) {
    std::string text = diagnostics.take();
    return llvm::createStringError(
        "nx-lower-to-cpu failed" +
        (text.empty() ? llvm::Twine("") : ":\n" + text));
  }
  return llvm::Error::success();
}

struct Executable::SeparateStages {
  /// Each stage's address in its own unit, by name.
  llvm::StringMap<void *> addresses;
  /// The unit of each stage that is also an entry point.
  llvm::StringMap<Executable *> unitOfEntry;
  /// Each stage's lowered IR, when CompileOptions::loweredIR asks for it.
  std::vector<std::string> loweredIR;
};

/// CompileOptions::onlyEntry on `module`: nothing changes unless `entry`
/// names a public function with a body.
static llvm::Error keepOnlyEntry(ModuleOp module, StringRef entry) {
  auto isEntry = [](func::FuncOp func) {
    return func.isPublic() && !func.isExternal();
  };
  auto kept = module.lookupSymbol<func::FuncOp>(entry);
  if (entry.empty() || !kept || !isEntry(kept))
    return llvm::Error::success();
  for (auto func : module.getOps<func::FuncOp>())
    if (func != kept && isEntry(func))
      func.setPrivate();
  PassManager pm(module.getContext());
  pm.addPass(createSymbolDCEPass());
  if (failed(pm.run(module)))
    return llvm::createStringError("cannot drop the functions @" + entry +
                                   " does not use");
  return llvm::Error::success();
}

Expected<std::unique_ptr<Executable>>
Executable::compile(ModuleOp module, nxrt_runtime_t *runtime,
                    const CompileOptions &options) {
  if (!runtime)
    return llvm::createStringError("no runtime given");
  MLIRContext *context = module.getContext();
  {
    DialectRegistry registry;
    registerRunnerDialects(registry);
    context->appendDialectRegistry(registry);
  }

  // A copy is lowered; `module` stays as it is.
  OwningOpRef<ModuleOp> lowered(cast<ModuleOp>(module->clone()));
  if (auto err = keepOnlyEntry(*lowered, options.onlyEntry))
    return std::move(err);
  std::unique_ptr<Executable> exe(new Executable());
  exe->runtimeHandle = runtime;
  for (auto func : lowered->getOps<func::FuncOp>())
    if (func.isPublic() && !func.isExternal())
      exe->entrySignatures.push_back(getEntrySignature(func));
  exe->declaredCallbacks = getCallbackNames(*lowered);

  SeparateStages stages;
  if (options.separateStages)
    if (auto err = exe->compileSeparateStages(*lowered, options, stages))
      return std::move(err);
  if (auto err = lowerToCpu(*lowered, options))
    return std::move(err);
  if (options.loweredIR) {
    llvm::raw_string_ostream os(*options.loweredIR);
    lowered->print(os);
    for (const std::string &text : stages.loweredIR)
      os << "// -----\n" << text;
  }
  if (auto err = exe->generateCode(*lowered, options, stages))
    return std::move(err);
  if (auto err = exe->loadSites(options))
    return std::move(err);
  return exe;
}

llvm::Error Executable::compileSeparateStages(ModuleOp lowered,
                                              const CompileOptions &options,
                                              SeparateStages &stages) {
  SmallVector<func::FuncOp> separate;
  for (auto func : lowered.getOps<func::FuncOp>())
    if (isSeparateStage(func))
      separate.push_back(func);
  stages.loweredIR.resize(separate.size());
  for (auto [i, stage] : llvm::enumerate(separate)) {
    std::string name = stage.getSymName().str();
    auto stageModule = extractStage(lowered, name);
    if (!stageModule)
      return stageModule.takeError();
    CompileOptions stageOptions = options;
    stageOptions.separateStages = false;
    stageOptions.onlyEntry.clear();
    stageOptions.programName = options.programName + ":@" + name;
    stageOptions.loweredIR = options.loweredIR ? &stages.loweredIR[i] : nullptr;
    auto unit = compile(**stageModule, runtimeHandle, stageOptions);
    if (!unit)
      return llvm::createStringError(
          "compiling stage @" + name +
          " separately failed: " + llvm::toString(unit.takeError()));
    auto address = (*unit)->jitEngine->lookup(name);
    if (!address)
      return llvm::createStringError(
          "cannot find stage @" + name +
          " in its compiled unit: " + llvm::toString(address.takeError()));
    stages.addresses[name] = *address;
    if (stage.isPublic())
      stages.unitOfEntry[name] = unit->get();
    stageExecutables.push_back(std::move(*unit));
    stage.eraseBody();
    stage.setPrivate();
  }
  return llvm::Error::success();
}

llvm::Error Executable::generateCode(ModuleOp lowered,
                                     const CompileOptions &options,
                                     const SeparateStages &stages) {
  auto targetMachine = createHostTargetMachine(options.optLevel);
  if (!targetMachine)
    return llvm::createStringError("cannot target the host: " +
                                   llvm::toString(targetMachine.takeError()));
  auto optimize = makeJitOptimizer(options.optLevel);
  if (!optimize)
    return llvm::createStringError("cannot target the host: " +
                                   llvm::toString(optimize.takeError()));
  jitMemory = std::make_unique<JitMemory>();
  ExecutionEngineOptions engineOptions;
  engineOptions.sectionMemoryMapper = jitMemory.get();
  engineOptions.enableGDBNotificationListener = false;
  engineOptions.enablePerfNotificationListener = false;
  // What the module uses but does not define, for the JIT to bind (below).
  std::vector<std::string> undefinedSymbols;
  // The options hold these by reference (function_ref), and the JIT calls
  // `optimizeTimed` when it generates code, below.
  auto translate = [&](Operation *module, llvm::LLVMContext &context) {
    TimingScope timing = startPhase(options, "translate to LLVM IR");
    std::unique_ptr<llvm::Module> llvmModule = translateForJit(module, context);
    if (llvmModule)
      undefinedSymbols = getUndefinedSymbols(*llvmModule);
    return llvmModule;
  };
  auto optimizeTimed = [&](llvm::Module *module) {
    TimingScope timing = startPhase(options, "optimize LLVM IR");
    return (*optimize)(module);
  };
  engineOptions.llvmModuleBuilder = translate;
  engineOptions.transformer = optimizeTimed;
  DiagnosticCollector diagnostics(lowered.getContext());
  auto engine = ExecutionEngine::create(lowered, engineOptions,
                                        std::move(*targetMachine));
  std::string translateErrors = diagnostics.take();
  if (!engine) {
    std::string message = llvm::toString(engine.takeError());
    if (!translateErrors.empty())
      message += "\n" + translateErrors;
    return llvm::createStringError("JIT compilation failed: " + message);
  }
  jitEngine = std::move(*engine);
  jitEngine->registerSymbols(runtimeSymbolMap);
  // And what libnxrt's dependencies define (the OpenMP runtime), which the
  // JIT would not find either where the host loaded libnxrt RTLD_LOCAL.
  // The separate stages are bound below.
  llvm::erase_if(undefinedSymbols, [&](const std::string &name) {
    return stages.addresses.contains(name);
  });
  jitEngine->registerSymbols([&](llvm::orc::MangleAndInterner interner) {
    return runtimeDependencySymbolMap(undefinedSymbols, interner);
  });
  if (!stages.addresses.empty())
    jitEngine->registerSymbols([&](llvm::orc::MangleAndInterner interner) {
      llvm::orc::SymbolMap map;
      for (const auto &entry : stages.addresses)
        map[interner(entry.getKey())] = {
            llvm::orc::ExecutorAddr::fromPtr(entry.getValue()),
            llvm::JITSymbolFlags::Exported};
      return map;
    });
  // The JIT generates code for the whole module when it first needs an
  // address: its initializers, or the first entry point.
  TimingScope codegenTiming = startPhase(options, "JIT code generation");
  jitEngine->initialize();
  return resolveEntryPoints(stages);
}

llvm::Error Executable::resolveEntryPoints(const SeparateStages &stages) {
  for (const nxhost::EntrySignature &sig : entrySignatures) {
    if (!sig.unsupported.empty()) {
      packedEntries.push_back(nullptr);
      continue;
    }
    // A public stage compiled on its own runs from its unit.
    ExecutionEngine *engine = jitEngine.get();
    if (Executable *unit = stages.unitOfEntry.lookup(sig.name))
      engine = unit->jitEngine.get();
    auto fn = engine->lookupPacked(
        (runtime_symbols::kCInterfacePrefix + sig.name).str());
    if (!fn)
      return llvm::createStringError("cannot find the C interface of @" +
                                     sig.name + ": " +
                                     llvm::toString(fn.takeError()));
    packedEntries.push_back(*fn);
  }
  return llvm::Error::success();
}

llvm::Error Executable::loadSites(const CompileOptions &options) {
  TimingScope loadTiming = startPhase(options, "load (__nx_init)");
  programHandle =
      nxrt_program_create(runtimeHandle, options.programName.c_str());
  auto init = jitEngine->lookup(runtime_symbols::kInitFunction);
  if (!init) {
    llvm::consumeError(init.takeError());
    if (!declaredCallbacks.empty())
      return llvm::createStringError("the lowered module defines no " +
                                     runtime_symbols::kInitFunction +
                                     " although it declares callbacks");
    return llvm::Error::success();
  }
  auto initFn = reinterpret_cast<nxrt_status_t *(*)(nxrt_program_t *)>(*init);
  if (nxrt_status_t *status = initFn(programHandle)) {
    std::string message = nxrt_status_message(status);
    nxrt_status_free(status);
    return llvm::createStringError("loading the program failed: " + message);
  }
  return llvm::Error::success();
}

Expected<std::unique_ptr<Executable>>
Executable::compileSource(StringRef source, StringRef bufferName,
                          nxrt_runtime_t *runtime,
                          const CompileOptions &options) {
  DialectRegistry registry;
  registerRunnerDialects(registry);
  auto context = std::make_unique<MLIRContext>(registry);
  context->disableMultithreading(); // compile-time only; keep it simple
  context->printOpOnDiagnostic(options.printOpOnDiagnostic);
  OwningOpRef<ModuleOp> module;
  {
    TimingScope timing = startPhase(options, "parse");
    DiagnosticCollector diagnostics(context.get());
    diagnostics.addSource(source, bufferName);
    // Verified apart, so that an invalid op is not called a parse error.
    ParserConfig config(context.get(), /*verifyAfterParse=*/false);
    module = parseSourceString<ModuleOp>(source, config, bufferName);
    if (!module) {
      std::string text = diagnostics.take();
      return llvm::createStringError(
          "cannot parse '" + bufferName + "'" +
          (text.empty() ? llvm::Twine("") : ":\n" + text));
    }
    if (failed(verify(*module)))
      return llvm::createStringError(
          "'" + bufferName + "' fails verification:\n" + diagnostics.take());
  }
  auto exe = compile(*module, runtime, options);
  if (!exe)
    return exe.takeError();
  module = nullptr;
  (*exe)->ownedContext = std::move(context);
  return exe;
}

Expected<std::unique_ptr<Executable>>
Executable::compileFile(StringRef path, nxrt_runtime_t *runtime,
                        const CompileOptions &options) {
  auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(path, /*IsText=*/true);
  if (!buffer)
    return llvm::createStringError("cannot read '" + path +
                                   "': " + buffer.getError().message());
  return compileSource((*buffer)->getBuffer(), path, runtime, options);
}

//===----------------------------------------------------------------------===//
// Running
//===----------------------------------------------------------------------===//

Expected<std::vector<nxhost::HostTensor>>
Executable::run(StringRef entryName, llvm::ArrayRef<nxhost::HostTensor> inputs,
                const nxhost::RunOptions &options) const {
  for (auto [i, e] : llvm::enumerate(entrySignatures))
    if (e.name == entryName)
      return nxhost::callEntry(e, packedEntries[i], inputs, runtimeHandle,
                               options);
  return nxhost::noSuchEntryError(entryName, entrySignatures);
}

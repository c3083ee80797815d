//===- AotCompiler.cpp - nx programs to relocatable objects ---------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The same lowering and LLVM IR optimization as the JIT (lib/Runner), then
// three rewrites of the LLVM module that make it linkable into any host:
//   - exports: `_mlir_ciface_<entry>` becomes P_<entry>, `__nx_init`
//     P_nx_init, and every other definition becomes internal;
//   - `memrefCopy` (MLIR's C runner utilities) becomes libnxrt's
//     nxrt_memref_copy, so the object needs no MLIR library;
//   - P_program, the nxrt_aot.h descriptor of the entry points, with a
//     packed-argument wrapper per entry for generic hosts.
//
//===----------------------------------------------------------------------===//

#include "nx/Aot/AotCompiler.h"
#include "nx/Pipelines/Pipelines.h"

#include "nx/Conversion/NxToLLVM/RuntimeSymbols.h"
#include "nxrt/nxrt_aot.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Support/Timing.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"

#include <mutex>

using namespace mlir;
using namespace mlir::nx;
using namespace mlir::nx::aot;
using llvm::Expected;
using llvm::StringRef;

using runtime_symbols::kCInterfacePrefix;
using runtime_symbols::kMemrefCopy;
using runtime_symbols::kMlirMemrefCopy;

bool aot::isValidPrefix(StringRef prefix) {
  if (prefix.empty() || llvm::isDigit(prefix.front()))
    return false;
  return llvm::all_of(prefix,
                      [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

//===----------------------------------------------------------------------===//
// Diagnostics
//===----------------------------------------------------------------------===//

/// Collects a context's diagnostics as "loc: message" lines.
static std::string collectDiagnostics(MLIRContext *context,
                                      llvm::function_ref<LogicalResult()> fn,
                                      LogicalResult &result) {
  std::string text;
  ScopedDiagnosticHandler handler(context, [&](Diagnostic &diag) {
    llvm::raw_string_ostream os(text);
    if (!text.empty())
      os << "\n";
    os << diag.getLocation() << ": " << diag.str();
    return success();
  });
  result = fn();
  return text;
}

//===----------------------------------------------------------------------===//
// Target
//===----------------------------------------------------------------------===//

static Expected<std::unique_ptr<llvm::TargetMachine>>
createTargetMachine(StringRef cpu, unsigned optLevel) {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });
  // The host's triple; with "native" also its CPU and features, exactly what
  // the JIT generates code for. Another CPU brings its own features.
  auto builder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!builder)
    return builder.takeError();
  if (cpu != "native") {
    std::string error;
    const llvm::Target *target =
        llvm::TargetRegistry::lookupTarget(builder->getTargetTriple(), error);
    if (!target)
      return llvm::createStringError(error);
    // Asked of a subtarget with no CPU: one made for an unknown CPU prints
    // LLVM's warning (twice, for the CPU and its tuning) before ours.
    std::unique_ptr<llvm::MCSubtargetInfo> info(
        target->createMCSubtargetInfo(builder->getTargetTriple(), "", ""));
    if (!info || !info->isCPUStringValid(cpu))
      return llvm::createStringError("unknown CPU '" + cpu + "' for " +
                                     builder->getTargetTriple().str());
    builder->setCPU(cpu.str());
    builder->setFeatures("");
  }
  builder->setCodeGenOptLevel(
      static_cast<llvm::CodeGenOptLevel>(std::min(optLevel, 3u)));
  builder->setCodeModel(llvm::CodeModel::Small);
  builder->setRelocationModel(llvm::Reloc::PIC_);
  return builder->createTargetMachine();
}

/// The vector widths for the target machine's CPU (the JIT uses the
/// host's), by the pipeline's one policy.
static VectorWidths getVectorWidths(llvm::TargetMachine &machine) {
  const llvm::MCSubtargetInfo *info = machine.getMCSubtargetInfo();
  return selectVectorWidths([&](llvm::StringRef name) {
    return info->checkFeatures(("+" + name).str());
  });
}

//===----------------------------------------------------------------------===//
// Exports
//===----------------------------------------------------------------------===//

namespace {
/// Builds the exports and P_program into a translated module.
class ExportBuilder {
public:
  ExportBuilder(llvm::Module &module, StringRef prefix)
      : module(module), context(module.getContext()), prefix(prefix.str()),
        ptrType(llvm::PointerType::getUnqual(context)),
        i32(llvm::Type::getInt32Ty(context)),
        i64(llvm::Type::getInt64Ty(context)) {}

  llvm::Error build(const AotObject &object, StringRef programName,
                    llvm::ArrayRef<std::string> callbacks);

private:
  std::string exported(StringRef name) const {
    return prefix + "_" + name.str();
  }
  llvm::Constant *string(StringRef text, const llvm::Twine &name);
  llvm::Constant *array(llvm::Type *type,
                        llvm::ArrayRef<llvm::Constant *> elements,
                        const llvm::Twine &name);
  llvm::Constant *tensorTypes(llvm::ArrayRef<nxhost::TensorSpec> specs,
                              const llvm::Twine &name);
  llvm::Function *packedWrapper(llvm::Function *function);
  llvm::Function *initFunction();

  llvm::Module &module;
  llvm::LLVMContext &context;
  std::string prefix;
  llvm::PointerType *ptrType;
  llvm::IntegerType *i32, *i64;
};
} // namespace

llvm::Constant *ExportBuilder::string(StringRef text, const llvm::Twine &name) {
  auto *init = llvm::ConstantDataArray::getString(context, text);
  auto *global =
      new llvm::GlobalVariable(module, init->getType(), /*isConstant=*/true,
                               llvm::GlobalValue::PrivateLinkage, init, name);
  global->setUnnamedAddr(llvm::GlobalValue::UnnamedAddr::Global);
  global->setAlignment(llvm::Align(1));
  return global;
}

llvm::Constant *ExportBuilder::array(llvm::Type *type,
                                     llvm::ArrayRef<llvm::Constant *> elements,
                                     const llvm::Twine &name) {
  if (elements.empty())
    return llvm::ConstantPointerNull::get(ptrType);
  auto *arrayType = llvm::ArrayType::get(type, elements.size());
  return new llvm::GlobalVariable(
      module, arrayType, /*isConstant=*/true, llvm::GlobalValue::PrivateLinkage,
      llvm::ConstantArray::get(arrayType, elements), name);
}

llvm::Constant *
ExportBuilder::tensorTypes(llvm::ArrayRef<nxhost::TensorSpec> specs,
                           const llvm::Twine &name) {
  // nxrt_aot_tensor_type_t: {dtype, rank, dims, type}.
  auto *type = llvm::StructType::get(context, {i32, i32, ptrType, ptrType});
  SmallVector<llvm::Constant *> elements;
  for (auto [i, spec] : llvm::enumerate(specs)) {
    SmallVector<llvm::Constant *> dims;
    for (int64_t dim : spec.shape)
      dims.push_back(llvm::ConstantInt::get(
          i64, ShapedType::isDynamic(dim) ? -1 : dim, /*IsSigned=*/true));
    elements.push_back(llvm::ConstantStruct::get(
        type, {llvm::ConstantInt::get(i32, spec.dtype),
               llvm::ConstantInt::get(i32, spec.shape.size()),
               array(i64, dims, name + "." + llvm::Twine(i) + ".dims"),
               string(spec.type, name + "." + llvm::Twine(i) + ".type")}));
  }
  return array(type, elements, name);
}

/// void P_<entry>_packed(void **args): calls the C interface with
/// *(void **)args[i] as its i-th pointer (see nxrt_aot_entry_t::packed).
llvm::Function *ExportBuilder::packedWrapper(llvm::Function *function) {
  auto *type = llvm::FunctionType::get(llvm::Type::getVoidTy(context),
                                       {ptrType}, /*isVarArg=*/false);
  auto *wrapper =
      llvm::Function::Create(type, llvm::GlobalValue::InternalLinkage,
                             function->getName() + "_packed", module);
  llvm::IRBuilder<> builder(llvm::BasicBlock::Create(context, "", wrapper));
  SmallVector<llvm::Value *> args;
  for (auto [i, param] : llvm::enumerate(function->args())) {
    llvm::Value *slot = builder.CreateLoad(
        ptrType, builder.CreateConstGEP1_64(ptrType, wrapper->getArg(0), i));
    args.push_back(builder.CreateLoad(param.getType(), slot));
  }
  builder.CreateCall(function, args);
  builder.CreateRetVoid();
  return wrapper;
}

/// P_nx_init: the lowered __nx_init, or one that registers nothing (a
/// module without host interactions has none), so every object exports it.
llvm::Function *ExportBuilder::initFunction() {
  if (llvm::Function *init =
          module.getFunction(runtime_symbols::kInitFunction)) {
    init->setName(exported("nx_init"));
    return init;
  }
  auto *type = llvm::FunctionType::get(ptrType, {ptrType}, false);
  auto *init = llvm::Function::Create(type, llvm::GlobalValue::ExternalLinkage,
                                      exported("nx_init"), module);
  llvm::IRBuilder<> builder(llvm::BasicBlock::Create(context, "", init));
  builder.CreateRet(llvm::ConstantPointerNull::get(ptrType));
  return init;
}

llvm::Error ExportBuilder::build(const AotObject &object, StringRef programName,
                                 llvm::ArrayRef<std::string> callbacks) {
  // No other definition is visible outside the object.
  for (llvm::GlobalValue &value : module.global_values())
    if (!value.isDeclaration() && !value.getName().starts_with("llvm."))
      value.setLinkage(llvm::GlobalValue::InternalLinkage);

  if (llvm::Function *copy = module.getFunction(kMlirMemrefCopy)) {
    if (!copy->isDeclaration())
      return llvm::createStringError("the module defines @" + kMlirMemrefCopy);
    copy->setName(kMemrefCopy);
  }

  // The entries' own (expanded-descriptor) functions are internal now;
  // renamed too, so that none is called `main` even locally.
  for (const auto *list : {&object.entries, &object.unsupported})
    for (const nxhost::EntrySignature &sig : *list)
      if (llvm::Function *function = module.getFunction(sig.name))
        function->setName("__nx_entry." + sig.name);

  llvm::Function *init = initFunction();
  init->setLinkage(llvm::GlobalValue::ExternalLinkage);

  // Every public function's C interface, then the described ones' records.
  llvm::StringMap<llvm::Function *> interfaces;
  auto exportInterface = [&](const nxhost::EntrySignature &sig) -> llvm::Error {
    llvm::Function *function =
        module.getFunction((kCInterfacePrefix + sig.name).str());
    if (!function || function->isDeclaration())
      return llvm::createStringError("the lowered module has no C interface "
                                     "for @" +
                                     sig.name);
    if (!function->getReturnType()->isVoidTy())
      return llvm::createStringError("the C interface of @" + sig.name +
                                     " returns a value");
    if (module.getNamedValue(exported(sig.name)))
      return llvm::createStringError("symbol " + exported(sig.name) +
                                     " is defined twice");
    function->setName(exported(sig.name));
    function->setLinkage(llvm::GlobalValue::ExternalLinkage);
    function->setVisibility(llvm::GlobalValue::DefaultVisibility);
    interfaces[sig.name] = function;
    return llvm::Error::success();
  };
  for (const nxhost::EntrySignature &sig : object.unsupported)
    if (auto err = exportInterface(sig))
      return err;

  // nxrt_aot_entry_t: {name, function, packed, num_args, num_results, args,
  // results}.
  auto *entryType = llvm::StructType::get(
      context, {ptrType, ptrType, ptrType, i32, i32, ptrType, ptrType});
  SmallVector<llvm::Constant *> entries;
  for (const nxhost::EntrySignature &sig : object.entries) {
    if (auto err = exportInterface(sig))
      return err;
    llvm::Function *function = interfaces[sig.name];
    std::string name = "__nx_aot." + sig.name;
    entries.push_back(llvm::ConstantStruct::get(
        entryType,
        {string(sig.name, name + ".name"), function, packedWrapper(function),
         llvm::ConstantInt::get(i32, sig.args.size()),
         llvm::ConstantInt::get(i32, sig.results.size()),
         tensorTypes(sig.args, name + ".args"),
         tensorTypes(sig.results, name + ".results")}));
  }

  SmallVector<llvm::Constant *> callbackNames;
  for (auto [i, callback] : llvm::enumerate(callbacks))
    callbackNames.push_back(
        string(callback, "__nx_aot.callback." + llvm::Twine(i)));

  // nxrt_aot_program_t.
  auto *programType = llvm::StructType::get(
      context, {i32, i32, ptrType, ptrType, i32, ptrType, i32, ptrType});
  auto *program = llvm::ConstantStruct::get(
      programType, {llvm::ConstantInt::get(i32, NXRT_AOT_ABI_VERSION),
                    llvm::ConstantInt::get(i32, NXRT_API_VERSION),
                    string(programName, "__nx_aot.name"), init,
                    llvm::ConstantInt::get(i32, entries.size()),
                    array(entryType, entries, "__nx_aot.entries"),
                    llvm::ConstantInt::get(i32, callbackNames.size()),
                    array(ptrType, callbackNames, "__nx_aot.callbacks")});
  if (module.getNamedValue(exported("program")))
    return llvm::createStringError("symbol " + exported("program") +
                                   " is defined twice");
  new llvm::GlobalVariable(module, programType, /*isConstant=*/true,
                           llvm::GlobalValue::ExternalLinkage, program,
                           exported("program"));
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// Compilation
//===----------------------------------------------------------------------===//

Expected<AotObject> aot::compileAot(ModuleOp module,
                                    const AotOptions &options) {
  if (!isValidPrefix(options.prefix))
    return llvm::createStringError("invalid symbol prefix '" + options.prefix +
                                   "': expected [A-Za-z_][A-Za-z0-9_]*");
  if (options.compile.separateStages)
    return llvm::createStringError(
        "separate stages are not supported ahead of time");
  const runner::CompileOptions &compile = options.compile;
  auto machine = createTargetMachine(options.cpu, compile.optLevel);
  if (!machine)
    return llvm::createStringError("cannot target CPU '" + options.cpu +
                                   "': " + llvm::toString(machine.takeError()));

  AotObject object;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (!func.isPublic() || func.isExternal())
      continue;
    nxhost::EntrySignature sig = runner::getEntrySignature(func);
    (sig.unsupported.empty() ? object.entries : object.unsupported)
        .push_back(std::move(sig));
  }
  std::vector<std::string> callbacks = runner::getCallbackNames(module);

  OwningOpRef<ModuleOp> lowered(cast<ModuleOp>(module->clone()));
  runner::CompileOptions lowering = compile;
  VectorWidths widths = getVectorWidths(**machine);
  lowering.vectorBits = widths.vectorBits;
  lowering.reductionVectorBits = widths.reductionVectorBits;
  if (auto err = runner::lowerToCpu(*lowered, lowering))
    return std::move(err);
  if (compile.loweredIR) {
    llvm::raw_string_ostream os(*compile.loweredIR);
    lowered->print(os);
  }

  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule;
  {
    TimingScope timing = runner::startPhase(compile, "translate to LLVM IR");
    LogicalResult result = success();
    std::string text = collectDiagnostics(
        lowered->getContext(),
        [&] {
          llvmModule = runner::translateForJit(*lowered, llvmContext);
          return success(llvmModule != nullptr);
        },
        result);
    if (failed(result))
      return llvm::createStringError("translation to LLVM IR failed" +
                                     (text.empty() ? "" : ":\n" + text));
  }
  llvmModule->setTargetTriple((*machine)->getTargetTriple());
  llvmModule->setDataLayout((*machine)->createDataLayout());
  for (const llvm::Function &function : *llvmModule)
    if (function.isDeclaration() && function.getName().starts_with("__kmpc_"))
      object.usesOpenMP = true;

  ExportBuilder exports(*llvmModule, options.prefix);
  if (auto err = exports.build(object, compile.programName, callbacks))
    return std::move(err);
  std::string verifierErrors;
  llvm::raw_string_ostream verifierStream(verifierErrors);
  if (llvm::verifyModule(*llvmModule, &verifierStream))
    return llvm::createStringError("invalid LLVM IR: " + verifierErrors);

  {
    TimingScope timing = runner::startPhase(compile, "optimize LLVM IR");
    auto optimize = makeOptimizingTransformer(std::min(compile.optLevel, 3u),
                                              /*sizeLevel=*/0, machine->get());
    if (auto err = optimize(llvmModule.get()))
      return std::move(err);
  }
  {
    TimingScope timing = runner::startPhase(compile, "code generation");
    llvm::raw_string_ostream os(object.objectFile);
    llvm::buffer_ostream buffer(os);
    llvm::legacy::PassManager codegen;
    if ((*machine)->addPassesToEmitFile(codegen, buffer, nullptr,
                                        llvm::CodeGenFileType::ObjectFile))
      return llvm::createStringError("the target cannot emit object files");
    codegen.run(*llvmModule);
  }
  return object;
}

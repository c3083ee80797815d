//===- nx-opt-fuzzer.cpp - libFuzzer harness for nx's parser and passes --===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// An input is one selector byte followed by MLIR text. The text is parsed and
// verified; the selector picks one of the pipelines below (every nx pass, the
// nx-lower-to-cpu pipeline and upstream convert-to-llvm, some with options),
// which runs on the module. A first line `// pipeline: P` (an MLIR comment)
// runs P instead, when P names only passes of those pipelines: other options,
// other orders.
// The context allows unregistered dialects, as `nx-opt
// --allow-unregistered-dialect` does: passes meet ops they know nothing
// about, as block terminators too.
// Mutations are structure-aware (Mutator.h): boundary integers, reserved and
// empty symbols, unregistered or missing terminators, type swaps, override
// lines, splices of ops from other inputs; half of them are libFuzzer's own.
// So is the feedback: besides the compiler's coverage, libFuzzer counts
// which pipeline met which kinds of ops (recordShapes).
// Beyond crashes, sanitizer reports and time-outs, which libFuzzer catches
// itself, the harness aborts on the broken promises it can see:
//   - an error diagnostic without a source location;
//   - a pass that succeeds but leaves IR that does not verify (checked
//     after every pass, nested ones included, so the culprit is named);
//   - a pass that fails without reporting an error;
//   - a module that does not parse back after printing, after the passes or
//     (when an nx op is where parsing fails) before them;
//   - an output that is all LLVM dialect (nx-lower-to-cpu's) and does not
//     translate to LLVM IR, as nx-runner and nx-compile translate it.
//
//   nx-opt-fuzzer CORPUS_DIR -dict=tools/nx-opt-fuzzer/nx.dict
//   nx-opt-fuzzer -list_pipelines=1     prints the pipelines, one per line
//   nx-opt-fuzzer -print_mutations=N FILE...
//                                       prints N mutations of each kind of
//                                       each input, and N crossovers
//
//===----------------------------------------------------------------------===//

#include "Mutator.h"

#include "nx/InitNx.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Verifier.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iterator>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <vector>

using namespace mlir;

// Textual pipelines on builtin.module; index = selector byte modulo count.
// The seed corpus script reads this list (-list_pipelines=1) to give each
// test file the pipelines its RUN lines use, so append rather than reorder.
static const char *const kPipelines[] = {
    "",
    "nx-check-static-bounds,canonicalize,cse",
    "nx-assign-callback-ids",
    "nx-assign-callback-ids,convert-nx-to-custom-call",
    "nx-assign-callback-ids,convert-nx-to-custom-call{platform=cuda "
    "callback-id-encoding=operand}",
    "nx-assign-callback-ids,convert-nx-to-custom-call{blocks-only=true}",
    "nx-assign-callback-ids,convert-nx-to-custom-call,nx-export-stablehlo",
    "nx-import-stablehlo",
    "nx-hooks-to-io-callback",
    "nx-segment-callbacks",
    "nx-segment-callbacks{device=cuda include-io=false}",
    "nx-strip-transfers",
    "nx-inline-blocks",
    "nx-prepare-entry-points",
    "nx-lower-tosa",
    "func.func(nx-fuse-elementwise)",
    "func.func(nx-split-deallocs,nx-hoist-deallocs)",
    "nx-split-functions{max-ops=2},nx-inline-pieces",
    "nx-split-functions{max-ops=1}",
    "convert-nx-to-llvm",
    "nx-lower-to-cpu",
    "nx-lower-to-cpu{max-function-ops=3 lower-blocks=false}",
    "nx-segment-callbacks{device=cuda},nx-lower-to-cpu",
    "nx-import-stablehlo{raise-callbacks=true}",
    "nx-import-stablehlo,nx-export-stablehlo",
    "nx-import-stablehlo{raise-callbacks=true jax-callback-names=a,b},"
    "nx-lower-to-cpu",
    "nx-erase-tokens",
    // nx's ConvertToLLVMPatternInterface, with the dialects its patterns
    // need converted alongside.
    "convert-to-llvm{filter-dialects=nx,func,memref}",
    // The compute passes on buffers, as nx-lower-to-cpu runs them.
    "func.func(nx-vectorize-linalg{vector-bits=512})",
    "nx-linalg-to-openmp{num-threads-function=threads min-work=16}",
    // On tensors, before bufferization.
    "func.func(nx-split-reductions{vector-bits=128})",
    // Upstream's whole conversion, every dialect: what nx's interface
    // leaves (or erases) meets the other dialects' patterns.
    "convert-to-llvm",
    "nx-lower-to-cpu{max-function-ops=4}",
    "nx-segment-callbacks{device=cuda},nx-strip-transfers,nx-lower-to-cpu",
    "nx-split-functions{max-ops=2}",
    "nx-approximate-math",
    "func.func(nx-approximate-math)",
    "func.func(nx-reassociate-reductions)",
    "func.func(nx-reuse-inputs-as-outputs)",
    "func.func(nx-clone-shared-fills)",
    "func.func(nx-decompose-aggregated-ops)",
    "func.func(nx-collapse-reduction-dims)",
    "func.func(nx-convolutions-1d-to-2d)",
    "func.func(nx-convolutions-3d-to-2d)",
    "func.func(nx-split-index-reductions)",
    "nx-linalg-to-blas",
    "nx-lower-to-cpu{vectorize=false parallel=false blas=false "
    "libm-math=true strict-reductions=true max-function-ops=0}",
    "nx-lower-to-cpu{lower-blocks=false vector-bits=128 max-function-ops=2}",
    "nx-segment-callbacks{device=rocm include-io=false},nx-lower-to-cpu",
    "nx-hooks-to-io-callback,nx-lower-to-cpu",
    "nx-assign-callback-ids,nx-segment-callbacks{device=tpu},"
    "convert-nx-to-custom-call{platform=tpu callback-target=t "
    "io-callback-target=u callback-server-handle=7 stream-name=s}",
    "nx-prepare-entry-points,nx-erase-tokens,convert-nx-to-llvm",
    "nx-lower-to-cpu,convert-to-llvm",
    // Convolutions on buffers to im2col and matmul, then BLAS.
    "nx-convolutions-to-gemm{row-block=16},nx-linalg-to-blas",
    // Convolutions on buffers to oneDNN calls.
    "nx-linalg-to-dnnl",
    // Affine extracts to inputs, then the reversed views they may become.
    "func.func(nx-extracts-to-inputs)",
    "func.func(nx-extracts-to-inputs),one-shot-bufferize,"
    "func.func(nx-reversed-views)",
};
static constexpr size_t kNumPipelines = std::size(kPipelines);

// Pipelines with integer options, which the mutator's override lines use
// with other values (boundary ones included; see Mutator.cpp).
static const char *const kOptionPipelines[] = {
    "nx-split-functions{max-ops=2}",
    "nx-split-functions{max-ops=2},nx-inline-pieces",
    "nx-lower-to-cpu{max-function-ops=4}",
    "nx-lower-to-cpu{max-function-ops=4 vector-bits=128}",
    "nx-lower-to-cpu{lower-blocks=false max-function-ops=4 vector-bits=256}",
    "nx-segment-callbacks{device=cuda},nx-strip-transfers,"
    "nx-lower-to-cpu{max-function-ops=4}",
    "func.func(nx-split-reductions{vector-bits=128})",
    "func.func(nx-vectorize-linalg{vector-bits=512})",
    "nx-linalg-to-openmp{num-threads-function=threads min-work=16}",
    "nx-assign-callback-ids,convert-nx-to-custom-call{"
    "callback-server-handle=123}",
    "nx-convolutions-to-gemm{row-block=16}",
};

/// The pass and anchor names an override line may use: those of the
/// harness's pipelines. Anything else (upstream passes nx never runs) would
/// find upstream's bugs, not nx's.
static const std::set<std::string> &getAllowedNames() {
  static const std::set<std::string> names = [] {
    std::set<std::string> all = {"builtin.module"};
    for (const char *pipeline : kPipelines)
      for (std::string &name : nx_fuzz::getPipelineNames(pipeline))
        all.insert(std::move(name));
    for (const char *pipeline : kOptionPipelines)
      for (std::string &name : nx_fuzz::getPipelineNames(pipeline))
        all.insert(std::move(name));
    return all;
  }();
  return names;
}

static DialectRegistry &getRegistry();

/// Whether every dialect a `filter-dialects=a,b,...` option of `pipeline`
/// names is one the harness registers.
static bool haveKnownFilterDialects(std::string_view pipeline) {
  constexpr std::string_view kOption = "filter-dialects=";
  for (size_t at = pipeline.find(kOption); at != std::string_view::npos;
       at = pipeline.find(kOption, at + 1)) {
    size_t begin = at + kOption.size();
    size_t end = pipeline.find_first_of(" }", begin);
    std::string_view names = pipeline.substr(begin, end - begin);
    while (!names.empty()) {
      size_t comma = names.find(',');
      std::string_view name = names.substr(0, comma);
      if (!getRegistry().getDialectAllocator(
              llvm::StringRef(name.data(), name.size())))
        return false;
      names = comma == std::string_view::npos ? std::string_view()
                                              : names.substr(comma + 1);
    }
  }
  return true;
}

static const nx_fuzz::Mutator &getMutator() {
  static const nx_fuzz::Mutator mutator(
      std::vector<std::string>(std::begin(kPipelines), std::end(kPipelines)),
      std::vector<std::string>(std::begin(kOptionPipelines),
                               std::end(kOptionPipelines)));
  return mutator;
}

/// The pipeline of the current input, printed with a failure.
static std::string currentPipeline;

// LLVM's allocators poison their free space for ASan in code compiled with
// it (ours, where their templates are inlined) but not in the uninstrumented
// libMLIR that hands the same memory out: manual poisoning would report
// false use-after-poison errors.
extern "C" const char *__asan_default_options() {
  return "allow_user_poisoning=0";
}

// UBSan reports end the run without a stack otherwise, which leaves
// triage.py nothing to find nx's frame in.
extern "C" const char *__ubsan_default_options() {
  return "print_stacktrace=1";
}

// Coverage libFuzzer reads beside the compiler's own, which stops where nx
// calls into libMLIR (not instrumented): which pipeline ran on which kinds
// of ops, with which operand types, ending a block without being a
// terminator, with an empty or reserved-looking symbol name, with a
// boundary integer attribute. An input that brings a new combination is
// kept although the code it reaches is upstream's, and so are the
// hand-written seeds that bring one (a merge keeps only inputs that add
// coverage).
static constexpr size_t kNumShapeCounters = 1 << 13;
__attribute__((section("__libfuzzer_extra_counters"))) static uint8_t
    shapeCounters[kNumShapeCounters];

/// The kind of an op's first result's (or operand's) type.
static int getTypeClass(Operation *op) {
  Type type = op->getNumResults()    ? op->getResult(0).getType()
              : op->getNumOperands() ? op->getOperand(0).getType()
                                     : Type();
  if (!type)
    return 0;
  if (type.isIntOrIndexOrFloat())
    return 1;
  if (isa<VectorType>(type))
    return 2;
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.hasStaticShape() ? 3 : 4;
  if (isa<UnrankedTensorType>(type))
    return 5;
  if (isa<MemRefType>(type))
    return 6;
  return 7;
}

/// 0 without a symbol name; 1 for "", 2 for one that looks like a name nx
/// generates or calls, 3 otherwise.
static int getSymbolClass(Operation *op) {
  auto name = op->getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName());
  if (!name)
    return 0;
  StringRef value = name.getValue();
  if (value.empty())
    return 1;
  if (value.starts_with("__nx") || value.starts_with("nxrt_") ||
      value.starts_with("_mlir_") || value.starts_with("hook_") ||
      value.contains("_part") || value.contains("_stage"))
    return 2;
  return 3;
}

/// Whether an attribute of `op` holds an integer at an edge: 0 or -1 at 64
/// bits, the extremes of a 32- or 64-bit type, or one beyond 32 bits.
static bool hasBoundaryInteger(Operation *op) {
  bool found = false;
  op->getAttrDictionary().walk([&](IntegerAttr attr) {
    const APInt &value = attr.getValue();
    unsigned width = value.getBitWidth();
    if (width < 32)
      return;
    found = found || value.isMaxSignedValue() || value.isMinSignedValue() ||
            value.isAllOnes() || value.getSignificantBits() > 32 ||
            (width == 64 && value.isZero());
  });
  return found;
}

static void recordShapes(ModuleOp module, size_t pipelineSlot) {
  module->walk([&](Operation *op) {
    Block *block = op->getBlock();
    bool endsBlockUnterminated =
        block && &block->back() == op && !op->hasTrait<OpTrait::IsTerminator>();
    llvm::hash_code key = llvm::hash_combine(
        pipelineSlot, op->getName().getStringRef(), getTypeClass(op),
        endsBlockUnterminated, getSymbolClass(op), hasBoundaryInteger(op));
    shapeCounters[static_cast<size_t>(key) % kNumShapeCounters] = 1;
  });
}

/// The error diagnostics of the current input, printed with a failure.
static std::vector<std::string> errorMessages;

[[noreturn]] static void fail(const std::string &what) {
  for (const std::string &message : errorMessages)
    std::fprintf(stderr, "nx-opt-fuzzer: diagnostic: %s\n", message.c_str());
  std::fprintf(stderr, "nx-opt-fuzzer: pipeline: '%s'\n",
               currentPipeline.c_str());
  std::fprintf(stderr, "nx-opt-fuzzer: %s\n", what.c_str());
  std::fflush(stderr);
  std::abort();
}

static DialectRegistry &getRegistry() {
  static DialectRegistry *registry = [] {
    auto *r = new DialectRegistry;
    registerAllDialects(*r);
    registerAllExtensions(*r);
    nx::registerNxDialects(*r);
    registerAllToLLVMIRTranslations(*r);
    return r;
  }();
  return *registry;
}

/// Whether `pass` is one of nx's (the rest are upstream's, which nx's
/// pipelines and interfaces plug into).
static bool isNxPass(Pass *pass) {
  StringRef argument = pass->getArgument();
  return argument.starts_with("nx-") || argument.contains("-nx-") ||
         argument == "nx-linalg-to-blas" || argument == "nx-linalg-to-dnnl" ||
         argument == "nx-linalg-to-openmp";
}

/// The first op, in pre-order, that fails its own verifier (regions
/// excluded), or null.
static Operation *findFirstInvalidOp(Operation *root) {
  Operation *invalid = nullptr;
  root->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (failed(verify(op, /*verifyRecursively=*/false))) {
      invalid = op;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return invalid;
}

/// Whether `root` holds what upstream's lowering of `func.constant` makes
/// of a function whose signature it cannot convert: an
/// `llvm.mlir.addressof` of a `func.func` that stays one (the module's
/// verifier reports it, as a symbol use). Upstream's own types do it
/// (`mlir-opt --convert-to-llvm=filter-dialects=func` on a `func.constant`
/// of a function of tensors), whatever nx passes ran before.
static bool hasAddressOfUnconvertedFunction(Operation *root) {
  WalkResult walk = root->walk([](LLVM::AddressOfOp address) {
    return SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
               address, address.getGlobalNameAttr())
               ? WalkResult::interrupt()
               : WalkResult::advance();
  });
  return walk.wasInterrupted();
}

namespace {
/// Verifies the IR after every pass, nested ones included, and checks that
/// a failing pass said why.
///
/// An upstream pass that breaks an op outside the nx dialect before any nx
/// pass changed the IR (canonicalize, convert-to-llvm converting the arith
/// ops in a linalg.matmul's body, or folding a memref.cast into a
/// linalg.generic whose static shapes then contradict its maps) is
/// upstream's bug, not a broken promise of nx's: nx-opt's pass manager
/// verifies after each pass and reports it as a located error. The harness
/// records it and stops checking that input. An nx pass that left the IR
/// as it was (the same fingerprint) cannot have caused it; nor can any nx
/// pass cause an address of an unconverted function
/// (hasAddressOfUnconvertedFunction).
struct VerifyEachPass final : PassInstrumentation {
  VerifyEachPass(const size_t &errors, bool &brokenUpstream)
      : errors(errors), brokenUpstream(brokenUpstream) {}

  void runBeforePass(Pass *pass, Operation *op) override {
    errorsBefore.push_back(errors);
    if (isNxPass(pass))
      fingerPrintsBefore.emplace_back(op);
  }
  void runAfterPass(Pass *pass, Operation *op) override {
    errorsBefore.pop_back();
    if (isNxPass(pass))
      nxPassChanged |=
          fingerPrintsBefore.pop_back_val() != OperationFingerPrint(op);
    if (brokenUpstream || succeeded(verify(op)))
      return;
    Operation *invalid = findFirstInvalidOp(op);
    bool upstreamOp = invalid && !isNxPass(pass) &&
                      invalid->getName().getDialectNamespace() != "nx";
    if (upstreamOp && (!nxPassChanged || hasAddressOfUnconvertedFunction(op))) {
      brokenUpstream = true;
      return;
    }
    fail("pass '" + pass->getArgument().str() +
         "' succeeded but left IR that does not verify");
  }
  void runAfterPassFailed(Pass *pass, Operation *) override {
    size_t before = errorsBefore.pop_back_val();
    if (isNxPass(pass)) {
      // A failed nx pass may have changed the IR on its way.
      fingerPrintsBefore.pop_back();
      nxPassChanged = true;
    }
    if (errors == before && !brokenUpstream)
      fail("pass '" + pass->getArgument().str() +
           "' failed without reporting an error");
  }

  const size_t &errors;
  bool &brokenUpstream;
  bool nxPassChanged = false;
  llvm::SmallVector<size_t> errorsBefore;
  llvm::SmallVector<OperationFingerPrint> fingerPrintsBefore;
};
} // namespace

static std::string readFile(const char *path) {
  std::string contents;
  if (FILE *file = std::fopen(path, "rb")) {
    char buffer[4096];
    size_t read;
    while ((read = std::fread(buffer, 1, sizeof buffer, file)) > 0)
      contents.append(buffer, read);
    std::fclose(file);
  }
  return contents;
}

/// -print_mutations=N FILE...: N mutations of each kind, and N crossovers
/// with the next file, of every input file, to see what the mutator does.
static void printMutations(int count, const std::vector<std::string> &paths) {
  const nx_fuzz::Mutator &mutator = getMutator();
  for (size_t f = 0; f < paths.size(); ++f) {
    std::string input = readFile(paths[f].c_str());
    std::string other = readFile(paths[(f + 1) % paths.size()].c_str());
    auto show = [&](const char *what, uint32_t seed, const std::string &out) {
      std::printf("==== %s %s seed %u: selector %u\n%s\n", paths[f].c_str(),
                  what, seed,
                  out.empty() ? 0u : static_cast<unsigned char>(out[0]),
                  out.empty() ? "" : out.c_str() + 1);
    };
    for (int k = 0; k < nx_fuzz::Mutator::kNumKinds; ++k) {
      auto kind = static_cast<nx_fuzz::Mutator::Kind>(k);
      for (int seed = 0; seed < count; ++seed) {
        std::string mutated = input;
        if (mutator.mutate(kind, mutated, 1 << 16, seed))
          show(nx_fuzz::Mutator::getName(kind), seed, mutated);
      }
    }
    for (int seed = 0; seed < count; ++seed) {
      std::string out;
      if (mutator.crossOver(input, other, out, 1 << 16, seed))
        show("crossover", seed, out);
    }
  }
}

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv) {
  int mutations = 0;
  std::vector<std::string> files;
  for (int i = 1; i < *argc; ++i) {
    const char *arg = (*argv)[i];
    if (std::strcmp(arg, "-list_pipelines=1") == 0) {
      for (const char *pipeline : kPipelines)
        std::printf("%s\n", pipeline);
      std::exit(0);
    }
    if (std::strncmp(arg, "-print_mutations=", 17) == 0)
      mutations = std::atoi(arg + 17);
    else if (arg[0] != '-')
      files.push_back(arg);
  }
  if (mutations > 0) {
    printMutations(mutations, files);
    std::exit(0);
  }
  registerAllPasses();
  nx::registerNxPasses();
  getRegistry();
  return 0;
}

/// The name of the op whose text begins line `line` (from 1) of `text`,
/// after its results (`%0:2 = `), in custom or generic form; "" when the
/// line begins no op (it continues one, or closes a region).
static std::string opNameBeginningLine(StringRef text, unsigned line) {
  SmallVector<StringRef> lines;
  text.split(lines, '\n');
  if (line == 0 || line > lines.size())
    return "";
  StringRef rest = lines[line - 1].ltrim();
  if (rest.starts_with("%")) {
    size_t equals = rest.find(" = ");
    if (equals == StringRef::npos)
      return "";
    rest = rest.drop_front(equals + 3);
  }
  bool generic = rest.consume_front("\"");
  StringRef name = rest.take_while([](char c) {
    return llvm::isAlnum(c) || c == '_' || c == '.' || c == '$';
  });
  if (!name.contains('.') ||
      (generic && !rest.drop_front(name.size()).starts_with("\"")))
    return "";
  return name.str();
}

/// Prints `module` and parses the text back in a fresh context. When that
/// fails, `culprit` names the op at the error: the op whose text begins the
/// error's line, else the op whose text starts last before the error by
/// the printer's positions. Those positions miss the line breaks that
/// attributes print themselves (StableHLO's output_operand_alias does), so
/// the line decides first.
static bool printsAndParsesBack(ModuleOp module, std::string &printed,
                                std::string &culprit) {
  // Positions of the ops in the text: lines from 1, columns from 0.
  AsmState::LocationMap positions;
  printed.clear();
  {
    llvm::raw_string_ostream os(printed);
    AsmState state(module, OpPrintingFlags(), &positions);
    module->print(os, state);
  }
  MLIRContext context(getRegistry(), MLIRContext::Threading::DISABLED);
  context.allowUnregisteredDialects();
  std::optional<std::pair<unsigned, unsigned>> errorAt;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    if (auto location = dyn_cast<FileLineColLoc>(diag.getLocation()))
      if (!errorAt)
        errorAt = {location.getLine(), location.getColumn()};
    return success();
  });
  if (parseSourceString<ModuleOp>(printed, &context, "printed"))
    return true;
  culprit = errorAt ? opNameBeginningLine(printed, errorAt->first) : "";
  if (!culprit.empty())
    return false;
  Operation *found = module;
  std::pair<unsigned, unsigned> latest = {0, 0};
  for (auto [op, position] : positions) {
    std::pair<unsigned, unsigned> start = {position.first, position.second + 1};
    if (errorAt && start <= *errorAt && start >= latest) {
      latest = start;
      found = op;
    }
  }
  culprit = found->getName().getStringRef().str();
  return false;
}

// Structure-aware mutations (Mutator.h) half of the time, libFuzzer's own
// (bytes, dictionary words) otherwise; both stack over a run's mutations.
extern "C" size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t maxSize);

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size,
                                          size_t maxSize, unsigned int seed) {
  std::minstd_rand rng(seed);
  if (size == 0 || rng() % 2 == 0)
    return LLVMFuzzerMutate(data, size, maxSize);
  std::string input(reinterpret_cast<const char *>(data), size);
  if (!getMutator().mutate(input, maxSize, static_cast<uint32_t>(rng())))
    return LLVMFuzzerMutate(data, size, maxSize);
  std::memcpy(data, input.data(), input.size());
  return input.size();
}

extern "C" size_t LLVMFuzzerCustomCrossOver(const uint8_t *data1, size_t size1,
                                            const uint8_t *data2, size_t size2,
                                            uint8_t *out, size_t maxOutSize,
                                            unsigned int seed) {
  // libFuzzer picks between the mutator and this one evenly; splicing a
  // third of those times leaves most steps to the mutator.
  std::minstd_rand rng(seed);
  if (rng() % 3 != 0)
    return 0;
  std::string result;
  if (!getMutator().crossOver(
          std::string(reinterpret_cast<const char *>(data1), size1),
          std::string(reinterpret_cast<const char *>(data2), size2), result,
          maxOutSize, static_cast<uint32_t>(rng())))
    return 0;
  std::memcpy(out, result.data(), result.size());
  return result.size();
}

/// Sets currentPipeline for an input whose selector byte is `selector` and
/// whose override line (if any) is `override`, and returns the feedback
/// slot of that pipeline; nothing when the override names what the list
/// does not run, which makes the input no input.
/// The input itself must print as text that parses back. When it does
/// not, the op at the failure decides: an nx op breaks nx's promise; any
/// other is upstream's to keep (func.func @"" prints as @<<INVALID EMPTY
/// SYMBOL>>), and the input is no use for nx (false).
static bool checkInputPrintsBack(ModuleOp module) {
  std::string printed, culprit;
  if (printsAndParsesBack(module, printed, culprit))
    return true;
  if (!StringRef(culprit).starts_with("nx."))
    return false;
  fail("input does not parse back after printing (at '" + culprit + "'):\n" +
       printed);
}

/// Whether `module` holds only what LLVM IR translation takes: the LLVM
/// dialect's ops, OpenMP's and builtin's, as nx-lower-to-cpu leaves them.
static bool isLoweredToLLVM(ModuleOp module) {
  WalkResult walk = module->walk([](Operation *op) {
    StringRef dialect = op->getName().getDialectNamespace();
    return op->isRegistered() && (dialect == "llvm" || dialect == "omp" ||
                                  dialect == "builtin")
               ? WalkResult::advance()
               : WalkResult::interrupt();
  });
  return !walk.wasInterrupted();
}

/// Whether an LLVM dialect op of `module` has a type the LLVM IR
/// translation cannot take (an `!llvm.struct` of a `tensor`, which the LLVM
/// dialect's verifier accepts): upstream's `mlir-translate --mlir-to-llvmir`
/// crashes on such a global alone, so an input that has one is not
/// translated after the passes.
static bool hasUntranslatableLLVMTypes(ModuleOp module) {
  auto untranslatable = [](Type type) { return !LLVM::isCompatibleType(type); };
  WalkResult walk = module->walk([&](Operation *op) {
    if (op->getName().getDialectNamespace() != "llvm")
      return WalkResult::advance();
    auto global = dyn_cast<LLVM::GlobalOp>(op);
    if ((global && untranslatable(global.getGlobalType())) ||
        llvm::any_of(op->getResultTypes(), untranslatable) ||
        llvm::any_of(op->getOperandTypes(), untranslatable))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return walk.wasInterrupted();
}

/// What the passes leave must read back, whichever op it fails at, and,
/// once it is all LLVM dialect, translate to LLVM IR as nx-runner and
/// nx-compile translate it (unless the input had LLVM ops of types the
/// translation cannot take).
static void checkOutput(ModuleOp module, const std::string &pipeline,
                        bool translatable) {
  std::string printed, culprit;
  if (!printsAndParsesBack(module, printed, culprit))
    fail("output of '" + pipeline + "' does not parse back (at '" + culprit +
         "'):\n" + printed);
  if (!translatable || !isLoweredToLLVM(module))
    return;
  errorMessages.clear();
  llvm::LLVMContext llvmContext;
  if (!translateModuleToLLVMIR(module, llvmContext))
    fail("output of '" + pipeline + "' does not translate to LLVM IR: " +
         llvm::join(errorMessages, "; ") + "\n" + printed);
}

static std::optional<size_t> selectPipeline(uint8_t selector,
                                            std::string_view override) {
  if (override.empty()) {
    currentPipeline = kPipelines[selector % kNumPipelines];
    return selector % kNumPipelines;
  }
  for (const std::string &name : nx_fuzz::getPipelineNames(override))
    if (!getAllowedNames().count(name))
      return std::nullopt;
  // convert-to-llvm reports a filter-dialects name it does not know
  // without a location (upstream's option handling): keep to real ones.
  if (!haveKnownFilterDialects(override))
    return std::nullopt;
  currentPipeline = std::string(override);
  return kNumPipelines + std::hash<std::string_view>()(override) % 16;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1)
    return 0;
  // MLIR's lexer reads up to a NUL terminator, which libFuzzer's buffer
  // lacks (as does any StringRef): a std::string has one.
  std::string text(reinterpret_cast<const char *>(data) + 1, size - 1);
  // A first line `// pipeline: ...` overrides the selector byte, for pass
  // options and orders the list does not have. It may only name what the
  // list runs; an override that does not parse is no input.
  std::string_view override = nx_fuzz::getPipelineOverride(text);
  std::optional<size_t> pipelineSlot = selectPipeline(data[0], override);
  if (!pipelineSlot)
    return -1;
  const std::string &pipeline = currentPipeline;

  MLIRContext context(getRegistry(), MLIRContext::Threading::DISABLED);
  // As nx-opt --allow-unregistered-dialect, which several tests use: passes
  // meet ops they know nothing about.
  context.allowUnregisteredDialects();
  size_t errors = 0;
  errorMessages.clear();
  // Before the passes run, only upstream code builds ops without a location
  // (the bodies of linalg's named ops, for one, which its verifier then
  // rejects for unsigned element types): such an input is upstream's.
  bool passesRun = false, unlocatedBeforePasses = false;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    if (diag.getSeverity() != DiagnosticSeverity::Error)
      return success();
    ++errors;
    if (isa<UnknownLoc>(diag.getLocation())) {
      if (!passesRun) {
        unlocatedBeforePasses = true;
        return success();
      }
      fail("error without a location: " + diag.str());
    }
    std::string message;
    llvm::raw_string_ostream os(message);
    os << diag.getLocation() << ": " << diag.str();
    errorMessages.push_back(std::move(message));
    return success();
  });

  // As nx-opt does, top-level ops other than one module are wrapped in one.
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(text, &context, "fuzz-input");
  // NX_FUZZ_PARSE_ONLY: triage.py asks whether parsing alone fails, for a
  // crash whose stack the sanitizer could not unwind (a call through a null
  // pointer inside libMLIR leaves it only the faulting frame).
  static const bool parseOnly = std::getenv("NX_FUZZ_PARSE_ONLY") != nullptr;
  if (parseOnly)
    return 0;
  if (!module || failed(verify(*module)))
    return unlocatedBeforePasses ? -1 : 0;

  recordShapes(*module, *pipelineSlot);
  bool translatable = !hasUntranslatableLLVMTypes(*module);

  if (!checkInputPrintsBack(*module))
    return -1;

  // convert-to-llvm's filter-dialects names dialects that must be loaded
  // (it reports "dialect not loaded" without a location otherwise); an
  // input may use none of them.
  for (StringRef name : {"nx", "func", "memref"})
    context.getOrLoadDialect(name);

  PassManager pm(&context);
  pm.enableVerifier(false);
  bool brokenUpstream = false;
  pm.addInstrumentation(
      std::make_unique<VerifyEachPass>(errors, brokenUpstream));
  if (!override.empty()) {
    std::string ignored;
    llvm::raw_string_ostream ignoredStream(ignored);
    if (failed(parsePassPipeline(pipeline, pm, ignoredStream)))
      return -1;
  } else if (failed(parsePassPipeline(pipeline, pm, llvm::errs()))) {
    fail("bad pipeline in the harness: " + pipeline);
  }
  passesRun = true;
  if (failed(pm.run(*module)) || brokenUpstream)
    return 0;

  checkOutput(*module, pipeline, translatable);
  return 0;
}

//===- nx-opt-fuzzer.cpp - libFuzzer harness for nx's parser and passes --===//
//
// An input is one selector byte followed by MLIR text. The text is parsed and
// verified; the selector picks one of the pipelines below (every nx pass, the
// nx-lower-to-cpu pipeline and upstream convert-to-llvm, some with options),
// which runs on the module.
// Beyond crashes, sanitizer reports and time-outs, which libFuzzer catches
// itself, the harness aborts on the broken promises it can see:
//   - an error diagnostic without a source location;
//   - a pass that succeeds but leaves IR that does not verify (checked
//     after every pass, nested ones included, so the culprit is named);
//   - a pass that fails without reporting an error;
//   - a module that does not parse back after printing.
//
//   nx-opt-fuzzer CORPUS_DIR -dict=tools/nx-opt-fuzzer/nx.dict
//   nx-opt-fuzzer -list_pipelines=1     prints the pipelines, one per line
//
//===----------------------------------------------------------------------===//

#include "nx/InitNx.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace mlir;

// Textual pipelines on builtin.module; index = selector byte modulo count.
// The seed corpus script reads this list (-list_pipelines=1) to give each
// test file the pipelines its RUN lines use, so append rather than reorder.
static const char *const kPipelines[] = {
    "",
    "canonicalize,cse",
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
    "convert-linalg-to-openmp{num-threads-function=threads min-work=16}",
    // On tensors, before bufferization.
    "func.func(nx-split-reductions{vector-bits=128})",
};
static constexpr size_t kNumPipelines = std::size(kPipelines);

// LLVM's allocators poison their free space for ASan in code compiled with
// it (ours, where their templates are inlined) but not in the uninstrumented
// libMLIR that hands the same memory out: manual poisoning would report
// false use-after-poison errors.
extern "C" const char *__asan_default_options() {
  return "allow_user_poisoning=0";
}

/// The error diagnostics of the current input, printed with a failure.
static std::vector<std::string> errorMessages;

[[noreturn]] static void fail(const std::string &what) {
  for (const std::string &message : errorMessages)
    std::fprintf(stderr, "nx-opt-fuzzer: diagnostic: %s\n", message.c_str());
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
    return r;
  }();
  return *registry;
}

namespace {
/// Verifies the IR after every pass, nested ones included, and checks that
/// a failing pass said why.
struct VerifyEachPass final : PassInstrumentation {
  explicit VerifyEachPass(const size_t &errors) : errors(errors) {}

  void runBeforePass(Pass *, Operation *) override {
    errorsBefore.push_back(errors);
  }
  void runAfterPass(Pass *pass, Operation *op) override {
    errorsBefore.pop_back();
    if (failed(verify(op)))
      fail("pass '" + pass->getArgument().str() +
           "' succeeded but left IR that does not verify");
  }
  void runAfterPassFailed(Pass *pass, Operation *) override {
    size_t before = errorsBefore.pop_back_val();
    if (errors == before)
      fail("pass '" + pass->getArgument().str() +
           "' failed without reporting an error");
  }

  const size_t &errors;
  llvm::SmallVector<size_t> errorsBefore;
};
} // namespace

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv) {
  for (int i = 1; i < *argc; ++i) {
    if (std::strcmp((*argv)[i], "-list_pipelines=1") == 0) {
      for (const char *pipeline : kPipelines)
        std::printf("%s\n", pipeline);
      std::exit(0);
    }
  }
  registerAllPasses();
  nx::registerNxPasses();
  getRegistry();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1)
    return 0;
  const char *pipeline = kPipelines[data[0] % kNumPipelines];
  // MLIR's lexer reads up to a NUL terminator, which libFuzzer's buffer
  // lacks (as does any StringRef): a std::string has one.
  std::string text(reinterpret_cast<const char *>(data) + 1, size - 1);

  MLIRContext context(getRegistry(), MLIRContext::Threading::DISABLED);
  // As nx-opt --allow-unregistered-dialect, which several tests use: passes
  // meet ops they know nothing about.
  context.allowUnregisteredDialects();
  size_t errors = 0;
  errorMessages.clear();
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    if (diag.getSeverity() != DiagnosticSeverity::Error)
      return success();
    ++errors;
    if (isa<UnknownLoc>(diag.getLocation()))
      fail("error without a location: " + diag.str());
    std::string message;
    llvm::raw_string_ostream os(message);
    os << diag.getLocation() << ": " << diag.str();
    errorMessages.push_back(std::move(message));
    return success();
  });

  // As nx-opt does, top-level ops other than one module are wrapped in one.
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(text, &context, "fuzz-input");
  if (!module || failed(verify(*module)))
    return 0;

  // convert-to-llvm's filter-dialects names dialects that must be loaded
  // (it reports "dialect not loaded" without a location otherwise); an
  // input may use none of them.
  for (StringRef name : {"nx", "func", "memref"})
    context.getOrLoadDialect(name);

  PassManager pm(&context);
  pm.enableVerifier(false);
  pm.addInstrumentation(std::make_unique<VerifyEachPass>(errors));
  if (failed(parsePassPipeline(pipeline, pm, llvm::errs())))
    fail(std::string("bad pipeline in the harness: ") + pipeline);
  if (failed(pm.run(*module)))
    return 0;

  // What a pass prints must read back.
  std::string printed;
  {
    llvm::raw_string_ostream os(printed);
    module->print(os);
  }
  MLIRContext reparseContext(getRegistry(), MLIRContext::Threading::DISABLED);
  reparseContext.allowUnregisteredDialects();
  ScopedDiagnosticHandler silence(&reparseContext,
                                  [](Diagnostic &) { return success(); });
  if (!parseSourceString<ModuleOp>(printed, &reparseContext, "printed"))
    fail(std::string("output of '") + pipeline + "' does not parse back:\n" +
         printed);
  return 0;
}

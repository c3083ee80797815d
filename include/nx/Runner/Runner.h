//===- Runner.h - compile nx programs once, run them many times -*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The host-side library behind `nx-runner`: it lowers a module with
// `nx-lower-to-cpu`, JIT-compiles it with MLIR's ExecutionEngine, resolves its
// call sites into an nxrt program (by calling the module's `__nx_init`) and
// then runs public functions on host tensors, as often as needed and from any
// number of threads at once.
//
//   auto runtime = Runtime::create();                  // owns nxrt_runtime_t
//   registerDebugCallbacks(runtime->get());            // optional built-ins
//   if (auto err = runtime->loadCallbackLibrary("libfoo.so")) ...
//   auto exe = Executable::compileFile("model.mlir", runtime->get());
//   auto results = (*exe)->run("main", inputs, RunOptions{/*timeoutMs=*/100});
//
// Errors are reported as llvm::Error / llvm::Expected with a readable message
// (the library does not use exceptions). A failed run returns the runtime's
// first failure, which names the callback and the op's `file:line:col`.
//
// The MLIR-free parts (host tensors, the runtime and callback libraries, the
// built-in nx.debug.* callbacks, bridge dispatch, calling entry points) are
// nxhost's (runtime/include/nxhost/, namespace nxhost), shared with
// nxrt-run; the API below names them there.
//
//===----------------------------------------------------------------------===//

#ifndef NX_RUNNER_RUNNER_H
#define NX_RUNNER_RUNNER_H

#include "nxrt/nxrt.h"

#include "nx/Transforms/Passes.h"
#include "nxhost/BridgeDispatcher.h"
#include "nxhost/DebugCallbacks.h"
#include "nxhost/EntryCall.h"
#include "nxhost/HostRuntime.h"
#include "nxhost/HostTensor.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace llvm {
class LLVMContext;
class Module;
class TargetMachine;
} // namespace llvm

namespace mlir {
namespace func {
class FuncOp;
} // namespace func
class ExecutionEngine;
class Operation;
class MLIRContext;
class TimingScope;
class Type;
} // namespace mlir

namespace mlir::nx::runner {

class JitMemory;
class CompileProgress;

//===----------------------------------------------------------------------===//
// Executable
//===----------------------------------------------------------------------===//

struct CompileOptions {
  /// Name used in runtime messages.
  std::string programName = "nx-program";
  /// nx-lower-to-cpu's options (LowerToCpuOptions.def), with its defaults;
  /// the runners take each as a flag, except vectorBits, which comes from
  /// the machine compiled for (0: the host's).
#define NX_LOWER_TO_CPU_OPTION(type, field, flag, value, description)          \
  type field = value;
#include "nx/Pipelines/LowerToCpuOptions.def"
  /// LLVM IR optimization and code generation level (0-3).
  unsigned optLevel = 2;
  /// When set, receives the lowered LLVM-dialect module as text (with
  /// `separateStages`, followed by each stage's module after a
  /// "// -----" line).
  std::string *loweredIR = nullptr;
  /// Compile and JIT each stage as its own unit, the way a device executable
  /// would be: every `func.func` with a body and `nx.device` (the stages
  /// nx-segment-callbacks creates) is moved into a module of its own (with
  /// the private functions it calls), made public, lowered and JIT-compiled
  /// by its own ExecutionEngine (and its own nxrt program, should it have
  /// call sites). The main module keeps a private declaration of each stage,
  /// which its JIT resolves to the stage's separately compiled function:
  /// both sides lower the same func signature, so the plain symbol has the
  /// same (expanded memref) calling convention. A stage is a public function
  /// of its module, so it gets read-only arguments and returns buffers its
  /// caller owns and frees. Results are identical with and without.
  bool separateStages = false;
  /// When set, the compilation's phases are timed as scopes nested in it:
  /// parse, nx-lower-to-cpu (with a scope per pass), translate to LLVM IR,
  /// JIT code generation and load (__nx_init).
  TimingScope *timing = nullptr;
  /// When set, shows each of those phases as it starts.
  CompileProgress *progress = nullptr;
  /// Print the statistics of nx-lower-to-cpu's passes to stderr once it has
  /// run (nx/Support/PassStatistics.h).
  bool passStatistics = false;
  /// Attach the op, in generic form, to every diagnostic of a context the
  /// compile creates (compileSource), as --mlir-print-op-on-diagnostic does.
  bool printOpOnDiagnostic = false;
  /// When it names a public function with a body, only that function and
  /// the symbols it uses are compiled: the other public functions become
  /// private and symbol DCE drops what nothing uses, so running one entry
  /// of a file of many compiles one program. Otherwise (empty, or no such
  /// function) every public function is compiled and is an entry.
  std::string onlyEntry;
};

/// Phase `name` of a compile starts: shown by `options.progress` and timed
/// as a scope of `options.timing` (a no-op scope without one), which the
/// caller keeps while the phase runs.
TimingScope startPhase(const CompileOptions &options, llvm::StringRef name);

/// Runs nx-lower-to-cpu with `options` on `module` (tensors in, LLVM dialect
/// out), timed and with pass statistics as the options ask; the error
/// carries the pipeline's diagnostics.
llvm::Error lowerToCpu(ModuleOp module, const CompileOptions &options);

/// The host-visible signature of a public function: tokens are left out
/// (nx-lower-to-cpu erases them), and anything but a ranked tensor of an nxrt
/// element type makes it unsupported.
nxhost::EntrySignature getEntrySignature(func::FuncOp func);

/// The names of the `nx.callback` declarations in `module`, in order: the
/// callbacks a host binds before running it.
std::vector<std::string> getCallbackNames(ModuleOp module);

/// A compiled module: JIT code plus the nxrt program holding its call sites.
/// `run` is thread-safe.
class Executable {
public:
  /// Lowers a copy of `module` (which is left untouched), JIT-compiles it and
  /// registers its call sites into a new program of `runtime`, which must
  /// outlive the Executable.
  static llvm::Expected<std::unique_ptr<Executable>>
  compile(ModuleOp module, nxrt_runtime_t *runtime,
          const CompileOptions &options = {});
  /// Parses `source` (named `bufferName` in locations) in a context the
  /// Executable owns, then compiles it.
  static llvm::Expected<std::unique_ptr<Executable>>
  compileSource(llvm::StringRef source, llvm::StringRef bufferName,
                nxrt_runtime_t *runtime, const CompileOptions &options = {});
  static llvm::Expected<std::unique_ptr<Executable>>
  compileFile(llvm::StringRef path, nxrt_runtime_t *runtime,
              const CompileOptions &options = {});

  ~Executable();

  /// Public functions with a body, in module order.
  llvm::ArrayRef<nxhost::EntrySignature> entries() const {
    return entrySignatures;
  }
  const nxhost::EntrySignature *findEntry(llvm::StringRef name) const;
  /// Names of the module's nx.callback declarations.
  llvm::ArrayRef<std::string> callbackNames() const {
    return declaredCallbacks;
  }
  nxrt_program_t *program() const { return programHandle; }
  /// With CompileOptions::separateStages: the stages compiled as their own
  /// units, in module order.
  llvm::ArrayRef<std::unique_ptr<Executable>> stages() const {
    return stageExecutables;
  }

  /// Runs `entry` on `inputs`: nxrt_run_begin on the calling thread, the
  /// compiled function, nxrt_run_end. Inputs are checked against the
  /// signature; results are fresh host tensors. A run that failed in the
  /// runtime returns its message.
  llvm::Expected<std::vector<nxhost::HostTensor>>
  run(llvm::StringRef entry, llvm::ArrayRef<nxhost::HostTensor> inputs,
      const nxhost::RunOptions &options = {}) const;

private:
  Executable();
  struct Entry;
  /// The stages compile() compiles as units of their own, and what the
  /// module's unit needs of them.
  struct SeparateStages;

  // The phases of compile(), in order.
  /// Compiles each separate stage of `lowered` (CompileOptions) on its own
  /// and leaves a private declaration of it in `lowered`.
  llvm::Error compileSeparateStages(ModuleOp lowered,
                                    const CompileOptions &options,
                                    SeparateStages &stages);
  /// JIT-compiles `lowered` (in the LLVM dialect), bound to libnxrt and to
  /// the separate stages, and resolves the entry points.
  llvm::Error generateCode(ModuleOp lowered, const CompileOptions &options,
                           const SeparateStages &stages);
  /// Looks up the C interface of every supported entry point.
  llvm::Error resolveEntryPoints(const SeparateStages &stages);
  /// Creates the program on runtimeHandle and runs __nx_init to add its sites.
  llvm::Error loadSites(const CompileOptions &options);

  std::unique_ptr<MLIRContext> ownedContext;
  /// Where jitEngine maps its code and data; outlives it.
  std::unique_ptr<JitMemory> jitMemory;
  std::unique_ptr<ExecutionEngine> jitEngine;
  nxrt_runtime_t *runtimeHandle = nullptr;
  nxrt_program_t *programHandle = nullptr;
  std::vector<nxhost::EntrySignature> entrySignatures;
  std::vector<void (*)(void **)> packedEntries;
  std::vector<std::string> declaredCallbacks;
  /// Destroyed after jitEngine (see the destructor): its code calls theirs.
  std::vector<std::unique_ptr<Executable>> stageExecutables;
};

/// Registers the dialects, interfaces and LLVM IR translations a context
/// needs to parse and compile nx programs.
void registerRunnerDialects(DialectRegistry &registry);

/// The target machine Executable generates code with: the host's CPU and
/// features at `optLevel` (0-3), the small code model and
/// position-independent code.
llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
createHostTargetMachine(unsigned optLevel);

/// The LLVM IR optimization Executable runs before code generation: LLVM's
/// -O<optLevel> pipeline (0-3) for the host's target machine (its vector
/// width), which inlines, unrolls and vectorizes the loops of compiled
/// compute. Functions that translateForJit marks optnone are left alone, and
/// so is a module without loops elsewhere (it would only pay compile time).
/// The function owns what it needs and may outlive the engine it serves.
llvm::Expected<std::function<llvm::Error(llvm::Module *)>>
makeJitOptimizer(unsigned optLevel);

/// Translates a lowered module to LLVM IR as Executable does before code
/// generation: loop-free functions that make many host calls (the glue of
/// callback-heavy programs) are marked for -O0 code generation. Null on
/// failure, with diagnostics emitted at the module.
std::unique_ptr<llvm::Module> translateForJit(Operation *module,
                                              llvm::LLVMContext &context);

} // namespace mlir::nx::runner

#endif // NX_RUNNER_RUNNER_H

//===- Runner.h - compile nx programs once, run them many times -*- C++ -*-===//
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
// Callback libraries
// ------------------
// A callback library is a shared object that exports
//
//   extern "C" nxrt_status_t *nx_register_callbacks(nxrt_runtime_t *runtime);
//
// It binds its host callbacks (nxrt_register_callback, usually in
// NXRT_DISPATCH_INLINE mode) and custom-call targets
// (nxrt_register_custom_call) on `runtime` and returns NULL, or an owned
// status on failure. It is called once per library, before any program is
// compiled. The library must link (or otherwise resolve) libnxrt's symbols
// from the same libnxrt the host uses. See examples/callbacks/.
//
// Built-in debug callbacks (registerDebugCallbacks), all usable from
// io_callback (no results) and, where noted, from elixir_call. Each is also
// bound under "<name>.<suffix>" aliases (e.g. @nx.debug.print.i64), since a
// callback symbol declares a single signature:
//   nx.debug.print         prints "<label>: <type> = <values>" for every
//                          argument to stdout; label = static_args/attrs
//                          "label" (string), else the op location. As an
//                          elixir_call, its results are copies of its args.
//   nx.debug.identity      elixir_call: results = copies of the arguments
//                          (same count, dtypes and shapes).
//   nx.debug.sleep         sleeps attrs "ms" (i64) milliseconds, then behaves
//                          as nx.debug.identity (for deadline tests).
//   nx.debug.fail          fails with attrs "message" (string, default
//                          "nx.debug.fail called").
//   nx.debug.assert_close  compares args 0 and 1 (same dtype and shape),
//                          elementwise |a - b| <= atol + rtol * |b| (attrs
//                          "atol", "rtol", f64, default 0); fails naming the
//                          first differing index and both values.
//
//===----------------------------------------------------------------------===//

#ifndef NX_RUNNER_RUNNER_H
#define NX_RUNNER_RUNNER_H

#include "nxrt/nxrt.h"

#include "nx/Transforms/Passes.h"

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

/// Name of the entry point a callback library exports.
inline constexpr llvm::StringLiteral kRegisterCallbacksSymbol =
    "nx_register_callbacks";
using RegisterCallbacksFn = nxrt_status_t *(*)(nxrt_runtime_t *);
/// Optional second export: called once before the runtime is destroyed,
/// after its bridge is closed and every run has ended, so that a library
/// can close the streams and stop the threads it started for it.
inline constexpr llvm::StringLiteral kReleaseCallbacksSymbol =
    "nx_release_callbacks";
using ReleaseCallbacksFn = void (*)(nxrt_runtime_t *);

//===----------------------------------------------------------------------===//
// HostTensor
//===----------------------------------------------------------------------===//

/// An owning, dense, row-major tensor in host memory (64-byte aligned).
/// Move-only; `clone()` makes a deep copy.
class HostTensor {
public:
  HostTensor() = default;
  /// A zero-filled tensor. The dtype must be valid and dims non-negative.
  HostTensor(nxrt_dtype_t dtype, llvm::ArrayRef<int64_t> shape);
  HostTensor(HostTensor &&) = default;
  HostTensor &operator=(HostTensor &&) = default;

  /// A zero-filled tensor, or an error for an invalid dtype, negative dims or
  /// a byte size that overflows.
  static llvm::Expected<HostTensor> create(nxrt_dtype_t dtype,
                                           llvm::ArrayRef<int64_t> shape);

  /// Parses `VALUE:TYPE`, e.g. `[1, 2, 3]:tensor<3xf32>`, `7:tensor<i64>`,
  /// `true:tensor<2xi1>` (a scalar VALUE is splatted). VALUE uses the syntax
  /// of MLIR's `dense<...>` attribute. The context is used to parse the type.
  static llvm::Expected<HostTensor> parseLiteral(llvm::StringRef text,
                                                 MLIRContext &context);

  /// Reads / writes a NumPy .npy file (format 1.0-3.0, C order, little
  /// endian; dtypes bool, i1..i8, u1..u8, f2, f4, f8, c8, c16).
  static llvm::Expected<HostTensor> readNpy(llvm::StringRef path);
  llvm::Error writeNpy(llvm::StringRef path) const;

  HostTensor clone() const;

  nxrt_dtype_t dtype() const { return dtype_; }
  llvm::ArrayRef<int64_t> shape() const { return shape_; }
  int64_t rank() const { return static_cast<int64_t>(shape_.size()); }
  int64_t numElements() const;
  size_t byteSize() const { return size_; }
  void *data() { return data_.get(); }
  const void *data() const { return data_.get(); }

  /// A non-owning nxrt view of this tensor.
  nxrt_tensor_t view() const;

  /// MLIR spelling of the type, e.g. "tensor<2x3xf32>".
  std::string typeString() const;
  /// The values, nested by dimension: "[[1, 2], [3, 4]]"; a scalar prints
  /// bare ("5"). Floats use the shortest round-tripping form.
  std::string valuesString() const;
  /// "tensor<4xf32> = [1, 2, 3, 4]".
  std::string toString() const;

  /// Same dtype, shape and bytes.
  bool operator==(const HostTensor &other) const;
  bool operator!=(const HostTensor &other) const { return !(*this == other); }

private:
  struct FreeDeleter {
    void operator()(void *p) const;
  };
  nxrt_dtype_t dtype_ = NXRT_DTYPE_INVALID;
  llvm::SmallVector<int64_t, 4> shape_;
  size_t size_ = 0;
  std::unique_ptr<uint8_t[], FreeDeleter> data_;
};

/// Formats the values of an nxrt view like HostTensor::valuesString.
std::string formatValues(const nxrt_tensor_t &view);
/// "tensor<2x3xf32>" for an nxrt view.
std::string formatType(const nxrt_tensor_t &view);

//===----------------------------------------------------------------------===//
// Runtime
//===----------------------------------------------------------------------===//

/// Owns an nxrt_runtime_t and the callback libraries loaded into it.
/// Destroy every Executable created against it first.
class Runtime {
public:
  static std::unique_ptr<Runtime> create();
  ~Runtime();
  Runtime(const Runtime &) = delete;
  Runtime &operator=(const Runtime &) = delete;

  nxrt_runtime_t *get() const { return runtime_; }

  /// dlopens `path` and calls its nx_register_callbacks with this runtime;
  /// its nx_release_callbacks, if it exports one, runs in the destructor.
  /// Errors name the library and what went wrong.
  llvm::Error loadCallbackLibrary(llvm::StringRef path);

  /// Closes the bridge and releases the callback libraries (their
  /// nx_release_callbacks, last loaded first), once; the destructor does it
  /// too. Call it when every run has ended and before destroying the
  /// programs, whose call sites requests still being served refer to.
  void shutdown();

private:
  Runtime() = default;
  nxrt_runtime_t *runtime_ = nullptr;
  std::vector<void *> libraries_;
  std::vector<ReleaseCallbacksFn> releases_;
};

/// Registers the built-in nx.debug.* callbacks (see the top of this file) on
/// `runtime` in inline mode. As a callback symbol has one signature, every
/// name in `names` of the form "<built-in>.<suffix>" (e.g.
/// "nx.debug.print.i64", typically Executable::callbackNames()) is bound to
/// that built-in too.
llvm::Error registerDebugCallbacks(nxrt_runtime_t *runtime,
                                   llvm::ArrayRef<std::string> names = {});

/// Converts an nxrt status to an llvm::Error (NULL -> success) and frees it.
llvm::Error statusToError(nxrt_status_t *status);

//===----------------------------------------------------------------------===//
// Bridge dispatcher
//===----------------------------------------------------------------------===//

/// Serves host callbacks in bridge mode: routes every callback of
/// `runtime` bound inline through its bridge, each call waiting at most
/// `timeoutMs` for its reply (<= 0: only the run deadline), and starts
/// `numThreads` dispatcher threads that pull the requests and run the bound
/// handlers (nxrt_request_serve: arguments are copies, so a call that timed
/// out on the compute side never leaves a handler reading freed memory).
/// Callback libraries and the built-in debug callbacks bind their handlers
/// on the same runtime: their streams serve the program, and a bridge hook
/// a library installs takes the requests instead of these threads.
/// Custom-call targets stay inline. The destructor closes the runtime's
/// bridge and joins the threads.
class BridgeDispatcher {
public:
  static llvm::Expected<std::unique_ptr<BridgeDispatcher>>
  create(nxrt_runtime_t *runtime, unsigned numThreads, int64_t timeoutMs);
  ~BridgeDispatcher();

  /// Requests served so far.
  uint64_t numServed() const;

  struct Impl;

private:
  explicit BridgeDispatcher(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

//===----------------------------------------------------------------------===//
// Executable
//===----------------------------------------------------------------------===//

struct CompileOptions {
  /// Name used in runtime messages.
  std::string programName = "nx-program";
  /// Passed to nx-lower-to-cpu (lower-blocks).
  bool lowerBlocks = true;
  /// Passed to nx-lower-to-cpu (blas): contractions on the optimized BLAS.
  bool blas = true;
  /// Passed to nx-lower-to-cpu (parallel): large parallel loop nests run on
  /// nxrt_compute_threads() OpenMP threads.
  bool parallel = true;
  /// Passed to nx-lower-to-cpu (vectorize): elementwise linalg ops are
  /// vectorized in MLIR at the host's vector width.
  bool vectorize = true;
  /// Passed to nx-lower-to-cpu (strict-reductions): floating-point
  /// reductions in their serial order, not reassociated into vector lanes.
  bool strictReductions = false;
  /// Passed to nx-lower-to-cpu (libm-math): f32 math functions call libm
  /// instead of the polynomial approximations.
  bool libmMath = false;
  /// Passed to nx-lower-to-cpu (max-function-ops): functions with more ops
  /// are compiled as pieces of at most this many (0: whole).
  int64_t maxFunctionOps = nx::SplitFunctionsPassOptions().maxOps;
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
};

struct RunOptions {
  /// Deadline for the whole run in ms (<= 0: none).
  int64_t timeoutMs = 0;
};

/// The host-visible type of an entry argument or result.
struct TensorSpec {
  nxrt_dtype_t dtype = NXRT_DTYPE_INVALID;
  /// ShapedType::kDynamic for dynamic dims.
  llvm::SmallVector<int64_t, 4> shape;
  std::string type; // "tensor<4xf32>"
};

struct EntrySignature {
  std::string name;
  std::vector<TensorSpec> args, results;
  /// Set when the function cannot be called by the runner (non-tensor
  /// arguments, unsupported element types): the reason.
  std::string unsupported;
};

/// The host-visible signature of a public function: tokens are left out
/// (nx-lower-to-cpu erases them), and anything but a ranked tensor of an nxrt
/// element type makes it unsupported.
EntrySignature getEntrySignature(func::FuncOp func);

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
  llvm::ArrayRef<EntrySignature> entries() const { return entries_; }
  const EntrySignature *findEntry(llvm::StringRef name) const;
  /// Names of the module's nx.callback declarations.
  llvm::ArrayRef<std::string> callbackNames() const { return callbacks_; }
  nxrt_program_t *program() const { return program_; }
  /// With CompileOptions::separateStages: the stages compiled as their own
  /// units, in module order.
  llvm::ArrayRef<std::unique_ptr<Executable>> stages() const { return stages_; }

  /// Runs `entry` on `inputs`: nxrt_run_begin on the calling thread, the
  /// compiled function, nxrt_run_end. Inputs are checked against the
  /// signature; results are fresh host tensors. A run that failed in the
  /// runtime returns its message.
  llvm::Expected<std::vector<HostTensor>>
  run(llvm::StringRef entry, llvm::ArrayRef<HostTensor> inputs,
      const RunOptions &options = {}) const;

private:
  Executable();
  struct Entry;
  std::unique_ptr<MLIRContext> ownedContext_;
  /// Where engine_ maps its code and data; outlives it.
  std::unique_ptr<JitMemory> jitMemory_;
  std::unique_ptr<ExecutionEngine> engine_;
  nxrt_runtime_t *runtime_ = nullptr;
  nxrt_program_t *program_ = nullptr;
  std::vector<EntrySignature> entries_;
  std::vector<void (*)(void **)> packed_;
  std::vector<std::string> callbacks_;
  /// Destroyed after engine_ (see the destructor): its code calls theirs.
  std::vector<std::unique_ptr<Executable>> stages_;
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

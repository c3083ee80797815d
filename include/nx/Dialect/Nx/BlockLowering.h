//===- BlockLowering.h - the nx.block lowering registry ---------*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The C++ analogue of EXLA's `EXLA.CustomCall` protocol. For each
// block kind (the `name` of an `nx.block`, e.g. "Nx.Block.LinAlg.QR") an
// implementation looks at the block (its configuration, input and result
// types) and the target platform and returns either *skip* (std::nullopt:
// the default region is inlined) or a custom-call spec that
// `convert-nx-to-custom-call` turns into an `nx.custom_call`.
//
// The registry is process-wide and lives in ONE shared library,
// libNxBlockLowering.so, that nx-opt, the mlir-opt plugin libNxPlugin.so and
// third-party plugins all link: a plugin registers its implementations from
// its pass-plugin entry point (`mlirGetPassPluginInfo`) and every pass in the
// process sees them. The library depends on libMLIR.so only (never on the
// statically linked nx dialect), so requests describe the block with
// builtin types and attributes.
//
//===----------------------------------------------------------------------===//

#ifndef NX_DIALECT_NX_BLOCKLOWERING_H
#define NX_DIALECT_NX_BLOCKLOWERING_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/TypeRange.h"
#include "mlir/Support/LLVM.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

#if defined(_WIN32)
#define NX_BLOCK_LOWERING_API __declspec(dllexport)
#else
#define NX_BLOCK_LOWERING_API __attribute__((visibility("default")))
#endif

namespace mlir::nx {

/// What an implementation sees: one `nx.block` and the target platform.
struct BlockLoweringRequest {
  /// The block kind (`nx.block`'s `name`).
  StringRef kind;
  /// The block's static configuration (`config`).
  DictionaryAttr config;
  /// Types of the block's inputs and results, in order.
  TypeRange inputTypes;
  TypeRange resultTypes;
  /// Target platform, as given to `convert-nx-to-custom-call`: "host",
  /// "cuda", "rocm" or "tpu".
  StringRef platform;
  /// The `nx.block` op itself (for its location and context); may be null in
  /// unit tests.
  Operation *op = nullptr;
};

/// A custom call replacing a block (EXLA.CustomCall.Spec).
struct CustomCallSpec {
  /// The registered target, e.g. "qr_cpu_custom_call_f32".
  std::string callTargetName;
  /// Entries of the custom call's `backend_config` dictionary (api_version 4).
  SmallVector<NamedAttribute> attributes;
  /// Element types the target expects for each input. Empty: the inputs'
  /// own types. Otherwise one entry per input; inputs of another element
  /// type are converted (arith.extf / truncf / extsi / trunci / ...) before
  /// the call.
  SmallVector<Type> operandElementTypes;
  /// Element types the target produces for each result. Empty: the block's
  /// result types. Otherwise one entry per result; results are converted
  /// back to the block's result types after the call.
  SmallVector<Type> resultElementTypes;
  /// Whether the call has side effects (`has_side_effect`).
  bool hasSideEffect = false;
};

/// An implementation for one block kind: std::nullopt means *skip*.
using BlockLoweringFn =
    std::function<std::optional<CustomCallSpec>(const BlockLoweringRequest &)>;

/// The process-wide registry of block lowerings. Thread-safe.
class NX_BLOCK_LOWERING_API BlockLoweringRegistry {
public:
  /// The single registry of the process (stored in libNxBlockLowering.so).
  static BlockLoweringRegistry &get();

  /// Registers `fn` for `kind`. Returns false, and changes nothing, when
  /// `kind` already has an implementation, unless `replace` is set.
  bool registerLowering(StringRef kind, BlockLoweringFn fn,
                        bool replace = false);
  /// Removes the implementation of `kind`; false when there was none.
  bool unregisterLowering(StringRef kind);
  /// Whether `kind` has an implementation.
  bool contains(StringRef kind) const;
  /// Registered kinds, sorted.
  std::vector<std::string> getKinds() const;

  /// Runs the implementation for `request.kind`: std::nullopt when there is
  /// none or it skips. The implementation runs without the registry lock
  /// held, so it may use the registry itself.
  std::optional<CustomCallSpec>
  lookup(const BlockLoweringRequest &request) const;

  BlockLoweringRegistry(const BlockLoweringRegistry &) = delete;
  BlockLoweringRegistry &operator=(const BlockLoweringRegistry &) = delete;

private:
  BlockLoweringRegistry();
  ~BlockLoweringRegistry();
  struct Impl;
  Impl *impl;
};

/// Block kinds with built-in lowerings (EXLA's names).
inline constexpr const char kQRBlockKind[] = "Nx.Block.LinAlg.QR";
inline constexpr const char kEighBlockKind[] = "Nx.Block.LinAlg.Eigh";

/// Registers the built-in lowerings (idempotent; the registry calls it on
/// first use, so explicit calls are only needed after unregistering):
///   Nx.Block.LinAlg.QR   -> qr_cpu_custom_call_{f32,f64}
///   Nx.Block.LinAlg.Eigh -> eigh_cpu_custom_call_{f32,f64}
/// on the host platform, for one floating-point or signless integer input;
/// f16/bf16 and integer inputs are computed through the f32 target (operand
/// and result converts; integer inputs may declare f32 results, as Nx does).
/// Everything else (complex, i1, unsigned, other platforms, other arities)
/// skips. The block's config entries are passed on as backend_config
/// entries.
NX_BLOCK_LOWERING_API void registerBuiltinBlockLowerings();

} // namespace mlir::nx

#endif // NX_DIALECT_NX_BLOCKLOWERING_H

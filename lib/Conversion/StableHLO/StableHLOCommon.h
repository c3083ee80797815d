//===- StableHLOCommon.h - names shared by StableHLO export/import -*- C++ -*-//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef NX_LIB_DIALECT_NX_TRANSFORMS_STABLEHLOCOMMON_H
#define NX_LIB_DIALECT_NX_TRANSFORMS_STABLEHLOCOMMON_H

#include "nx/Conversion/NxToCustomCall/NxToCustomCall.h"
#include "nx/Dialect/Nx/IR/NxOps.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringRef.h"

namespace mlir::nx {

inline constexpr llvm::StringLiteral kStableHLODialect = "stablehlo";
inline constexpr llvm::StringLiteral kStableHLOCustomCall =
    "stablehlo.custom_call";
inline constexpr llvm::StringLiteral kStableHLOAliasMnemonic =
    "output_operand_alias";
inline constexpr llvm::StringLiteral kStableHLOCreateToken =
    "stablehlo.create_token";
inline constexpr llvm::StringLiteral kStableHLOAfterAll = "stablehlo.after_all";
/// `!stablehlo.token`, held as an opaque type of the unloaded dialect.
inline constexpr llvm::StringLiteral kStableHLOTokenMnemonic = "token";

// The callback targets of the peers.
inline constexpr llvm::StringLiteral kExlaElixirCallback =
    "exla_elixir_callback";
inline constexpr llvm::StringLiteral kExlaIoCallback = "exla_io_callback";
inline constexpr llvm::StringLiteral kExlaRuntimeCallback =
    kRuntimeCallbackTarget;
inline constexpr llvm::StringLiteral kJaxLegacyCpuCallback =
    "xla_python_cpu_callback";

inline bool isExlaCallbackTarget(llvm::StringRef target) {
  return target == kExlaElixirCallback || target == kExlaIoCallback ||
         target == kExlaRuntimeCallback;
}

/// JAX's typed-FFI host callbacks, which carry their `index` in a
/// dictionary config.
inline bool isJaxFfiCallbackTarget(llvm::StringRef target) {
  return target == "xla_ffi_python_cpu_callback" ||
         target == "xla_ffi_python_gpu_callback" ||
         target == "xla_ffi_partitioned_python_cpu_callback" ||
         target == "xla_ffi_partitioned_python_gpu_callback";
}

/// Turns the JAX and EXLA callback custom calls among `calls` into
/// nx.elixir_call / nx.io_callback, declaring their nx.callbacks; the others
/// stay. JAX's callback with index `i` is named `jaxNames[i]`, or
/// `jax_callback_<i>` past its end. Returns how many were raised.
FailureOr<int64_t> raiseCallbackCalls(ModuleOp module,
                                      ArrayRef<CustomCallOp> calls,
                                      ArrayRef<std::string> jaxNames);

} // namespace mlir::nx

#endif // NX_LIB_DIALECT_NX_TRANSFORMS_STABLEHLOCOMMON_H

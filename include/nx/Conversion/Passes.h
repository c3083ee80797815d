//===- Passes.h - nx conversion passes --------------------------*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef NX_CONVERSION_PASSES_H
#define NX_CONVERSION_PASSES_H

#include "nx/Dialect/Nx/Platform.h"

#include "mlir/Pass/Pass.h"

namespace mlir::nx {

/// How `convert-nx-to-custom-call` passes a callback id to the callback.
enum class CallbackIdEncoding {
  /// `callback_id` / `callback_id_size` backend_config entries.
  BackendConfig,
  /// A trailing `tensor<i64>` scalar operand.
  Operand,
};

/// Which custom calls `convert-nx-to-custom-call` makes of callbacks.
enum class CallbackAbi {
  /// EXLA's `exla_runtime_callback`: the callback server first, the id and
  /// `num_aliased_data_outputs` in backend_config.
  ExlaRuntimeCallback,
  /// `exla_elixir_callback` / `exla_io_callback` (or the targets given),
  /// with the id as `callback-id-encoding` says and an ordering token.
  ExlaLegacy,
};

#define GEN_PASS_DECL
#include "nx/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "nx/Conversion/Passes.h.inc"

} // namespace mlir::nx

#endif // NX_CONVERSION_PASSES_H

//===- NxToCustomCall.h - nx host ops to StableHLO custom calls -*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The patterns behind convert-nx-to-custom-call, for pipelines that build
// their own conversion. The pass description in include/nx/Conversion/
// Passes.td shows the IR before and after every case.
//
//===----------------------------------------------------------------------===//

#ifndef NX_CONVERSION_NXTOCUSTOMCALL_NXTOCUSTOMCALL_H
#define NX_CONVERSION_NXTOCUSTOMCALL_NXTOCUSTOMCALL_H

#include "nx/Conversion/Passes.h"
#include "nx/Dialect/Nx/Platform.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"

#include <cstdint>
#include <string>

namespace mlir::nx {

/// The custom-call targets of streams (EXLA's names), which
/// nx-import-stablehlo's raise-callbacks turns back into nx.outfeed and
/// nx.infeed.
inline constexpr llvm::StringLiteral kOutfeedTarget = "exla_beam_outfeed";
inline constexpr llvm::StringLiteral kInfeedTarget = "exla_beam_infeed";
/// EXLA's callback target (`callback-abi=exla`).
inline constexpr llvm::StringLiteral kRuntimeCallbackTarget =
    "exla_runtime_callback";

/// How host ops become custom calls; the pass options of the same names.
struct NxToCustomCallOptions {
  Platform platform = Platform::Host;
  CallbackAbi abi = CallbackAbi::ExlaRuntimeCallback;
  /// The targets and id encoding of CallbackAbi::ExlaLegacy.
  std::string callbackTarget = "exla_elixir_callback";
  std::string ioCallbackTarget = "exla_io_callback";
  CallbackIdEncoding idEncoding = CallbackIdEncoding::BackendConfig;
  /// When not empty, its bytes become the server operand
  /// (CallbackAbi::ExlaRuntimeCallback; 8 zero bytes without one) or the
  /// `callback_server_pid` words (CallbackAbi::ExlaLegacy).
  std::string callbackServerHandle;
  /// The stream of infeed / outfeed ops without a `stream` attribute.
  std::string streamName;
};

/// Reports at `op` (an nx.elixir_call, nx.io_callback, nx.infeed or
/// nx.outfeed) why the patterns below cannot lower it with `options`: not on
/// the host, an unknown callback or one without an id, no stream or one with
/// too long a name. Run it on every host op before the conversion so each
/// problem is reported once, at its op.
LogicalResult checkLowerableToCustomCall(Operation *op,
                                         const NxToCustomCallOptions &options,
                                         SymbolTableCollection &symbolTables);

/// Conversion patterns rewriting nx.elixir_call, nx.io_callback, nx.infeed
/// and nx.outfeed into nx.custom_call. Ordered callbacks of a block thread
/// one ordering token and the infeeds of a block one tag, in program order:
/// apply them to each block's ops in order (the conversion driver does).
/// `symbolTables`, when given, caches callback lookups; it must outlive the
/// patterns; `options` are copied.
void populateNxToCustomCallConversionPatterns(
    RewritePatternSet &patterns, const NxToCustomCallOptions &options,
    SymbolTableCollection *symbolTables = nullptr);

/// A pattern replacing each nx.block by the custom call the block lowering
/// registry names for `platform`, or by its default implementation when the
/// registry says skip. Not a 1:1 conversion (the registry decides per
/// block), so apply it with a rewrite driver; it reports an unusable
/// registry answer at the block and leaves the block in place.
void populateNxBlockToCustomCallPatterns(RewritePatternSet &patterns,
                                         Platform platform);

} // namespace mlir::nx

#endif // NX_CONVERSION_NXTOCUSTOMCALL_NXTOCUSTOMCALL_H

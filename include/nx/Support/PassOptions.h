//===- PassOptions.h - one clear error for a bad pass option ----*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A pass option of an enum type (`Option<..., "::mlir::nx::Platform", ...,
// "llvm::cl::values(...)">`) is parsed by LLVM's command-line library,
// which prints its own complaint about a value it does not know to stderr;
// MLIR then reports the failure as an empty `<unknown>:0: error:`. A pass
// that checks its enum options first, in its initializeOptions, gives one
// error naming the pass, the option, the value and the values it takes.
//
// A numeric option with a lower bound is checked when the pass runs (its
// options may come from C++ as well as from a string), with an error of the
// same form at the operation the pass runs on.
//
//===----------------------------------------------------------------------===//

#ifndef NX_SUPPORT_PASSOPTIONS_H
#define NX_SUPPORT_PASSOPTIONS_H

#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"

namespace mlir::nx {

/// The values a pass's option string (`a=1 b="x y" c={...}`, as MLIR's pass
/// pipelines write them) gives `key`, without their quotes, in order: MLIR
/// parses every occurrence, not only the last.
SmallVector<StringRef> findPassOptionValues(StringRef options, StringRef key);

/// Checks the value the option string `options` of pass `pass` gives the
/// enum option `option` (one of the pass's `Option` members) against the
/// names its `llvm::cl::values` accept. Reports a value it does not accept
/// through `errorHandler`, as initializeOptions reports errors.
template <typename EnumOption>
LogicalResult
checkEnumPassOption(StringRef pass, StringRef options, EnumOption &option,
                    function_ref<LogicalResult(const Twine &)> errorHandler) {
  auto &parser = option.getParser();
  SmallVector<StringRef> accepted;
  for (unsigned i = 0, e = parser.getNumOptions(); i != e; ++i)
    accepted.push_back(parser.getOption(i));
  for (StringRef value : findPassOptionValues(options, option.ArgStr))
    if (!llvm::is_contained(accepted, value))
      return errorHandler(pass + ": option '" + option.ArgStr +
                          "' must be one of " + llvm::join(accepted, ", ") +
                          ", got '" + value + "'");
  return success();
}

/// Fails, with "<pass>: option '<name>' must be at least <min>, got <value>"
/// at `op`, when a numeric pass option is below `min`.
template <typename NumericOption>
LogicalResult checkPassOptionAtLeast(Operation *op, StringRef pass,
                                     const NumericOption &option, int64_t min) {
  int64_t value = static_cast<int64_t>(option);
  if (value >= min)
    return success();
  return op->emitError() << pass << ": option '" << option.ArgStr
                         << "' must be at least " << min << ", got " << value;
}

/// Fails, with "<pass>: option '<name>' must be at most <max>, got <value>"
/// at `op`, when a numeric pass option is above `max`.
template <typename NumericOption>
LogicalResult checkPassOptionAtMost(Operation *op, StringRef pass,
                                    const NumericOption &option, int64_t max) {
  int64_t value = static_cast<int64_t>(option);
  if (value <= max)
    return success();
  return op->emitError() << pass << ": option '" << option.ArgStr
                         << "' must be at most " << max << ", got " << value;
}

} // namespace mlir::nx

#endif // NX_SUPPORT_PASSOPTIONS_H

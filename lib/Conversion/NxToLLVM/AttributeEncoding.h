//===- AttributeEncoding.h - typed attributes for the runtime ---*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Encodes an MLIR dictionary in libnxrt's typed-attribute format (see
// "Typed attributes" in nxrt/nxrt.h), so host handlers receive
// static_args and backend_config as integers, floats, strings, arrays and
// nested dictionaries, like XLA's typed FFI.
//
//===----------------------------------------------------------------------===//

#ifndef NX_LIB_CONVERSION_NXTOLLVM_ATTRIBUTEENCODING_H
#define NX_LIB_CONVERSION_NXTOLLVM_ATTRIBUTEENCODING_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Support/LLVM.h"

#include <string>

namespace mlir::nx {

/// Encodes `dict`. Integers (of any width; signed, signless or unsigned)
/// become I64, i1 and unit attributes BOOL, floats F64, strings and symbol
/// references STRING, arrays, dense arrays and dense elements ARRAY,
/// dictionaries DICT. Fails, emitting at `loc`, on anything else (e.g.
/// types or affine maps), naming the offending entry.
FailureOr<std::string> encodeHostAttributes(DictionaryAttr dict, Location loc);

} // namespace mlir::nx

#endif // NX_LIB_CONVERSION_NXTOLLVM_ATTRIBUTEENCODING_H

//===- FfiAttributes.h - site attributes as XLA FFI ones --------*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// XLA passes a handler its attributes as sorted arrays of names, types and
// pointers to scalars, dense arrays, strings and nested dictionaries. A
// call site's attributes never change, so they are converted once, when the
// site is first called, into storage the site keeps.
//
//===----------------------------------------------------------------------===//

#ifndef NXRT_LIB_FFIATTRIBUTES_H
#define NXRT_LIB_FFIATTRIBUTES_H

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "Attributes.h"
#include "absl/status/status.h"
#include "nxrt/xla_ffi.h"

namespace nxrt::ffi {

class FfiAttributes {
public:
  /// Converts `attrs`; an attribute XLA FFI cannot express (an integer of a
  /// width it has no type for, a mixed or nested array) is an error naming
  /// it. The result is the top-level dictionary, valid as long as `this`.
  absl::Status convert(const nxrt_attrs &attrs);
  const XLA_FFI_Attrs &top() const { return dicts.front().attrs; }

private:
  struct Dict {
    std::vector<XLA_FFI_AttrType> types;
    std::vector<XLA_FFI_ByteSpan *> names;
    std::vector<void *> values;
    XLA_FFI_Attrs attrs{};
  };
  absl::Status convertDict(const nxrt_attrs &attrs, Dict &dict,
                           const std::string &path);
  absl::Status convertValue(const nxrt_attr &attr, const std::string &path,
                            XLA_FFI_AttrType &type, void *&value);
  absl::Status convertArray(const nxrt_attr &attr, const std::string &path,
                            void *&value);

  // Deques: what they hold is pointed at, and push_back keeps it in place.
  std::deque<Dict> dicts;
  std::deque<std::string> strings;
  std::deque<XLA_FFI_ByteSpan> spans;
  std::deque<XLA_FFI_Scalar> scalars;
  std::deque<XLA_FFI_Array> arrays;
  std::deque<std::vector<uint8_t>> bytes;
};

} // namespace nxrt::ffi

#endif // NXRT_LIB_FFIATTRIBUTES_H

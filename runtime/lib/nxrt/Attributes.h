//===- Attributes.h - Decoded typed attribute dictionaries ------*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The in-memory form of the typed attribute encoding documented in nxrt.h.
// Blobs are decoded once per call site, so handlers read plain C++ values.
//
//===----------------------------------------------------------------------===//

#ifndef NXRT_LIB_ATTRIBUTES_H
#define NXRT_LIB_ATTRIBUTES_H

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "nxrt/nxrt.h"

struct nxrt_attrs;

struct nxrt_attr {
  nxrt_attr_kind_t kind = NXRT_ATTR_I64;
  // I64 and INT: the value extended to 64 bits (as unsigned for unsigned
  // types), its width and signedness.
  int64_t i = 0;
  uint32_t width = 64;
  nxrt_signedness_t signedness = NXRT_SIGNLESS;
  // F64 and FLOAT: the value, and the dtype it came as.
  double f = 0;
  nxrt_dtype_t floatDtype = NXRT_F64;
  bool b = false;
  std::string s;
  std::vector<nxrt_attr> array;
  std::unique_ptr<nxrt_attrs> dict;
};

struct nxrt_attrs {
  // Encoding order; dictionaries are small, so lookups scan.
  std::vector<std::pair<std::string, nxrt_attr>> entries;
};

namespace nxrt {

// Decodes a blob into a dictionary; malformed input is an error naming the
// byte offset, never a crash.
absl::StatusOr<std::unique_ptr<nxrt_attrs>> parseAttrs(const uint8_t *data,
                                                       size_t len);

const char *attrKindName(nxrt_attr_kind_t kind);

// The MLIR spelling of a value's type: "i64", "ui8", "si3", "bf16", "string".
std::string attrTypeName(const nxrt_attr &attr);

} // namespace nxrt

#endif // NXRT_LIB_ATTRIBUTES_H

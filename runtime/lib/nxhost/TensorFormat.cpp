//===- TensorFormat.cpp - tensor types and values as text -----------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Printing follows MLIR's dense-literal syntax, which parseLiteral
// (TensorLiteralParser.cpp) accepts, so the runners' --input and their
// printed results round-trip.
//
//===----------------------------------------------------------------------===//

#include "nxhost/HostTensor.h"

#include "Elements.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <charconv>
#include <cstring>

using namespace nxhost;

//===----------------------------------------------------------------------===//
// Formatting
//===----------------------------------------------------------------------===//

std::string nxhost::formatType(const nxrt_tensor_t &view) {
  std::string type(nxrt_tensor_type_string(&view, nullptr, 0), '\0');
  nxrt_tensor_type_string(&view, type.data(), type.size() + 1);
  return type;
}

template <typename T> static void appendFloat(std::string &out, T value) {
  char buffer[64];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof(buffer), value);
  if (ec != std::errc()) {
    out += "?";
    return;
  }
  out.append(buffer, end);
}

static void appendElement(std::string &out, nxrt_dtype_t dtype,
                          const uint8_t *p) {
  bool known = visitElement(
      dtype, p, [&](ElementKind kind, int width, const auto &parts) {
        switch (kind) {
        case ElementKind::Int:
          if (width == 1) {
            out += parts[0] ? "true" : "false";
            return;
          }
          out += std::to_string(parts[0]);
          return;
        case ElementKind::UInt:
          out += std::to_string(parts[0]);
          return;
        case ElementKind::Float:
        case ElementKind::BFloat:
          if (width == 16)
            appendFloat(out,
                        halfToFloat(kind, static_cast<uint16_t>(parts[0])));
          else
            appendFloat(out, parts[0]);
          return;
        case ElementKind::Complex:
          out += "(";
          appendFloat(out, parts.front());
          out += ", ";
          appendFloat(out, parts.back());
          out += ")";
          return;
        }
      });
  if (!known)
    out += "?";
}

static void formatDim(std::string &out, const nxrt_tensor_t &view, int32_t dim,
                      const uint8_t *&p, size_t elementSize) {
  if (dim == view.rank) {
    appendElement(out, view.dtype, p);
    p += elementSize;
    return;
  }
  out += "[";
  for (int64_t i = 0; i < view.dims[dim]; ++i) {
    if (i)
      out += ", ";
    formatDim(out, view, dim + 1, p, elementSize);
  }
  out += "]";
}

std::string nxhost::formatValues(const nxrt_tensor_t &view) {
  size_t elementSize = nxrt_dtype_size(view.dtype);
  if (elementSize == 0 || (view.rank > 0 && !view.dims))
    return "<invalid tensor>";
  // No elements print as NumPy prints them, "[]", whatever the shape (the
  // type has it): nested lists would make one per element of the other
  // dimensions, 10^12 of them for tensor<1000000x1000000x0xf32>.
  for (int32_t dim = 0; dim < view.rank; ++dim)
    if (view.dims[dim] == 0)
      return "[]";
  std::string out;
  const uint8_t *p = static_cast<const uint8_t *>(view.data);
  formatDim(out, view, 0, p, elementSize);
  return out;
}

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

#include "nx/Host/HostTensor.h"

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

template <typename T>
static void appendFloat(std::string &out, T value) {
  char buffer[64];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof(buffer), value);
  if (ec != std::errc()) {
    out += "?";
    return;
  }
  out.append(buffer, end);
}

static void appendHalf(std::string &out, uint16_t bits,
                       const llvm::fltSemantics &semantics) {
  llvm::APFloat value(semantics, llvm::APInt(16, bits));
  appendFloat(out, value.convertToFloat());
}

static void appendElement(std::string &out, nxrt_dtype_t dtype,
                          const uint8_t *p) {
  auto load = [&](auto tag) {
    decltype(tag) v;
    std::memcpy(&v, p, sizeof(v));
    return v;
  };
  switch (dtype) {
  case NXRT_PRED:
    out += *p ? "true" : "false";
    return;
  case NXRT_I8:
    out += std::to_string(load(int8_t{}));
    return;
  case NXRT_I16:
    out += std::to_string(load(int16_t{}));
    return;
  case NXRT_I32:
    out += std::to_string(load(int32_t{}));
    return;
  case NXRT_I64:
    out += std::to_string(load(int64_t{}));
    return;
  case NXRT_U8:
    out += std::to_string(load(uint8_t{}));
    return;
  case NXRT_U16:
    out += std::to_string(load(uint16_t{}));
    return;
  case NXRT_U32:
    out += std::to_string(load(uint32_t{}));
    return;
  case NXRT_U64:
    out += std::to_string(load(uint64_t{}));
    return;
  case NXRT_F16:
    appendHalf(out, load(uint16_t{}), llvm::APFloat::IEEEhalf());
    return;
  case NXRT_BF16:
    appendHalf(out, load(uint16_t{}), llvm::APFloat::BFloat());
    return;
  case NXRT_F32:
    appendFloat(out, load(float{}));
    return;
  case NXRT_F64:
    appendFloat(out, load(double{}));
    return;
  case NXRT_C64: {
    float re, im;
    std::memcpy(&re, p, 4);
    std::memcpy(&im, p + 4, 4);
    out += "(";
    appendFloat(out, re);
    out += ", ";
    appendFloat(out, im);
    out += ")";
    return;
  }
  case NXRT_C128: {
    double re, im;
    std::memcpy(&re, p, 8);
    std::memcpy(&im, p + 8, 8);
    out += "(";
    appendFloat(out, re);
    out += ", ";
    appendFloat(out, im);
    out += ")";
    return;
  }
  default:
    out += "?";
    return;
  }
}

static void formatDim(std::string &out, const nxrt_tensor_t &view,
                      int32_t dim, const uint8_t *&p, size_t elementSize) {
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
  std::string out;
  const uint8_t *p = static_cast<const uint8_t *>(view.data);
  formatDim(out, view, 0, p, elementSize);
  return out;
}

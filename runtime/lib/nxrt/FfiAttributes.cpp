//===- FfiAttributes.cpp - A site's attributes as XLA FFI attributes ------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "FfiAttributes.h"

#include "absl/strings/str_format.h"

#include <algorithm>
#include <cstring>
#include <numeric>

using nxrt::ffi::FfiAttributes;

namespace {

/// An element of a scalar or dense array: its XLA type and bytes.
struct Element {
  XLA_FFI_DataType dtype = XLA_FFI_DataType_INVALID;
  uint8_t bytes[8] = {};
  size_t size = 0;
};

template <typename T> Element element(XLA_FFI_DataType dtype, T value) {
  Element e;
  e.dtype = dtype;
  e.size = sizeof(T);
  std::memcpy(e.bytes, &value, sizeof(T));
  return e;
}

/// f16 bits of a float that f16 represents exactly (the compiler checked).
uint16_t halfBits(float value) {
  uint32_t x;
  std::memcpy(&x, &value, sizeof(x));
  uint16_t sign = (x >> 16) & 0x8000;
  int exponent = (x >> 23) & 0xff;
  uint32_t mantissa = x & 0x7fffff;
  if (exponent == 0xff)
    return sign | 0x7c00 | (mantissa ? 0x200 : 0);
  if (exponent == 0 && mantissa == 0)
    return sign;
  int halfExponent = exponent - 127 + 15;
  if (halfExponent <= 0)
    return sign | ((mantissa | 0x800000) >> (14 - halfExponent));
  return sign | (halfExponent << 10) | (mantissa >> 13);
}

absl::StatusOr<Element> integerElement(const nxrt_attr &attr,
                                       const std::string &path) {
  bool isUnsigned = attr.signedness == NXRT_UNSIGNED;
  switch (attr.width) {
  case 8:
    return isUnsigned ? element(XLA_FFI_DataType_U8, uint8_t(attr.i))
                      : element(XLA_FFI_DataType_S8, int8_t(attr.i));
  case 16:
    return isUnsigned ? element(XLA_FFI_DataType_U16, uint16_t(attr.i))
                      : element(XLA_FFI_DataType_S16, int16_t(attr.i));
  case 32:
    return isUnsigned ? element(XLA_FFI_DataType_U32, uint32_t(attr.i))
                      : element(XLA_FFI_DataType_S32, int32_t(attr.i));
  case 64:
    return isUnsigned ? element(XLA_FFI_DataType_U64, uint64_t(attr.i))
                      : element(XLA_FFI_DataType_S64, int64_t(attr.i));
  default:
    return absl::InvalidArgumentError(absl::StrFormat(
        "attribute '%s' has type %s, which XLA FFI has no scalar type for",
        path, nxrt::attrTypeName(attr)));
  }
}

absl::StatusOr<Element> floatElement(const nxrt_attr &attr) {
  switch (attr.floatDtype) {
  case NXRT_F32:
    return element(XLA_FFI_DataType_F32, float(attr.f));
  case NXRT_F16:
    return element(XLA_FFI_DataType_F16, halfBits(float(attr.f)));
  case NXRT_BF16: {
    float value = float(attr.f);
    uint32_t bits;
    std::memcpy(&bits, &value, sizeof(bits));
    return element(XLA_FFI_DataType_BF16, uint16_t(bits >> 16));
  }
  default:
    return element(XLA_FFI_DataType_F64, attr.f);
  }
}

/// The element a scalar attribute is; an error for strings, arrays and
/// dictionaries.
absl::StatusOr<Element> scalarElement(const nxrt_attr &attr,
                                      const std::string &path) {
  switch (attr.kind) {
  case NXRT_ATTR_I64:
    return element(XLA_FFI_DataType_S64, attr.i);
  case NXRT_ATTR_INT:
    return integerElement(attr, path);
  case NXRT_ATTR_F64:
    return element(XLA_FFI_DataType_F64, attr.f);
  case NXRT_ATTR_FLOAT:
    return floatElement(attr);
  case NXRT_ATTR_BOOL:
    return element(XLA_FFI_DataType_PRED, uint8_t(attr.b ? 1 : 0));
  default:
    return absl::InvalidArgumentError(
        absl::StrFormat("attribute '%s' is a %s, not a scalar", path,
                        nxrt::attrKindName(attr.kind)));
  }
}

} // namespace

absl::Status FfiAttributes::convert(const nxrt_attrs &attrs) {
  dicts.emplace_back();
  return convertDict(attrs, dicts.back(), "");
}

absl::Status FfiAttributes::convertDict(const nxrt_attrs &attrs, Dict &dict,
                                        const std::string &path) {
  size_t count = attrs.entries.size();
  std::vector<size_t> order(count);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return attrs.entries[a].first < attrs.entries[b].first;
  });
  dict.types.resize(count);
  dict.names.resize(count);
  dict.values.resize(count);
  for (size_t i = 0; i < count; ++i) {
    const auto &[name, attr] = attrs.entries[order[i]];
    std::string inner = path.empty() ? name : path + "." + name;
    strings.push_back(name);
    spans.push_back({strings.back().data(), strings.back().size()});
    dict.names[i] = &spans.back();
    if (absl::Status s =
            convertValue(attr, inner, dict.types[i], dict.values[i]);
        !s.ok())
      return s;
  }
  dict.attrs.struct_size = XLA_FFI_Attrs_STRUCT_SIZE;
  dict.attrs.size = static_cast<int64_t>(count);
  dict.attrs.types = dict.types.data();
  dict.attrs.names = dict.names.data();
  dict.attrs.attrs = dict.values.data();
  return absl::OkStatus();
}

absl::Status FfiAttributes::convertValue(const nxrt_attr &attr,
                                         const std::string &path,
                                         XLA_FFI_AttrType &type, void *&value) {
  switch (attr.kind) {
  case NXRT_ATTR_STRING:
    type = XLA_FFI_AttrType_STRING;
    strings.push_back(attr.s);
    spans.push_back({strings.back().data(), strings.back().size()});
    value = &spans.back();
    return absl::OkStatus();
  case NXRT_ATTR_DICT:
    type = XLA_FFI_AttrType_DICTIONARY;
    dicts.emplace_back();
    value = &dicts.back().attrs;
    return convertDict(*attr.dict, dicts.back(), path);
  case NXRT_ATTR_ARRAY:
    type = XLA_FFI_AttrType_ARRAY;
    return convertArray(attr, path, value);
  default:
    break;
  }
  absl::StatusOr<Element> scalar = scalarElement(attr, path);
  if (!scalar.ok())
    return scalar.status();
  type = XLA_FFI_AttrType_SCALAR;
  bytes.emplace_back(scalar->bytes, scalar->bytes + scalar->size);
  scalars.push_back({scalar->dtype, bytes.back().data()});
  value = &scalars.back();
  return absl::OkStatus();
}

absl::Status FfiAttributes::convertArray(const nxrt_attr &attr,
                                         const std::string &path,
                                         void *&value) {
  // XLA's arrays are dense arrays of one scalar type; an empty one is s64.
  XLA_FFI_DataType dtype = XLA_FFI_DataType_S64;
  std::vector<uint8_t> data;
  for (size_t i = 0; i < attr.array.size(); ++i) {
    absl::StatusOr<Element> e =
        scalarElement(attr.array[i], absl::StrFormat("%s[%d]", path, i));
    if (!e.ok())
      return e.status();
    if (i > 0 && e->dtype != dtype)
      return absl::InvalidArgumentError(absl::StrFormat(
          "attribute '%s' mixes element types; XLA FFI arrays have one", path));
    dtype = e->dtype;
    data.insert(data.end(), e->bytes, e->bytes + e->size);
  }
  bytes.push_back(std::move(data));
  arrays.push_back({dtype, attr.array.size(), bytes.back().data()});
  value = &arrays.back();
  return absl::OkStatus();
}

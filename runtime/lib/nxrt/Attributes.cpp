//===- Attributes.cpp - Typed attribute decoding and accessors ------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Attributes.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "Status.h"
#include "absl/strings/str_format.h"

namespace nxrt {
namespace {

class Decoder {
public:
  Decoder(const uint8_t *data, size_t len) : data(data), len(len) {}

  absl::Status readValue(nxrt_attr &out, int depth) {
    if (depth > NXRT_ATTR_MAX_DEPTH)
      return error(absl::StrFormat("nesting deeper than %d levels",
                                   NXRT_ATTR_MAX_DEPTH));
    size_t at = offset;
    uint8_t tag;
    if (!byte(tag))
      return error("truncated value tag");
    switch (tag) {
    case NXRT_ATTR_I64: {
      uint64_t bits;
      if (!u64(bits))
        return error("truncated i64");
      out.kind = NXRT_ATTR_I64;
      out.i = static_cast<int64_t>(bits);
      return absl::OkStatus();
    }
    case NXRT_ATTR_F64: {
      uint64_t bits;
      if (!u64(bits))
        return error("truncated f64");
      out.kind = NXRT_ATTR_F64;
      std::memcpy(&out.f, &bits, sizeof(double));
      return absl::OkStatus();
    }
    case NXRT_ATTR_BOOL: {
      uint8_t v;
      if (!byte(v))
        return error("truncated bool");
      if (v > 1)
        return error(absl::StrFormat("bool byte is 0x%02x, expected 0 or 1", v),
                     offset - 1);
      out.kind = NXRT_ATTR_BOOL;
      out.b = v;
      return absl::OkStatus();
    }
    case NXRT_ATTR_INT:
      return intValue(out);
    case NXRT_ATTR_FLOAT:
      return floatValue(out);
    case NXRT_ATTR_STRING:
      out.kind = NXRT_ATTR_STRING;
      return string(out.s, /*allowEmpty=*/true);
    case NXRT_ATTR_ARRAY: {
      uint32_t n;
      if (!u32(n))
        return error("truncated array length");
      // Each element takes at least 2 bytes; reject absurd counts before
      // reserving memory for them.
      if (n > (len - offset) / 2)
        return error(absl::StrFormat("array of %u elements exceeds the %u "
                                     "remaining bytes",
                                     n, len - offset));
      out.kind = NXRT_ATTR_ARRAY;
      out.array.resize(n);
      for (auto &elem : out.array)
        if (absl::Status s = readValue(elem, depth + 1); !s.ok())
          return s;
      return absl::OkStatus();
    }
    case NXRT_ATTR_DICT:
      out.kind = NXRT_ATTR_DICT;
      out.dict = std::make_unique<nxrt_attrs>();
      return dict(*out.dict, depth);
    default:
      return error(absl::StrFormat("unknown value tag 0x%02x", tag), at);
    }
  }

  absl::Status intValue(nxrt_attr &out) {
    size_t at = offset;
    uint8_t signedness, width;
    uint64_t bits;
    if (!byte(signedness) || !byte(width) || !u64(bits))
      return error("truncated int");
    if (signedness > NXRT_UNSIGNED)
      return error(
          absl::StrFormat("int signedness is %u, expected 0-2", signedness),
          at);
    if (width < 1 || width > 64)
      return error(absl::StrFormat("int width is %u, expected 1-64", width),
                   at);
    // The value must be the extension of a `width`-bit value.
    if (width < 64) {
      uint64_t high = bits >> (width - (signedness == NXRT_UNSIGNED ? 0 : 1));
      uint64_t ones =
          ~uint64_t(0) >> (width - (signedness == NXRT_UNSIGNED ? 0 : 1));
      if (high != 0 && (signedness == NXRT_UNSIGNED || high != ones))
        return error(absl::StrFormat("int value 0x%x does not fit its %u-bit "
                                     "type",
                                     bits, width),
                     at);
    }
    out.kind = NXRT_ATTR_INT;
    out.signedness = static_cast<nxrt_signedness_t>(signedness);
    out.width = width;
    out.i = static_cast<int64_t>(bits);
    return absl::OkStatus();
  }

  absl::Status floatValue(nxrt_attr &out) {
    size_t at = offset;
    uint8_t dtype;
    uint64_t bits;
    if (!byte(dtype) || !u64(bits))
      return error("truncated float");
    double value;
    std::memcpy(&value, &bits, sizeof(value));
    if (dtype != NXRT_F16 && dtype != NXRT_BF16 && dtype != NXRT_F32 &&
        dtype != NXRT_F64)
      return error(absl::StrFormat("float dtype is %u, expected f16, bf16, "
                                   "f32 or f64",
                                   dtype),
                   at);
    if (!fitsFloat(value, static_cast<nxrt_dtype_t>(dtype)))
      return error(
          absl::StrFormat("float value %g is not a %s", value,
                          nxrt_dtype_name(static_cast<nxrt_dtype_t>(dtype))),
          at);
    out.kind = NXRT_ATTR_FLOAT;
    out.floatDtype = static_cast<nxrt_dtype_t>(dtype);
    out.f = value;
    return absl::OkStatus();
  }

  // Whether `value` is exactly a value of `dtype` (NaNs and infinities are
  // in every float type).
  static bool fitsFloat(double value, nxrt_dtype_t dtype) {
    if (dtype == NXRT_F64 || std::isnan(value) || std::isinf(value) ||
        value == 0)
      return true;
    if (static_cast<double>(static_cast<float>(value)) != value)
      return false;
    if (dtype == NXRT_F32)
      return true;
    // f16: 11 significant bits, largest 65504, smallest step 2^-24.
    // bf16: 8 significant bits and f32's exponent range.
    int significant = dtype == NXRT_F16 ? 11 : 8;
    double magnitude = std::fabs(value);
    if (dtype == NXRT_F16 && magnitude > 65504)
      return false;
    int exponent;
    std::frexp(magnitude, &exponent);
    int step = exponent - significant;
    if (dtype == NXRT_F16)
      step = std::max(step, -24);
    else
      step = std::max(step, -133); // bf16's smallest subnormal, 2^-133
    return std::fmod(magnitude, std::ldexp(1.0, step)) == 0;
  }

  absl::Status dict(nxrt_attrs &out, int depth) {
    uint32_t n;
    if (!u32(n))
      return error("truncated dict length");
    // An entry takes at least 4 (name length) + 1 (name) + 2 bytes.
    if (n > (len - offset) / 7)
      return error(
          absl::StrFormat("dict of %u entries exceeds the %u remaining bytes",
                          n, len - offset));
    out.entries.resize(n);
    for (uint32_t k = 0; k < n; ++k) {
      size_t at = offset;
      auto &[name, value] = out.entries[k];
      if (absl::Status s = string(name, /*allowEmpty=*/false); !s.ok())
        return s;
      for (uint32_t j = 0; j < k; ++j)
        if (out.entries[j].first == name)
          return error(absl::StrFormat("duplicate key '%s'", name), at);
      if (absl::Status s = readValue(value, depth + 1); !s.ok())
        return s;
    }
    return absl::OkStatus();
  }

  absl::Status string(std::string &out, bool allowEmpty) {
    size_t at = offset;
    uint32_t n;
    if (!u32(n))
      return error("truncated string length");
    if (n > len - offset)
      return error(absl::StrFormat("string of %u bytes exceeds the %u "
                                   "remaining bytes",
                                   n, len - offset),
                   at);
    if (n == 0 && !allowEmpty)
      return error("empty name", at);
    const char *p = reinterpret_cast<const char *>(data + offset);
    if (std::memchr(p, 0, n))
      return error("string contains a NUL byte", at);
    out.assign(p, n);
    offset += n;
    return absl::OkStatus();
  }

  bool atEnd() const { return offset == len; }
  size_t pos() const { return offset; }

  absl::Status error(const std::string &what) const {
    return error(what, offset);
  }
  absl::Status error(const std::string &what, size_t at) const {
    return absl::InvalidArgumentError(absl::StrFormat(
        "malformed attributes at byte %u of %u: %s", at, len, what));
  }

  bool byte(uint8_t &v) {
    if (offset >= len)
      return false;
    v = data[offset++];
    return true;
  }

private:
  bool u32(uint32_t &v) {
    if (len - offset < 4)
      return false;
    v = 0;
    for (int k = 0; k < 4; ++k)
      v |= uint32_t(data[offset + k]) << (8 * k);
    offset += 4;
    return true;
  }
  bool u64(uint64_t &v) {
    if (len - offset < 8)
      return false;
    v = 0;
    for (int k = 0; k < 8; ++k)
      v |= uint64_t(data[offset + k]) << (8 * k);
    offset += 8;
    return true;
  }

  const uint8_t *data;
  size_t len;
  size_t offset = 0;
};

absl::Status typeError(const nxrt_attr *attr, const std::string &want,
                       const char *name) {
  if (!attr)
    return absl::InvalidArgumentError("attribute is null");
  if (name)
    return absl::InvalidArgumentError(
        absl::StrFormat("attribute '%s' has type %s, expected %s", name,
                        attrTypeName(*attr), want));
  return absl::InvalidArgumentError(absl::StrFormat(
      "attribute has type %s, expected %s", attrTypeName(*attr), want));
}

absl::Status kindError(const nxrt_attr *attr, nxrt_attr_kind_t want,
                       const char *name) {
  return typeError(attr, attrKindName(want), name);
}

} // namespace

const char *attrKindName(nxrt_attr_kind_t kind) {
  switch (kind) {
  case NXRT_ATTR_I64:
    return "i64";
  case NXRT_ATTR_F64:
    return "f64";
  case NXRT_ATTR_BOOL:
    return "bool";
  case NXRT_ATTR_STRING:
    return "string";
  case NXRT_ATTR_ARRAY:
    return "array";
  case NXRT_ATTR_DICT:
    return "dict";
  case NXRT_ATTR_INT:
    return "integer";
  case NXRT_ATTR_FLOAT:
    return "float";
  default:
    return "invalid";
  }
}

std::string attrTypeName(const nxrt_attr &attr) {
  if (attr.kind == NXRT_ATTR_INT) {
    const char *prefix = attr.signedness == NXRT_SIGNED     ? "si"
                         : attr.signedness == NXRT_UNSIGNED ? "ui"
                                                            : "i";
    return prefix + std::to_string(attr.width);
  }
  if (attr.kind == NXRT_ATTR_FLOAT)
    return nxrt_dtype_name(attr.floatDtype);
  return attrKindName(attr.kind);
}

absl::StatusOr<std::unique_ptr<nxrt_attrs>> parseAttrs(const uint8_t *data,
                                                       size_t len) {
  auto dict = std::make_unique<nxrt_attrs>();
  if (len == 0)
    return dict;
  if (!data)
    return absl::InvalidArgumentError(
        absl::StrFormat("malformed attributes: null data with length %u", len));
  Decoder d(data, len);
  uint8_t tag;
  d.byte(tag);
  if (tag != NXRT_ATTR_DICT)
    return d.error(
        absl::StrFormat("top-level value has tag 0x%02x, expected a dict "
                        "(0x06)",
                        tag),
        0);
  if (absl::Status s = d.dict(*dict, 1); !s.ok())
    return s;
  if (!d.atEnd())
    return d.error(absl::StrFormat("%u trailing bytes", len - d.pos()));
  return dict;
}

} // namespace nxrt

using nxrt::kindError;
using nxrt::toC;
using nxrt::typeError;

namespace {

// The typed reads, shared by the by-value and by-name accessors; `name`
// (optional) only names the attribute in errors.
absl::Status readI64(const nxrt_attr *attr, int64_t *out, const char *name) {
  if (!attr ||
      (attr->kind != NXRT_ATTR_I64 &&
       (attr->kind != NXRT_ATTR_INT || attr->signedness == NXRT_UNSIGNED)))
    return typeError(attr,
                     attr && attr->kind == NXRT_ATTR_INT
                         ? "a signless or signed integer (read unsigned "
                           "integers with nxrt_attr_u64)"
                         : "i64",
                     name);
  *out = attr->i;
  return absl::OkStatus();
}

absl::Status readU64(const nxrt_attr *attr, uint64_t *out, const char *name) {
  if (!attr || attr->kind != NXRT_ATTR_INT || attr->signedness != NXRT_UNSIGNED)
    return typeError(attr, "an unsigned integer", name);
  *out = static_cast<uint64_t>(attr->i);
  return absl::OkStatus();
}

absl::Status readF64(const nxrt_attr *attr, double *out, const char *name) {
  if (!attr || (attr->kind != NXRT_ATTR_F64 && attr->kind != NXRT_ATTR_FLOAT))
    return typeError(attr, "f64", name);
  *out = attr->f;
  return absl::OkStatus();
}

absl::Status readF32(const nxrt_attr *attr, float *out, const char *name) {
  if (!attr || attr->kind != NXRT_ATTR_FLOAT || attr->floatDtype == NXRT_F64)
    return typeError(attr, "f32, f16 or bf16 (read f64 with nxrt_attr_f64)",
                     name);
  *out = static_cast<float>(attr->f);
  return absl::OkStatus();
}

template <typename T>
nxrt_status_t *getByName(const nxrt_attrs_t *attrs, const char *name, T *out,
                         absl::Status (*read)(const nxrt_attr *, T *,
                                              const char *)) {
  const nxrt_attr_t *attr = nxrt_attrs_find(attrs, name);
  if (!attr)
    return toC(absl::NotFoundError(
        absl::StrFormat("missing attribute '%s'", name ? name : "")));
  return toC(read(attr, out, name));
}

absl::Status readBool(const nxrt_attr *attr, int *out, const char *name) {
  if (!attr || attr->kind != NXRT_ATTR_BOOL)
    return kindError(attr, NXRT_ATTR_BOOL, name);
  *out = attr->b;
  return absl::OkStatus();
}

} // namespace

extern "C" {

nxrt_status_t *nxrt_attrs_parse(const uint8_t *data, size_t len,
                                nxrt_attrs_t **out) {
  if (!out)
    return toC(absl::InvalidArgumentError("out is null"));
  *out = nullptr;
  auto parsed = nxrt::parseAttrs(data, len);
  if (!parsed.ok())
    return toC(parsed.status());
  *out = parsed->release();
  return nullptr;
}

void nxrt_attrs_free(nxrt_attrs_t *attrs) { delete attrs; }

size_t nxrt_attrs_size(const nxrt_attrs_t *attrs) {
  return attrs ? attrs->entries.size() : 0;
}

const char *nxrt_attrs_name_at(const nxrt_attrs_t *attrs, size_t i) {
  if (!attrs || i >= attrs->entries.size())
    return nullptr;
  return attrs->entries[i].first.c_str();
}

const nxrt_attr_t *nxrt_attrs_value_at(const nxrt_attrs_t *attrs, size_t i) {
  if (!attrs || i >= attrs->entries.size())
    return nullptr;
  return &attrs->entries[i].second;
}

const nxrt_attr_t *nxrt_attrs_find(const nxrt_attrs_t *attrs,
                                   const char *name) {
  if (!attrs || !name)
    return nullptr;
  for (const auto &[key, value] : attrs->entries)
    if (key == name)
      return &value;
  return nullptr;
}

nxrt_attr_kind_t nxrt_attr_kind(const nxrt_attr_t *attr) {
  return attr ? attr->kind : static_cast<nxrt_attr_kind_t>(0);
}

nxrt_status_t *nxrt_attr_i64(const nxrt_attr_t *attr, int64_t *out) {
  return toC(readI64(attr, out, nullptr));
}

nxrt_status_t *nxrt_attr_u64(const nxrt_attr_t *attr, uint64_t *out) {
  return toC(readU64(attr, out, nullptr));
}

nxrt_status_t *nxrt_attr_int_type(const nxrt_attr_t *attr, uint32_t *width,
                                  nxrt_signedness_t *signedness) {
  if (!attr || (attr->kind != NXRT_ATTR_I64 && attr->kind != NXRT_ATTR_INT))
    return toC(typeError(attr, "an integer", nullptr));
  if (width)
    *width = attr->width;
  if (signedness)
    *signedness = attr->signedness;
  return nullptr;
}

nxrt_status_t *nxrt_attr_f64(const nxrt_attr_t *attr, double *out) {
  return toC(readF64(attr, out, nullptr));
}

nxrt_status_t *nxrt_attr_f32(const nxrt_attr_t *attr, float *out) {
  return toC(readF32(attr, out, nullptr));
}

nxrt_status_t *nxrt_attr_float_dtype(const nxrt_attr_t *attr,
                                     nxrt_dtype_t *out) {
  if (!attr || (attr->kind != NXRT_ATTR_F64 && attr->kind != NXRT_ATTR_FLOAT))
    return toC(typeError(attr, "a float", nullptr));
  *out = attr->floatDtype;
  return nullptr;
}

nxrt_status_t *nxrt_attr_bool(const nxrt_attr_t *attr, int *out) {
  return toC(readBool(attr, out, nullptr));
}

nxrt_status_t *nxrt_attr_string(const nxrt_attr_t *attr, const char **out,
                                size_t *len) {
  if (!attr || attr->kind != NXRT_ATTR_STRING)
    return toC(kindError(attr, NXRT_ATTR_STRING, nullptr));
  *out = attr->s.c_str();
  if (len)
    *len = attr->s.size();
  return nullptr;
}

nxrt_status_t *nxrt_attr_array_size(const nxrt_attr_t *attr, size_t *out) {
  if (!attr || attr->kind != NXRT_ATTR_ARRAY)
    return toC(kindError(attr, NXRT_ATTR_ARRAY, nullptr));
  *out = attr->array.size();
  return nullptr;
}

const nxrt_attr_t *nxrt_attr_array_at(const nxrt_attr_t *attr, size_t i) {
  if (!attr || attr->kind != NXRT_ATTR_ARRAY || i >= attr->array.size())
    return nullptr;
  return &attr->array[i];
}

nxrt_status_t *nxrt_attr_dict(const nxrt_attr_t *attr,
                              const nxrt_attrs_t **out) {
  if (!attr || attr->kind != NXRT_ATTR_DICT)
    return toC(kindError(attr, NXRT_ATTR_DICT, nullptr));
  *out = attr->dict.get();
  return nullptr;
}

nxrt_status_t *nxrt_attrs_get_i64(const nxrt_attrs_t *attrs, const char *name,
                                  int64_t *out) {
  return getByName(attrs, name, out, readI64);
}

nxrt_status_t *nxrt_attrs_get_u64(const nxrt_attrs_t *attrs, const char *name,
                                  uint64_t *out) {
  return getByName(attrs, name, out, readU64);
}

nxrt_status_t *nxrt_attrs_get_f64(const nxrt_attrs_t *attrs, const char *name,
                                  double *out) {
  return getByName(attrs, name, out, readF64);
}

nxrt_status_t *nxrt_attrs_get_f32(const nxrt_attrs_t *attrs, const char *name,
                                  float *out) {
  return getByName(attrs, name, out, readF32);
}

nxrt_status_t *nxrt_attrs_get_bool(const nxrt_attrs_t *attrs, const char *name,
                                   int *out) {
  return getByName(attrs, name, out, readBool);
}

nxrt_status_t *nxrt_attrs_get_string(const nxrt_attrs_t *attrs,
                                     const char *name, const char **out,
                                     size_t *len) {
  const nxrt_attr_t *attr = nxrt_attrs_find(attrs, name);
  if (!attr)
    return toC(absl::NotFoundError(
        absl::StrFormat("missing attribute '%s'", name ? name : "")));
  if (attr->kind != NXRT_ATTR_STRING)
    return toC(kindError(attr, NXRT_ATTR_STRING, name));
  *out = attr->s.c_str();
  if (len)
    *len = attr->s.size();
  return nullptr;
}

} // extern "C"

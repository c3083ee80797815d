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
  Decoder(const uint8_t *data, size_t len) : data_(data), len_(len) {}

  absl::Status Value(nxrt_attr &out, int depth) {
    if (depth > NXRT_ATTR_MAX_DEPTH)
      return Error(absl::StrFormat("nesting deeper than %d levels",
                                   NXRT_ATTR_MAX_DEPTH));
    size_t at = pos_;
    uint8_t tag;
    if (!Byte(tag))
      return Error("truncated value tag");
    switch (tag) {
    case NXRT_ATTR_I64: {
      uint64_t bits;
      if (!U64(bits))
        return Error("truncated i64");
      out.kind = NXRT_ATTR_I64;
      out.i = static_cast<int64_t>(bits);
      return absl::OkStatus();
    }
    case NXRT_ATTR_F64: {
      uint64_t bits;
      if (!U64(bits))
        return Error("truncated f64");
      out.kind = NXRT_ATTR_F64;
      std::memcpy(&out.f, &bits, sizeof(double));
      return absl::OkStatus();
    }
    case NXRT_ATTR_BOOL: {
      uint8_t v;
      if (!Byte(v))
        return Error("truncated bool");
      if (v > 1)
        return Error(absl::StrFormat("bool byte is 0x%02x, expected 0 or 1", v),
                     pos_ - 1);
      out.kind = NXRT_ATTR_BOOL;
      out.b = v;
      return absl::OkStatus();
    }
    case NXRT_ATTR_INT:
      return Int(out);
    case NXRT_ATTR_FLOAT:
      return Float(out);
    case NXRT_ATTR_STRING:
      out.kind = NXRT_ATTR_STRING;
      return String(out.s, /*allowEmpty=*/true);
    case NXRT_ATTR_ARRAY: {
      uint32_t n;
      if (!U32(n))
        return Error("truncated array length");
      // Each element takes at least 2 bytes; reject absurd counts before
      // reserving memory for them.
      if (n > (len_ - pos_) / 2)
        return Error(absl::StrFormat("array of %u elements exceeds the %u "
                                     "remaining bytes",
                                     n, len_ - pos_));
      out.kind = NXRT_ATTR_ARRAY;
      out.array.resize(n);
      for (auto &elem : out.array)
        if (absl::Status s = Value(elem, depth + 1); !s.ok())
          return s;
      return absl::OkStatus();
    }
    case NXRT_ATTR_DICT:
      out.kind = NXRT_ATTR_DICT;
      out.dict = std::make_unique<nxrt_attrs>();
      return Dict(*out.dict, depth);
    default:
      return Error(absl::StrFormat("unknown value tag 0x%02x", tag), at);
    }
  }

  absl::Status Int(nxrt_attr &out) {
    size_t at = pos_;
    uint8_t signedness, width;
    uint64_t bits;
    if (!Byte(signedness) || !Byte(width) || !U64(bits))
      return Error("truncated int");
    if (signedness > NXRT_UNSIGNED)
      return Error(absl::StrFormat("int signedness is %u, expected 0-2",
                                   signedness),
                   at);
    if (width < 1 || width > 64)
      return Error(absl::StrFormat("int width is %u, expected 1-64", width),
                   at);
    // The value must be the extension of a `width`-bit value.
    if (width < 64) {
      uint64_t high = bits >> (width - (signedness == NXRT_UNSIGNED ? 0 : 1));
      uint64_t ones = ~uint64_t(0) >> (width - (signedness == NXRT_UNSIGNED
                                                    ? 0
                                                    : 1));
      if (high != 0 && (signedness == NXRT_UNSIGNED || high != ones))
        return Error(absl::StrFormat("int value 0x%x does not fit its %u-bit "
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

  absl::Status Float(nxrt_attr &out) {
    size_t at = pos_;
    uint8_t dtype;
    uint64_t bits;
    if (!Byte(dtype) || !U64(bits))
      return Error("truncated float");
    double value;
    std::memcpy(&value, &bits, sizeof(value));
    if (dtype != NXRT_F16 && dtype != NXRT_BF16 && dtype != NXRT_F32 &&
        dtype != NXRT_F64)
      return Error(absl::StrFormat("float dtype is %u, expected f16, bf16, "
                                   "f32 or f64",
                                   dtype),
                   at);
    if (!FitsFloat(value, static_cast<nxrt_dtype_t>(dtype)))
      return Error(absl::StrFormat("float value %g is not a %s", value,
                                   nxrt_dtype_name(
                                       static_cast<nxrt_dtype_t>(dtype))),
                   at);
    out.kind = NXRT_ATTR_FLOAT;
    out.float_dtype = static_cast<nxrt_dtype_t>(dtype);
    out.f = value;
    return absl::OkStatus();
  }

  // Whether `value` is exactly a value of `dtype` (NaNs and infinities are
  // in every float type).
  static bool FitsFloat(double value, nxrt_dtype_t dtype) {
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

  absl::Status Dict(nxrt_attrs &out, int depth) {
    uint32_t n;
    if (!U32(n))
      return Error("truncated dict length");
    // An entry takes at least 4 (name length) + 1 (name) + 2 bytes.
    if (n > (len_ - pos_) / 7)
      return Error(absl::StrFormat(
          "dict of %u entries exceeds the %u remaining bytes", n, len_ - pos_));
    out.entries.resize(n);
    for (uint32_t k = 0; k < n; ++k) {
      size_t at = pos_;
      auto &[name, value] = out.entries[k];
      if (absl::Status s = String(name, /*allowEmpty=*/false); !s.ok())
        return s;
      for (uint32_t j = 0; j < k; ++j)
        if (out.entries[j].first == name)
          return Error(absl::StrFormat("duplicate key '%s'", name), at);
      if (absl::Status s = Value(value, depth + 1); !s.ok())
        return s;
    }
    return absl::OkStatus();
  }

  absl::Status String(std::string &out, bool allowEmpty) {
    size_t at = pos_;
    uint32_t n;
    if (!U32(n))
      return Error("truncated string length");
    if (n > len_ - pos_)
      return Error(absl::StrFormat("string of %u bytes exceeds the %u "
                                   "remaining bytes",
                                   n, len_ - pos_),
                   at);
    if (n == 0 && !allowEmpty)
      return Error("empty name", at);
    const char *p = reinterpret_cast<const char *>(data_ + pos_);
    if (std::memchr(p, 0, n))
      return Error("string contains a NUL byte", at);
    out.assign(p, n);
    pos_ += n;
    return absl::OkStatus();
  }

  bool AtEnd() const { return pos_ == len_; }
  size_t pos() const { return pos_; }

  absl::Status Error(const std::string &what) const {
    return Error(what, pos_);
  }
  absl::Status Error(const std::string &what, size_t at) const {
    return absl::InvalidArgumentError(absl::StrFormat(
        "malformed attributes at byte %u of %u: %s", at, len_, what));
  }

  bool Byte(uint8_t &v) {
    if (pos_ >= len_)
      return false;
    v = data_[pos_++];
    return true;
  }

private:
  bool U32(uint32_t &v) {
    if (len_ - pos_ < 4)
      return false;
    v = 0;
    for (int k = 0; k < 4; ++k)
      v |= uint32_t(data_[pos_ + k]) << (8 * k);
    pos_ += 4;
    return true;
  }
  bool U64(uint64_t &v) {
    if (len_ - pos_ < 8)
      return false;
    v = 0;
    for (int k = 0; k < 8; ++k)
      v |= uint64_t(data_[pos_ + k]) << (8 * k);
    pos_ += 8;
    return true;
  }

  const uint8_t *data_;
  size_t len_;
  size_t pos_ = 0;
};

absl::Status TypeError(const nxrt_attr *attr, const std::string &want,
                       const char *name) {
  if (!attr)
    return absl::InvalidArgumentError("attribute is null");
  if (name)
    return absl::InvalidArgumentError(
        absl::StrFormat("attribute '%s' has type %s, expected %s", name,
                        AttrTypeName(*attr), want));
  return absl::InvalidArgumentError(absl::StrFormat(
      "attribute has type %s, expected %s", AttrTypeName(*attr), want));
}

absl::Status KindError(const nxrt_attr *attr, nxrt_attr_kind_t want,
                       const char *name) {
  return TypeError(attr, AttrKindName(want), name);
}

} // namespace

const char *AttrKindName(nxrt_attr_kind_t kind) {
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

std::string AttrTypeName(const nxrt_attr &attr) {
  if (attr.kind == NXRT_ATTR_INT) {
    const char *prefix = attr.signedness == NXRT_SIGNED     ? "si"
                         : attr.signedness == NXRT_UNSIGNED ? "ui"
                                                            : "i";
    return prefix + std::to_string(attr.width);
  }
  if (attr.kind == NXRT_ATTR_FLOAT)
    return nxrt_dtype_name(attr.float_dtype);
  return AttrKindName(attr.kind);
}

absl::StatusOr<std::unique_ptr<nxrt_attrs>> ParseAttrs(const uint8_t *data,
                                                       size_t len) {
  auto dict = std::make_unique<nxrt_attrs>();
  if (len == 0)
    return dict;
  if (!data)
    return absl::InvalidArgumentError(
        absl::StrFormat("malformed attributes: null data with length %u", len));
  Decoder d(data, len);
  uint8_t tag;
  d.Byte(tag);
  if (tag != NXRT_ATTR_DICT)
    return d.Error(
        absl::StrFormat("top-level value has tag 0x%02x, expected a dict "
                        "(0x06)",
                        tag),
        0);
  if (absl::Status s = d.Dict(*dict, 1); !s.ok())
    return s;
  if (!d.AtEnd())
    return d.Error(absl::StrFormat("%u trailing bytes", len - d.pos()));
  return dict;
}

} // namespace nxrt

using nxrt::KindError;
using nxrt::ToC;
using nxrt::TypeError;

namespace {

// The typed reads, shared by the by-value and by-name accessors; `name`
// (optional) only names the attribute in errors.
absl::Status ReadI64(const nxrt_attr *attr, int64_t *out, const char *name) {
  if (!attr || (attr->kind != NXRT_ATTR_I64 &&
                (attr->kind != NXRT_ATTR_INT ||
                 attr->signedness == NXRT_UNSIGNED)))
    return TypeError(attr,
                     attr && attr->kind == NXRT_ATTR_INT
                         ? "a signless or signed integer (read unsigned "
                           "integers with nxrt_attr_u64)"
                         : "i64",
                     name);
  *out = attr->i;
  return absl::OkStatus();
}

absl::Status ReadU64(const nxrt_attr *attr, uint64_t *out, const char *name) {
  if (!attr || attr->kind != NXRT_ATTR_INT ||
      attr->signedness != NXRT_UNSIGNED)
    return TypeError(attr, "an unsigned integer", name);
  *out = static_cast<uint64_t>(attr->i);
  return absl::OkStatus();
}

absl::Status ReadF64(const nxrt_attr *attr, double *out, const char *name) {
  if (!attr || (attr->kind != NXRT_ATTR_F64 && attr->kind != NXRT_ATTR_FLOAT))
    return TypeError(attr, "f64", name);
  *out = attr->f;
  return absl::OkStatus();
}

absl::Status ReadF32(const nxrt_attr *attr, float *out, const char *name) {
  if (!attr || attr->kind != NXRT_ATTR_FLOAT ||
      attr->float_dtype == NXRT_F64)
    return TypeError(attr,
                     "f32, f16 or bf16 (read f64 with nxrt_attr_f64)", name);
  *out = static_cast<float>(attr->f);
  return absl::OkStatus();
}

template <typename T>
nxrt_status_t *GetByName(const nxrt_attrs_t *attrs, const char *name, T *out,
                         absl::Status (*read)(const nxrt_attr *, T *,
                                              const char *)) {
  const nxrt_attr_t *attr = nxrt_attrs_find(attrs, name);
  if (!attr)
    return ToC(absl::NotFoundError(
        absl::StrFormat("missing attribute '%s'", name ? name : "")));
  return ToC(read(attr, out, name));
}

absl::Status ReadBool(const nxrt_attr *attr, int *out, const char *name) {
  if (!attr || attr->kind != NXRT_ATTR_BOOL)
    return KindError(attr, NXRT_ATTR_BOOL, name);
  *out = attr->b;
  return absl::OkStatus();
}

} // namespace

extern "C" {

nxrt_status_t *nxrt_attrs_parse(const uint8_t *data, size_t len,
                                nxrt_attrs_t **out) {
  if (!out)
    return ToC(absl::InvalidArgumentError("out is null"));
  *out = nullptr;
  auto parsed = nxrt::ParseAttrs(data, len);
  if (!parsed.ok())
    return ToC(parsed.status());
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
  return ToC(ReadI64(attr, out, nullptr));
}

nxrt_status_t *nxrt_attr_u64(const nxrt_attr_t *attr, uint64_t *out) {
  return ToC(ReadU64(attr, out, nullptr));
}

nxrt_status_t *nxrt_attr_int_type(const nxrt_attr_t *attr, uint32_t *width,
                                  nxrt_signedness_t *signedness) {
  if (!attr || (attr->kind != NXRT_ATTR_I64 && attr->kind != NXRT_ATTR_INT))
    return ToC(TypeError(attr, "an integer", nullptr));
  if (width)
    *width = attr->width;
  if (signedness)
    *signedness = attr->signedness;
  return nullptr;
}

nxrt_status_t *nxrt_attr_f64(const nxrt_attr_t *attr, double *out) {
  return ToC(ReadF64(attr, out, nullptr));
}

nxrt_status_t *nxrt_attr_f32(const nxrt_attr_t *attr, float *out) {
  return ToC(ReadF32(attr, out, nullptr));
}

nxrt_status_t *nxrt_attr_float_dtype(const nxrt_attr_t *attr,
                                     nxrt_dtype_t *out) {
  if (!attr || (attr->kind != NXRT_ATTR_F64 && attr->kind != NXRT_ATTR_FLOAT))
    return ToC(TypeError(attr, "a float", nullptr));
  *out = attr->float_dtype;
  return nullptr;
}

nxrt_status_t *nxrt_attr_bool(const nxrt_attr_t *attr, int *out) {
  return ToC(ReadBool(attr, out, nullptr));
}

nxrt_status_t *nxrt_attr_string(const nxrt_attr_t *attr, const char **out,
                                size_t *len) {
  if (!attr || attr->kind != NXRT_ATTR_STRING)
    return ToC(KindError(attr, NXRT_ATTR_STRING, nullptr));
  *out = attr->s.c_str();
  if (len)
    *len = attr->s.size();
  return nullptr;
}

nxrt_status_t *nxrt_attr_array_size(const nxrt_attr_t *attr, size_t *out) {
  if (!attr || attr->kind != NXRT_ATTR_ARRAY)
    return ToC(KindError(attr, NXRT_ATTR_ARRAY, nullptr));
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
    return ToC(KindError(attr, NXRT_ATTR_DICT, nullptr));
  *out = attr->dict.get();
  return nullptr;
}

nxrt_status_t *nxrt_attrs_get_i64(const nxrt_attrs_t *attrs, const char *name,
                                  int64_t *out) {
  return GetByName(attrs, name, out, ReadI64);
}

nxrt_status_t *nxrt_attrs_get_u64(const nxrt_attrs_t *attrs, const char *name,
                                  uint64_t *out) {
  return GetByName(attrs, name, out, ReadU64);
}

nxrt_status_t *nxrt_attrs_get_f64(const nxrt_attrs_t *attrs, const char *name,
                                  double *out) {
  return GetByName(attrs, name, out, ReadF64);
}

nxrt_status_t *nxrt_attrs_get_f32(const nxrt_attrs_t *attrs, const char *name,
                                  float *out) {
  return GetByName(attrs, name, out, ReadF32);
}

nxrt_status_t *nxrt_attrs_get_bool(const nxrt_attrs_t *attrs, const char *name,
                                   int *out) {
  return GetByName(attrs, name, out, ReadBool);
}

nxrt_status_t *nxrt_attrs_get_string(const nxrt_attrs_t *attrs,
                                     const char *name, const char **out,
                                     size_t *len) {
  const nxrt_attr_t *attr = nxrt_attrs_find(attrs, name);
  if (!attr)
    return ToC(absl::NotFoundError(
        absl::StrFormat("missing attribute '%s'", name ? name : "")));
  if (attr->kind != NXRT_ATTR_STRING)
    return ToC(KindError(attr, NXRT_ATTR_STRING, name));
  *out = attr->s.c_str();
  if (len)
    *len = attr->s.size();
  return nullptr;
}

} // extern "C"

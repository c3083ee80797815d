//===- DType.cpp - Element types and tensor view helpers ------------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "DType.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"

#include <algorithm>
#include <cstring>

namespace nxrt {

std::string typeString(const nxrt_tensor_t &t) {
  if (t.dtype == NXRT_TOKEN)
    return "!nx.token";
  std::string s = "tensor<";
  // A negative size is a dynamic one in a signature: MLIR's `?`.
  for (int32_t i = 0; i < t.rank && t.dims; ++i)
    if (t.dims[i] < 0)
      absl::StrAppend(&s, "?x");
    else
      absl::StrAppend(&s, t.dims[i], "x");
  absl::StrAppend(&s, nxrt_dtype_name(t.dtype), ">");
  return s;
}

std::string typeListString(absl::Span<const nxrt_tensor_t> ts) {
  return absl::StrCat(
      "(",
      absl::StrJoin(ts, ", ",
                    [](std::string *out, const nxrt_tensor_t &t) {
                      out->append(typeString(t));
                    }),
      ")");
}

bool sameType(const nxrt_tensor_t &a, const nxrt_tensor_t &b) {
  if (a.dtype != b.dtype || a.rank != b.rank)
    return false;
  for (int32_t i = 0; i < a.rank; ++i)
    if (a.dims[i] != b.dims[i])
      return false;
  return true;
}

absl::Status validateView(const nxrt_tensor_t &t, const char *what) {
  // Only custom-call targets that know tokens take them.
  if (t.dtype == NXRT_TOKEN)
    return absl::InvalidArgumentError(
        absl::StrFormat("%s is a token, where a tensor was expected", what));
  if (nxrt_dtype_size(t.dtype) == 0)
    return absl::InvalidArgumentError(
        absl::StrFormat("%s has invalid dtype %d", what, t.dtype));
  if (t.rank < 0 || (t.rank > 0 && !t.dims))
    return absl::InvalidArgumentError(
        absl::StrFormat("%s has invalid rank %d", what, t.rank));
  for (int32_t i = 0; i < t.rank; ++i)
    if (t.dims[i] < 0)
      return absl::InvalidArgumentError(absl::StrFormat(
          "%s has negative dimension %d at %d", what, t.dims[i], i));
  if (nxrt_tensor_byte_size(&t) == 0) {
    // Zero-element tensors are fine; a zero size otherwise means overflow.
    bool empty = false;
    for (int32_t i = 0; i < t.rank; ++i)
      empty |= t.dims[i] == 0;
    if (!empty)
      return absl::InvalidArgumentError(
          absl::StrFormat("%s is too large: %s", what, typeString(t)));
  } else if (!t.data) {
    return absl::InvalidArgumentError(
        absl::StrFormat("%s has no data pointer", what));
  }
  return absl::OkStatus();
}

absl::Status validateView(const nxrt_tensor_t &t, const char *kind,
                          size_t index) {
  if (absl::Status s = validateView(t, kind); s.ok())
    return s;
  return validateView(t, absl::StrFormat("%s %d", kind, index).c_str());
}

} // namespace nxrt

extern "C" {

uint32_t nxrt_api_version(void) { return NXRT_API_VERSION; }

size_t nxrt_dtype_size(nxrt_dtype_t dtype) {
  switch (dtype) {
#define NXRT_DTYPE(dtype, bytes, mlir, npy, kind, width, ctype)                \
  case dtype:                                                                  \
    return bytes;
#include "nxrt/nxrt_dtypes.def"
  default:
    return 0;
  }
}

const char *nxrt_dtype_name(nxrt_dtype_t dtype) {
  switch (dtype) {
#define NXRT_DTYPE(dtype, bytes, mlir, npy, kind, width, ctype)                \
  case dtype:                                                                  \
    return mlir;
#include "nxrt/nxrt_dtypes.def"
  case NXRT_TOKEN:
    return "token";
  default:
    return "invalid";
  }
}

int nxrt_tensor_same_type(const nxrt_tensor_t *a, const nxrt_tensor_t *b) {
  return a && b && nxrt::sameType(*a, *b);
}

size_t nxrt_tensor_type_string(const nxrt_tensor_t *tensor, char *buffer,
                               size_t size) {
  std::string type = tensor ? nxrt::typeString(*tensor) : "invalid";
  if (size > 0) {
    size_t copied = std::min(type.size(), size - 1);
    std::memcpy(buffer, type.data(), copied);
    buffer[copied] = '\0';
  }
  return type.size();
}

size_t nxrt_tensor_byte_size(const nxrt_tensor_t *t) {
  if (!t)
    return 0;
  size_t size = nxrt_dtype_size(t->dtype);
  if (size == 0 || t->rank < 0 || (t->rank > 0 && !t->dims))
    return 0;
  for (int32_t i = 0; i < t->rank; ++i) {
    if (t->dims[i] < 0)
      return 0;
    if (__builtin_mul_overflow(size, static_cast<size_t>(t->dims[i]), &size))
      return 0;
  }
  return size;
}

} // extern "C"

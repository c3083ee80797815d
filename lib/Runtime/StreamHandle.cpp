//===- StreamHandle.cpp - Stream handles as ui8 tensors -------------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Handles reach the runtime as tensor data, i.e. untrusted bytes: every field
// is checked before the name is used.
//
//===----------------------------------------------------------------------===//

#include <cstring>

#include "DType.h"
#include "Streams.h"
#include "absl/strings/str_format.h"

namespace nxrt {
namespace {

bool ValidUtf8(const uint8_t *p, size_t n) {
  size_t i = 0;
  while (i < n) {
    uint8_t c = p[i];
    size_t len;
    uint32_t cp;
    if (c < 0x80) {
      ++i;
      continue;
    } else if ((c & 0xE0) == 0xC0) {
      len = 2;
      cp = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
      len = 3;
      cp = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
      len = 4;
      cp = c & 0x07;
    } else {
      return false;
    }
    if (n - i < len)
      return false;
    for (size_t k = 1; k < len; ++k) {
      if ((p[i + k] & 0xC0) != 0x80)
        return false;
      cp = (cp << 6) | (p[i + k] & 0x3F);
    }
    // Reject overlong forms, surrogates and out-of-range code points.
    static const uint32_t kMin[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < kMin[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
      return false;
    i += len;
  }
  return true;
}

absl::Status Invalid(const std::string &why) {
  return absl::InvalidArgumentError("invalid stream handle: " + why);
}

} // namespace

absl::StatusOr<absl::string_view> DecodeStreamHandle(const nxrt_tensor_t &t) {
  if (t.dtype != NXRT_U8 || t.rank != 1 || !t.dims)
    return Invalid("expected a tensor<Nxui8>, got " + TypeString(t));
  int64_t size = t.dims[0];
  if (size < NXRT_STREAM_HANDLE_HEADER_SIZE + 1)
    return Invalid(absl::StrFormat("%d bytes is shorter than the %d-byte "
                                   "header plus a name",
                                   size, NXRT_STREAM_HANDLE_HEADER_SIZE));
  if (!t.data)
    return Invalid("no data pointer");
  const auto *p = static_cast<const uint8_t *>(t.data);
  if (std::memcmp(p, NXRT_STREAM_HANDLE_MAGIC, 4) != 0)
    return Invalid(
        absl::StrFormat("bad magic %02x %02x %02x %02x, expected \"%s\"", p[0],
                        p[1], p[2], p[3], NXRT_STREAM_HANDLE_MAGIC));
  if (p[4] != NXRT_STREAM_HANDLE_VERSION)
    return Invalid(absl::StrFormat("version %d, expected %d", p[4],
                                   NXRT_STREAM_HANDLE_VERSION));
  if (p[5] || p[6] || p[7])
    return Invalid("reserved bytes 5..7 are not zero");
  uint32_t len = uint32_t(p[8]) | uint32_t(p[9]) << 8 | uint32_t(p[10]) << 16 |
                 uint32_t(p[11]) << 24;
  if (len == 0 || len > NXRT_STREAM_NAME_MAX)
    return Invalid(absl::StrFormat("name length %d is outside 1..%d", len,
                                   NXRT_STREAM_NAME_MAX));
  if (static_cast<int64_t>(len) != size - NXRT_STREAM_HANDLE_HEADER_SIZE)
    return Invalid(absl::StrFormat(
        "name length %d does not match the %d bytes after the header", len,
        size - NXRT_STREAM_HANDLE_HEADER_SIZE));
  const uint8_t *name = p + NXRT_STREAM_HANDLE_HEADER_SIZE;
  if (std::memchr(name, 0, len) || !ValidUtf8(name, len))
    return Invalid("name is not valid UTF-8 without NUL bytes");
  return absl::string_view(reinterpret_cast<const char *>(name), len);
}

} // namespace nxrt

extern "C" size_t nxrt_stream_handle_encode(const char *name, uint8_t *out,
                                            size_t out_len) {
  if (!name)
    return 0;
  size_t len = std::strlen(name);
  if (len == 0 || len > NXRT_STREAM_NAME_MAX)
    return 0;
  size_t size = NXRT_STREAM_HANDLE_HEADER_SIZE + len;
  if (!out || out_len < size)
    return size;
  std::memcpy(out, NXRT_STREAM_HANDLE_MAGIC, 4);
  out[4] = NXRT_STREAM_HANDLE_VERSION;
  out[5] = out[6] = out[7] = 0;
  for (int k = 0; k < 4; ++k)
    out[8 + k] = static_cast<uint8_t>(len >> (8 * k));
  std::memcpy(out + NXRT_STREAM_HANDLE_HEADER_SIZE, name, len);
  return size;
}

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
#include "nxrt/nxrt_stream_handle.h"

namespace nxrt {
namespace {

absl::Status invalid(const std::string &why) {
  return absl::InvalidArgumentError("invalid stream handle: " + why);
}

// What is wrong with the handle's bytes, with their values.
absl::Status describe(nxrt_stream_handle_error_t error, const uint8_t *p,
                      int64_t size) {
  switch (error) {
  case NXRT_STREAM_HANDLE_OK:
    return absl::OkStatus();
  case NXRT_STREAM_HANDLE_TOO_SHORT:
    return invalid(absl::StrFormat("%d bytes is shorter than the %d-byte "
                                   "header plus a name",
                                   size, NXRT_STREAM_HANDLE_HEADER_SIZE));
  case NXRT_STREAM_HANDLE_BAD_MAGIC:
    return invalid(
        absl::StrFormat("bad magic %02x %02x %02x %02x, expected \"%s\"", p[0],
                        p[1], p[2], p[3], NXRT_STREAM_HANDLE_MAGIC));
  case NXRT_STREAM_HANDLE_BAD_VERSION:
    return invalid(absl::StrFormat("version %d, expected %d", p[4],
                                   NXRT_STREAM_HANDLE_VERSION));
  case NXRT_STREAM_HANDLE_RESERVED_NOT_ZERO:
    return invalid("reserved bytes 5..7 are not zero");
  case NXRT_STREAM_HANDLE_BAD_LENGTH:
    return invalid(absl::StrFormat("name length %d is outside 1..%d",
                                   nxrt_stream_handle_length_field(p),
                                   NXRT_STREAM_NAME_MAX));
  case NXRT_STREAM_HANDLE_LENGTH_MISMATCH:
    return invalid(absl::StrFormat(
        "name length %d does not match the %d bytes after the header",
        nxrt_stream_handle_length_field(p),
        size - NXRT_STREAM_HANDLE_HEADER_SIZE));
  case NXRT_STREAM_HANDLE_BAD_NAME:
    return invalid("name is not valid UTF-8 without NUL bytes");
  }
  return invalid("unknown problem");
}

} // namespace

absl::StatusOr<absl::string_view> decodeStreamHandle(const nxrt_tensor_t &t) {
  if (t.dtype != NXRT_U8 || t.rank != 1 || !t.dims)
    return invalid("expected a tensor<Nxui8>, got " + typeString(t));
  int64_t size = t.dims[0];
  if (size < NXRT_STREAM_HANDLE_HEADER_SIZE + 1)
    return describe(NXRT_STREAM_HANDLE_TOO_SHORT, nullptr, size);
  if (!t.data)
    return invalid("no data pointer");
  const auto *p = static_cast<const uint8_t *>(t.data);
  nxrt_stream_handle_error_t error =
      nxrt_stream_handle_check(p, static_cast<size_t>(size));
  if (error != NXRT_STREAM_HANDLE_OK)
    return describe(error, p, size);
  return absl::string_view(
      reinterpret_cast<const char *>(p + NXRT_STREAM_HANDLE_HEADER_SIZE),
      size - NXRT_STREAM_HANDLE_HEADER_SIZE);
}

} // namespace nxrt

extern "C" size_t nxrt_stream_handle_encode(const char *name, uint8_t *out,
                                            size_t outLen) {
  if (!name)
    return 0;
  return nxrt_stream_handle_write(name, std::strlen(name), out, outLen);
}

//===- StreamHandle.h - compile-time stream handles -------------*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The byte encoding of stream handles and infeed tags is defined ONCE, by the
// runtime ABI in nxrt/nxrt.h ("Streams" section):
//
//   handle: bytes 0..3  magic NXRT_STREAM_HANDLE_MAGIC ("NXSH")
//           byte  4     NXRT_STREAM_HANDLE_VERSION
//           bytes 5..7  zero
//           bytes 8..11 u32 little-endian name length L
//                       (1..NXRT_STREAM_NAME_MAX)
//           bytes 12..  L bytes of UTF-8 name
//   tag:    NXRT_STREAM_TAG_SIZE (8) bytes, a u64 little-endian sequence
//           number; the first infeed of a chain takes 0.
//
// This header builds those bytes at compile time from nxrt.h's constants,
// and reads them back when an exported program is imported (nxrt.h is
// plain C; the compiler does not link libnxrt).
//
//===----------------------------------------------------------------------===//

#ifndef NX_CONVERSION_STREAMHANDLE_H
#define NX_CONVERSION_STREAMHANDLE_H

#include "nxrt/nxrt.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace mlir::nx {

inline constexpr int64_t kStreamTagSize = NXRT_STREAM_TAG_SIZE;

/// The handle bytes of stream `name`, or std::nullopt when the name is empty
/// or longer than NXRT_STREAM_NAME_MAX.
inline std::optional<llvm::SmallVector<uint8_t>>
encodeStreamHandle(llvm::StringRef name) {
  if (name.empty() || name.size() > NXRT_STREAM_NAME_MAX)
    return std::nullopt;
  llvm::SmallVector<uint8_t> bytes;
  llvm::StringRef magic(NXRT_STREAM_HANDLE_MAGIC);
  bytes.append(magic.bytes_begin(), magic.bytes_end());
  bytes.push_back(NXRT_STREAM_HANDLE_VERSION);
  while (bytes.size() < NXRT_STREAM_HANDLE_HEADER_SIZE - 4)
    bytes.push_back(0);
  uint32_t length = static_cast<uint32_t>(name.size());
  for (int i = 0; i < 4; ++i)
    bytes.push_back(static_cast<uint8_t>(length >> (8 * i)));
  bytes.append(name.bytes_begin(), name.bytes_end());
  return bytes;
}

/// The stream name `bytes` encode, or std::nullopt when they are not a
/// handle of this version (a wrong magic, version, length or padding).
inline std::optional<std::string>
decodeStreamHandle(llvm::ArrayRef<uint8_t> bytes) {
  constexpr size_t header = NXRT_STREAM_HANDLE_HEADER_SIZE;
  llvm::StringRef magic(NXRT_STREAM_HANDLE_MAGIC);
  if (bytes.size() <= header ||
      !llvm::equal(bytes.take_front(magic.size()), magic.bytes()) ||
      bytes[magic.size()] != NXRT_STREAM_HANDLE_VERSION)
    return std::nullopt;
  for (size_t index = magic.size() + 1; index < header - 4; ++index)
    if (bytes[index] != 0)
      return std::nullopt;
  uint64_t length = 0;
  for (int i = 0; i < 4; ++i)
    length |= uint64_t{bytes[header - 4 + i]} << (8 * i);
  if (length == 0 || length > NXRT_STREAM_NAME_MAX ||
      length != bytes.size() - header)
    return std::nullopt;
  return std::string(bytes.begin() + header, bytes.end());
}

} // namespace mlir::nx

#endif // NX_CONVERSION_STREAMHANDLE_H

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
// nxrt/nxrt_stream_handle.h writes and checks those bytes (plain C, inline:
// the compiler does not link libnxrt); this header gives the compiler that
// definition in LLVM's types, to embed handles at compile time and read
// them back when an exported program is imported.
//
//===----------------------------------------------------------------------===//

#ifndef NX_CONVERSION_STREAMHANDLE_H
#define NX_CONVERSION_STREAMHANDLE_H

#include "nxrt/nxrt.h"
#include "nxrt/nxrt_stream_handle.h"

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
  size_t size = nxrt_stream_handle_size(name.size());
  if (size == 0)
    return std::nullopt;
  llvm::SmallVector<uint8_t> bytes(size);
  nxrt_stream_handle_write(name.data(), name.size(), bytes.data(),
                           bytes.size());
  return bytes;
}

/// The stream name `bytes` encode, or std::nullopt when they are not a
/// handle libnxrt would accept (a wrong magic, version, length or padding,
/// or a name that is not UTF-8).
inline std::optional<std::string>
decodeStreamHandle(llvm::ArrayRef<uint8_t> bytes) {
  if (nxrt_stream_handle_check(bytes.data(), bytes.size()) !=
      NXRT_STREAM_HANDLE_OK)
    return std::nullopt;
  return std::string(bytes.begin() + NXRT_STREAM_HANDLE_HEADER_SIZE,
                     bytes.end());
}

} // namespace mlir::nx

#endif // NX_CONVERSION_STREAMHANDLE_H

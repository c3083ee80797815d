//===- Platform.h - The platforms nx passes target --------------*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The value of convert-nx-to-custom-call's `platform` and
// nx-segment-callbacks' `device` options. Its name is what the block
// lowering registry is asked for and what `nx.device` attributes hold.
//
//===----------------------------------------------------------------------===//

#ifndef NX_DIALECT_NX_PLATFORM_H
#define NX_DIALECT_NX_PLATFORM_H

#include "llvm/ADT/StringRef.h"

#include <optional>

namespace mlir::nx {

enum class Platform { Host, Cuda, Rocm, Tpu };

inline llvm::StringRef stringifyPlatform(Platform platform) {
  switch (platform) {
  case Platform::Host:
    return "host";
  case Platform::Cuda:
    return "cuda";
  case Platform::Rocm:
    return "rocm";
  case Platform::Tpu:
    return "tpu";
  }
  return "host";
}

/// The platform named `name` (as stringifyPlatform spells it), if any.
inline std::optional<Platform> symbolizePlatform(llvm::StringRef name) {
  for (Platform platform :
       {Platform::Host, Platform::Cuda, Platform::Rocm, Platform::Tpu})
    if (stringifyPlatform(platform) == name)
      return platform;
  return std::nullopt;
}

/// The platforms' names, comma-separated, for diagnostics.
inline constexpr llvm::StringLiteral kPlatformNames = "host, cuda, rocm, tpu";

} // namespace mlir::nx

#endif // NX_DIALECT_NX_PLATFORM_H

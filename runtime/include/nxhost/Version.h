//===- Version.h - what every nx tool's --version prints --------*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
//   nx-runner (nx-mlir 0.2.0)
//     nxrt API version 7 (libnxrt loaded: 7), AOT ABI version 1
//
// The release (NXRT_VERSION), the runtime API the tool was built against
// and, for tools that load libnxrt, the API of the library actually loaded;
// for tools that write or read ahead-of-time objects, their ABI version.
//
//===----------------------------------------------------------------------===//

#ifndef NXHOST_VERSION_H
#define NXHOST_VERSION_H

#include "nxrt/nxrt_aot.h"
#include "nxrt/nxrt_version.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <optional>

namespace nxhost {

/// `loadedApiVersion`: nxrt_api_version() for tools linking libnxrt.
inline void printToolVersion(llvm::raw_ostream &os, llvm::StringRef tool,
                             std::optional<uint32_t> loadedApiVersion,
                             bool aotAbi) {
  os << tool << " (nx-mlir " << NXRT_VERSION << ")\n  nxrt API version "
     << NXRT_API_VERSION;
  if (loadedApiVersion)
    os << " (libnxrt loaded: " << *loadedApiVersion << ")";
  if (aotAbi)
    os << ", AOT ABI version " << NXRT_AOT_ABI_VERSION;
  os << "\n";
}

} // namespace nxhost

#endif // NXHOST_VERSION_H

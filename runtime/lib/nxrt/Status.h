//===- Status.h - nxrt_status_t and absl::Status conversion -----*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef NXRT_LIB_STATUS_H
#define NXRT_LIB_STATUS_H

#include <string>

#include "absl/status/status.h"
#include "nxrt/nxrt.h"

struct nxrt_status {
  nxrt_status_code_t code;
  std::string message;
};

namespace nxrt {

// Hands an absl::Status across the C ABI: NULL for OK, else a new
// caller-owned nxrt_status_t.
nxrt_status_t *toC(const absl::Status &status);

// Takes ownership of a status returned by user code (NULL = OK).
absl::Status fromC(nxrt_status_t *status);

} // namespace nxrt

#endif // NXRT_LIB_STATUS_H

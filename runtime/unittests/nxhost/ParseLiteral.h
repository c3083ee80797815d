//===- ParseLiteral.h - HostTensor literals in nxhost's tests ---*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef NXHOST_UNITTESTS_PARSELITERAL_H
#define NXHOST_UNITTESTS_PARSELITERAL_H

#include "nxhost/HostTensor.h"

#include <gtest/gtest.h>

namespace nxhost_test {

/// Parses `text` (HostTensor::parseLiteral), failing the test on an error.
inline nxhost::HostTensor parseLiteral(llvm::StringRef text) {
  auto tensor = nxhost::HostTensor::parseLiteral(text);
  if (!tensor) {
    ADD_FAILURE() << text.str() << ": " << llvm::toString(tensor.takeError());
    return nxhost::HostTensor();
  }
  return std::move(*tensor);
}

} // namespace nxhost_test

#endif // NXHOST_UNITTESTS_PARSELITERAL_H

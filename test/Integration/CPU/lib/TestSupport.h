//===- TestSupport.h - helpers shared by the test callback libraries -----===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Header-only: each test library is a shared object of its own.
//
//===----------------------------------------------------------------------===//

#ifndef NX_TEST_INTEGRATION_CPU_LIB_TESTSUPPORT_H
#define NX_TEST_INTEGRATION_CPU_LIB_TESTSUPPORT_H

#include "nxrt/nxrt.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace nx_test {

/// A status the runtime takes ownership of.
inline nxrt_status_t *error(nxrt_status_code_t code,
                            const std::string &message) {
  return nxrt_status_create(code, message.c_str());
}

/// The number of elements of a view.
inline size_t numElements(const nxrt_tensor_t &t) {
  size_t n = 1;
  for (int32_t i = 0; i < t.rank; ++i)
    n *= static_cast<size_t>(t.dims[i]);
  return n;
}

} // namespace nx_test

#endif // NX_TEST_INTEGRATION_CPU_LIB_TESTSUPPORT_H

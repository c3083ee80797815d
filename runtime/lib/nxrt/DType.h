//===- DType.h - Element types and tensor view helpers ----------*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef NXRT_LIB_DTYPE_H
#define NXRT_LIB_DTYPE_H

#include <string>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "nxrt/nxrt.h"

namespace nxrt {

// "tensor<2x3xf32>", the MLIR spelling used in every shape message.
std::string typeString(const nxrt_tensor_t &t);
// "(tensor<2xf32>, tensor<i64>)".
std::string typeListString(absl::Span<const nxrt_tensor_t> ts);

// Same dtype and dims (data is not compared).
bool sameType(const nxrt_tensor_t &a, const nxrt_tensor_t &b);

// Checks dtype/rank/dims/data of an untrusted view; `what` names it in the
// message ("argument 1").
absl::Status validateView(const nxrt_tensor_t &t, const char *what);
// The same for the `index`-th view of a list (named "<kind> <index>"); the
// name is formatted only when the view is invalid, keeping hot paths free of
// allocations.
absl::Status validateView(const nxrt_tensor_t &t, const char *kind,
                          size_t index);

} // namespace nxrt

#endif // NXRT_LIB_DTYPE_H

//===- Relu.h - the ReLU compiled code hands to libnxrt ---------*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The ReLU that products and convolutions apply to their outputs is
// arith.maximumf(value, +0.0): a NaN stays a NaN, a negative or -0 becomes
// +0.
//
//===----------------------------------------------------------------------===//

#ifndef NXRT_LIB_RELU_H
#define NXRT_LIB_RELU_H

namespace nxrt {

/// arith.maximumf(value, +0.0). Written as one compare and one select, so
/// that a loop of it vectorizes at every vector width: a compare and an
/// AND-NOT per vector, no branch. The signs of a layer's outputs are as
/// good as random, and a branch mispredicted on every other one made the
/// pass over a convolution's output take 6-10x the convolution's time.
/// `(0 > value ? 0 : value) + 0`, which it replaces, is the same function,
/// but GCC moves the addition into one arm of the select; under
/// -ftrapping-math it may then vectorize that only with masked AVX-512
/// instructions, and on AVX2 it compiled to a branch per element.
template <typename T> inline T reluOf(T value) {
  return value <= T(0) ? T(0) : value;
}

} // namespace nxrt

#endif // NXRT_LIB_RELU_H

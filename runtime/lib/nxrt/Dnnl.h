//===- Dnnl.h - what libnxrt's oneDNN primitives share ----------*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The convolutions (Convolution.cpp) and the bf16 products
// (MatmulBf16.cpp) of compiled code run oneDNN primitives on one CPU engine,
// each with a scratchpad its caller passes in.
//
//===----------------------------------------------------------------------===//

#ifndef NXRT_LIB_DNNL_H
#define NXRT_LIB_DNNL_H

#include <oneapi/dnnl/dnnl.hpp>

#include <cstddef>
#include <cstdlib>
#include <memory>

namespace nxrt {

/// The process's oneDNN CPU engine, made at the first call and never
/// destroyed (primitives cached in static maps outlive any destructor
/// order). Thread-safe.
dnnl::engine &dnnlCpuEngine();

/// Attributes that make the caller pass each primitive's scratchpad. In its
/// default mode, this build of oneDNN hands every primitive one scratchpad
/// shared by the whole process: convolutions called at once from two host
/// threads wrote over each other's partial sums.
dnnl::primitive_attr withUserScratchpad(dnnl::primitive_attr attributes);

/// A thread's buffer for an operand in a kernel's layout, or for a
/// primitive's scratchpad: kept between calls, grown when a larger one is
/// needed, so that a model's primitives allocate nothing after their first
/// calls. Not thread-safe: each thread keeps its own.
class ScratchBuffer {
public:
  /// At least `bytes`, 64-byte aligned. Throws dnnl::error when there is
  /// no memory for it.
  void *get(size_t bytes);

  /// Grows the buffer to `bytes` now and writes it, so that its pages are
  /// mapped before the first call that needs it. A failed allocation is
  /// left to that call, which falls back to a loop.
  void reserve(size_t bytes);

private:
  struct FreeDeleter {
    void operator()(void *p) const { std::free(p); }
  };
  std::unique_ptr<void, FreeDeleter> data;
  size_t capacity = 0;
};

} // namespace nxrt

#endif // NXRT_LIB_DNNL_H

//===- ThreadBuffer.h - a thread's buffer for copies of operands -*- C++
//-*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef NXRT_LIB_THREADBUFFER_H
#define NXRT_LIB_THREADBUFFER_H

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>

namespace nxrt {

/// A thread's buffer of elements for a copy of an operand, kept for the
/// thread's next call and grown when a larger one is needed.
template <typename T> class ThreadBuffer {
public:
  /// At least `count` elements, 64-byte aligned; nullptr when there is no
  /// memory for them.
  T *get(size_t count) {
    // No allocation holds that many bytes (the size itself would wrap).
    if (count > (SIZE_MAX - 64) / sizeof(T))
      return nullptr;
    if (count > capacity) {
      size_t bytes = (count * sizeof(T) + 63) / 64 * 64;
      data.reset(static_cast<T *>(std::aligned_alloc(64, bytes)));
      capacity = data ? count : 0;
    }
    return data.get();
  }

  /// Grows the buffer to `count` elements now and writes them, so that its
  /// pages are mapped before the first product that needs them. A failed
  /// allocation is left to that product.
  void reserve(size_t count) {
    if (count <= capacity)
      return;
    if (T *elements = get(count))
      std::memset(elements, 0, count * sizeof(T));
  }

private:
  struct FreeDeleter {
    void operator()(T *p) const { std::free(p); }
  };
  std::unique_ptr<T, FreeDeleter> data;
  size_t capacity = 0;
};
using FloatBuffer = ThreadBuffer<float>;

} // namespace nxrt

#endif // NXRT_LIB_THREADBUFFER_H

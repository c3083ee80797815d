//===- AlignedVector.h - benchmark buffers on cache-line boundaries -------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The inputs and outputs of the model and op benchmarks, for nx and for
// the baselines alike. glibc serves a large std::vector from mmap, 16 bytes
// past a page boundary, so every 64-byte vector load from it straddles two
// cache lines; PyTorch's allocator, nx's own buffers and NumPy-free hosts
// hand out 64-byte aligned memory. Both sides of a comparison get the same.
//
//===----------------------------------------------------------------------===//

#ifndef NX_BENCH_ALIGNEDVECTOR_H
#define NX_BENCH_ALIGNEDVECTOR_H

#include <cstddef>
#include <new>
#include <vector>

namespace nx_bench {

/// Allocates on 64-byte (cache line) boundaries.
template <typename T> struct CacheLineAllocator {
  using value_type = T;
  static constexpr std::align_val_t kAlignment{64};

  CacheLineAllocator() = default;
  template <typename U>
  CacheLineAllocator(const CacheLineAllocator<U> &) noexcept {}

  T *allocate(std::size_t count) {
    return static_cast<T *>(::operator new(count * sizeof(T), kAlignment));
  }
  void deallocate(T *pointer, std::size_t) noexcept {
    ::operator delete(pointer, kAlignment);
  }
  template <typename U> bool operator==(const CacheLineAllocator<U> &) const {
    return true;
  }
  template <typename U> bool operator!=(const CacheLineAllocator<U> &) const {
    return false;
  }
};

/// A std::vector whose data starts on a cache line.
template <typename T>
using AlignedVector = std::vector<T, CacheLineAllocator<T>>;

} // namespace nx_bench

#endif // NX_BENCH_ALIGNEDVECTOR_H
